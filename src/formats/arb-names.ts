import { compareCodePoints } from "../common/text.ts";

/**
 * ARB message names (docs/interface.md §2.6 rules 1-3, with docs/product.md §3's additions for
 * Flutter gen-l10n): a name holds only ASCII letters and digits and starts with a lowercase letter.
 */

/** Dart's reserved words (the language specification's list; built-in identifiers are allowed as getter names). */
export const DART_RESERVED_WORDS: ReadonlySet<string> = new Set([
  "assert", "break", "case", "catch", "class", "const", "continue", "default", "do", "else", "enum",
  "extends", "false", "final", "finally", "for", "if", "in", "is", "new", "null", "rethrow", "return",
  "super", "switch", "this", "throw", "true", "try", "var", "void", "while", "with",
]);

const WORD = /[A-Za-z0-9]+/g;

const capitalise = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/**
 * Rule 1: every character outside [A-Za-z0-9] separates words; each word after a separator is
 * capitalised and the first letter lower-cased. Rule 2: a name starting with a digit, or equal to a
 * reserved word, is prefixed with `k` (`class` -> `kClass`). An empty result becomes `k`.
 */
export function baseArbName(key: string): string {
  const words = key.match(WORD);
  if (!words) return "k";
  const joined = words[0]!.charAt(0).toLowerCase() + words[0]!.slice(1) + words.slice(1).map(capitalise).join("");
  if (/^[0-9]/.test(joined) || DART_RESERVED_WORDS.has(joined)) return `k${capitalise(joined)}`;
  return joined;
}

/**
 * Rule 3: names for a whole key set. Keys are taken in code-point order; the first key to derive a
 * name keeps it; each later one gets the smallest suffix n >= 2 that no other key's name uses
 * (including the plain names later keys derive), so the result depends only on the key set and is
 * identical in every language file of a release.
 */
export function arbNames(keys: Iterable<string>): Map<string, string> {
  const sorted = [...new Set(keys)].sort(compareCodePoints);
  const bases = sorted.map(baseArbName);
  const taken = new Set(bases);
  const claimed = new Set<string>();
  // Suffixes handed out for one base only grow, so the search resumes where it stopped last time
  // (keys that all derive `k`, such as CJK keys, would otherwise cost quadratic time).
  const nextSuffix = new Map<string, number>();
  const names = new Map<string, string>();
  for (let i = 0; i < sorted.length; i++) {
    const base = bases[i]!;
    let name = base;
    if (claimed.has(base)) {
      let n = nextSuffix.get(base) ?? 2;
      while (taken.has(`${base}${n}`)) n++;
      nextSuffix.set(base, n + 1);
      name = `${base}${n}`;
      taken.add(name);
    }
    claimed.add(name);
    names.set(sorted[i]!, name);
  }
  return names;
}
