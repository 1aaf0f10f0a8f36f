import type { Entries } from "./order.ts";

/**
 * Spec 2.6 / CONTRACTS 3: a flat object mapping each key, exactly as authored, to its string,
 * sorted by key. Written by hand rather than with JSON.stringify(object), because an object puts
 * integer-like keys ("10", "2") first and would break the sort order.
 */
export function compileJson(entries: Entries): string {
  if (entries.length === 0) return "{}\n";
  const lines = new Array<string>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const [key, value] = entries[i]!;
    lines[i] = `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`;
  }
  return `{\n${lines.join(",\n")}\n}\n`;
}
