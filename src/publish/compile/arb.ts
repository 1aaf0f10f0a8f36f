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
    const quotedName = JSON.stringify(name);
    lines.push(`  ${quotedName}: ${JSON.stringify(value)}`);
    // Metadata written by hand (it is on the publish hot path): {"description":...,"placeholders":{"x":{}}}
    const description = contexts.get(key);
    const placeholders = placeholderNames(value);
    if (!description && placeholders.length === 0) continue;
    const parts: string[] = [];
    if (description) parts.push(`"description":${JSON.stringify(description)}`);
    if (placeholders.length > 0) parts.push(`"placeholders":{${placeholders.map((p) => `${JSON.stringify(p)}:{}`).join(",")}}`);
    lines.push(`  "@${quotedName.slice(1)}: {${parts.join(",")}}`);
  }
  return `{\n${lines.join(",\n")}\n}\n`;
}
