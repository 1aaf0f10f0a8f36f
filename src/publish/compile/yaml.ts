import type { Entries } from "./order.ts";

/**
 * CONTRACTS 3: YAML must read back to exactly the same strings in YAML 1.1 and 1.2 parsers.
 * A scalar is written plain only when it is unmistakably a string in both versions: it starts
 * with an ASCII letter, holds only letters, spaces and `_ . , -` (no digits: some 1.1 parsers read
 * `e9` as a number), does not end in a space, and is not one of the words YAML 1.1 reads as a
 * boolean or null (`y`, `no`, `On`, `NULL`, ...).
 * Everything else is double-quoted with escapes both versions share (`\"`, `\\`, `\uXXXX`).
 */
const PLAIN_SAFE = /^[A-Za-z](?:[A-Za-z_.,\- ]*[A-Za-z_.,\-])?$/;
const YAML11_WORDS = new Set(["y", "n", "yes", "no", "true", "false", "on", "off", "null"]);

function isPlainSafe(s: string): boolean {
  return PLAIN_SAFE.test(s) && !YAML11_WORDS.has(s.toLowerCase());
}

/**
 * Characters written raw inside double quotes: the printable set of YAML 1.1 (the stricter
 * version) minus line breaks, which 1.1 would fold (it counts U+0085, U+2028 and U+2029 as
 * breaks), minus the byte order mark.
 */
function needsEscape(cp: number): boolean {
  if (cp < 0x20 || cp === 0x7f) return true;
  if (cp >= 0x80 && cp <= 0x9f) return true; // C1 controls, NEL among them
  if (cp === 0x2028 || cp === 0x2029 || cp === 0xfeff) return true;
  if (cp >= 0xd800 && cp <= 0xdfff) return true; // a lone surrogate (a pair arrives combined)
  return cp === 0xfffe || cp === 0xffff;
}

const SHORT_ESCAPES: Record<number, string> = { 0x09: "\\t", 0x0a: "\\n", 0x0d: "\\r", 0x22: '\\"', 0x5c: "\\\\" };

export function quoteYaml(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const short = SHORT_ESCAPES[cp];
    if (short) out += short;
    else if (needsEscape(cp)) out += `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`;
    else out += ch;
  }
  return out + '"';
}

export function yamlScalar(s: string): string {
  return isPlainSafe(s) ? s : quoteYaml(s);
}

export function compileYaml(entries: Entries): string {
  if (entries.length === 0) return "{}\n";
  const lines = new Array<string>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const [key, value] = entries[i]!;
    lines[i] = `${yamlScalar(key)}: ${yamlScalar(value)}`;
  }
  return lines.join("\n") + "\n";
}
