import type { Entries } from "./order.ts";
import { placeholderNames } from "./icu.ts";

/** `@@locale` with underscores: older gen-l10n versions split locales only on `_` (CONTRACTS 3). */
export function arbLocale(code: string): string {
  return code.replace(/-/g, "_");
}

/**
 * Spec 2.6 ARB rules 4-5 and CONTRACTS 3: `@@locale` first, then each message under its derived
 * name followed by `@name` metadata (the key's context as `description`, and every ICU placeholder)
 * when there is any. `names` must cover the release's whole key set, not just this language's.
 */
export function compileArb(code: string, entries: Entries, names: ReadonlyMap<string, string>, contexts: ReadonlyMap<string, string | null>): string {
  const lines: string[] = [`  "@@locale": ${JSON.stringify(arbLocale(code))}`];
  for (const [key, value] of entries) {
    const name = names.get(key);
    if (name === undefined) throw new Error(`no ARB name for key ${JSON.stringify(key)}`);
    lines.push(`  ${JSON.stringify(name)}: ${JSON.stringify(value)}`);
    const meta: { description?: string; placeholders?: Record<string, Record<string, never>> } = {};
    const description = contexts.get(key);
    if (description) meta.description = description;
    const placeholders = placeholderNames(value);
    if (placeholders.length > 0) meta.placeholders = Object.fromEntries(placeholders.map((p) => [p, {}]));
    if (meta.description !== undefined || meta.placeholders) lines.push(`  ${JSON.stringify(`@${name}`)}: ${JSON.stringify(meta)}`);
  }
  return `{\n${lines.join(",\n")}\n}\n`;
}
