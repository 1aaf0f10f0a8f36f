import type { Entries } from "./order.ts";
import { placeholderNames } from "./icu.ts";

/** `@@locale` with underscores: older gen-l10n versions split locales only on `_` (CONTRACTS 3). */
export function arbLocale(code: string): string {
  return code.replace(/-/g, "_");
}

/**
 * One message and, when there is any, its `@name` metadata: the key's context as `description` and
 * every ICU placeholder (spec 2.6 ARB rule 4, CONTRACTS 3). Written by hand (it is on the publish hot
 * path) from the already-quoted name and value.
 */
export function arbLines(lines: string[], nameJson: string, value: string, valueJson: string, description: string | null | undefined): void {
  lines.push(`  ${nameJson}: ${valueJson}`);
  const placeholders = placeholderNames(value);
  if (!description && placeholders.length === 0) return;
  const parts: string[] = [];
  if (description) parts.push(`"description":${JSON.stringify(description)}`);
  if (placeholders.length > 0) parts.push(`"placeholders":{${placeholders.map((p) => `${JSON.stringify(p)}:{}`).join(",")}}`);
  lines.push(`  "@${nameJson.slice(1)}: {${parts.join(",")}}`);
}

/** Spec 2.6 ARB rule 5: `@@locale` comes first. */
export function arbHeader(code: string): string {
  return `  "@@locale": ${JSON.stringify(arbLocale(code))}`;
}

export function arbDocument(lines: string[]): string {
  return `{\n${lines.join(",\n")}\n}\n`;
}

/**
 * Spec 2.6 ARB rules 4-5 and CONTRACTS 3: `@@locale` first, then each message under its derived
 * name followed by its metadata. `names` must cover the release's whole key set, not just this
 * language's, so every language file uses the same names.
 */
export function compileArb(code: string, entries: Entries, names: ReadonlyMap<string, string>, contexts: ReadonlyMap<string, string | null>): string {
  const lines = [arbHeader(code)];
  for (const [key, value] of entries) {
    const name = names.get(key);
    if (name === undefined) throw new Error(`no ARB name for key ${JSON.stringify(key)}`);
    arbLines(lines, JSON.stringify(name), value, JSON.stringify(value), contexts.get(key));
  }
  return arbDocument(lines);
}
