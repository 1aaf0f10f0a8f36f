import { PluralCatalog } from "../messages/plurals.ts";

/**
 * Plurals of the native formats (docs/formats.md "Plurals"): a format's own plural forms (Android
 * `<plurals>`, `.stringsdict` rules, PO `msgstr[n]`, `.xcstrings` variations) become one ICU plural
 * inside Phrasebook, `{count, plural, one {…} other {…}}`, and go back to the format's forms on the
 * way out. The forms' text is kept exactly as written (native placeholders such as `%d` stay), with
 * only `#` quoted (`'#'`), which ICU would read as the number; on the way out a bare `#` (a value
 * written in ICU, not imported) becomes the format's number placeholder.
 */

/** The plural categories of CLDR, in CLDR's order (the order forms are written in). */
export const CATEGORIES = ["zero", "one", "two", "few", "many", "other"] as const;
export type Category = (typeof CATEGORIES)[number];

export function isCategory(name: string): name is Category {
  return (CATEGORIES as readonly string[]).includes(name);
}

/** The argument a plural is named by when the format names none (docs/formats.md "Plurals"). */
export const DEFAULT_PLURAL_ARGUMENT = "count";

/** The forms of one plural: selector (`one`, `=0`) to text, in the order written. */
export type PluralForms = Map<string, string>;

/** `{count, plural, one {# file} other {# files}}` from forms; `other` must be among them. */
export function icuPlural(forms: PluralForms, argument = DEFAULT_PLURAL_ARGUMENT): string {
  const parts: string[] = [];
  for (const selector of sortedSelectors([...forms.keys()])) parts.push(`${selector} {${forms.get(selector)!.replace(/#/g, "'#'")}}`);
  return `{${argument}, plural, ${parts.join(" ")}}`;
}

/** `=N` first, then the categories in CLDR's order. */
function sortedSelectors(selectors: string[]): string[] {
  const exact = selectors.filter((s) => s.startsWith("="));
  const named = CATEGORIES.filter((c) => selectors.includes(c));
  return [...exact, ...named];
}

/** A value that is one ICU plural, possibly with text around it: what a format writes as its plural forms. */
export interface SplitPlural {
  argument: string;
  /** Each selector's text with the text around the plural added, `#` already made native. */
  forms: PluralForms;
}

/** One plural of a value, its cases' text made native (`#` the number placeholder). */
export interface PluralPart {
  argument: string;
  cases: PluralForms;
}

const NAME = /^[\p{L}\p{N}_]+$/u;
const COMPLEX_ARGUMENT = /\{\s*[\p{L}\p{N}_]+\s*,/u;

/** The index of the `}` closing the `{` at `open`, with ICU apostrophe quoting; -1 when unbalanced. */
function closing(value: string, open: number): number {
  let depth = 0;
  for (let i = open; i < value.length; i++) {
    const c = value[i];
    if (c === "'" && i + 1 < value.length && "{}#|".includes(value[i + 1]!)) {
      const end = value.indexOf("'", i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/**
 * A value as text and top-level plurals, in order: null when it holds no plural, or an argument
 * a native format has no form for (a select, a nested plural, a date).
 */
export function pluralParts(value: string, numberPlaceholder: string): (string | PluralPart)[] | null {
  const parts: (string | PluralPart)[] = [];
  let at = 0;
  const head = /\{\s*([\p{L}\p{N}_]+)\s*,\s*plural\s*,/gu;
  for (let m = head.exec(value); m; m = head.exec(value)) {
    const start = m.index;
    const end = closing(value, start);
    if (end < 0 || !NAME.test(m[1]!)) return null;
    const text = value.slice(at, start);
    if (COMPLEX_ARGUMENT.test(text)) return null;
    if (text) parts.push(text);
    const cases: PluralForms = new Map();
    let i = start + m[0].length;
    while (i < end) {
      const sel = /\s*(offset:\s*\d+|=\d+|[\p{L}]+)\s*/uy;
      sel.lastIndex = i;
      const found = sel.exec(value);
      if (!found) break;
      i = sel.lastIndex;
      if (found[1]!.startsWith("offset:")) continue;
      if (value[i] !== "{") return null;
      const close = closing(value, i);
      if (close < 0 || close > end) return null;
      const caseText = value.slice(i + 1, close);
      if (COMPLEX_ARGUMENT.test(caseText)) return null; // a nested plural or select: no native form
      cases.set(found[1]!, native(caseText, numberPlaceholder));
      i = close + 1;
      while (i < end && /\s/.test(value[i]!)) i++;
    }
    if (!cases.has("other")) return null;
    parts.push({ argument: m[1]!, cases });
    at = end + 1;
    head.lastIndex = at;
  }
  if (parts.length === 0) return null;
  const rest = value.slice(at);
  if (COMPLEX_ARGUMENT.test(rest)) return null;
  if (rest) parts.push(rest);
  return parts;
}

/**
 * The plural of a value that holds exactly one top-level `{x, plural, …}` (and no other argument
 * but plain `{name}`s in the text around it), each case with the text around it; null for anything
 * else, which is written as plain text. `#` in a case becomes `numberPlaceholder`, `'#'` a `#`.
 */
export function splitPlural(value: string, numberPlaceholder: string): SplitPlural | null {
  if (!value.includes("plural")) return null;
  const parts = pluralParts(value, numberPlaceholder);
  if (!parts) return null;
  const plurals = parts.filter((p): p is PluralPart => typeof p !== "string");
  if (plurals.length !== 1) return null;
  const at = parts.indexOf(plurals[0]!);
  const prefix = parts.slice(0, at).join("");
  const suffix = parts.slice(at + 1).join("");
  const forms: PluralForms = new Map();
  for (const [selector, text] of plurals[0]!.cases) forms.set(selector, prefix + text + suffix);
  return { argument: plurals[0]!.argument, forms };
}

/** A case's text as a native format writes it: `'#'` is `#`, a bare `#` the number. */
function native(text: string, numberPlaceholder: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith("'#'", i)) {
      out += "#";
      i += 2;
    } else if (text[i] === "#") out += numberPlaceholder;
    else out += text[i];
  }
  return out;
}

/** A category's form, falling back to `other`: what a format with fixed forms writes for a category the value lacks. */
export function formFor(forms: PluralForms, category: string): string {
  return forms.get(category) ?? (category === "zero" ? forms.get("=0") : undefined) ?? forms.get("other")!;
}

/** The cardinal plural categories of a language (CLDR, through Intl); `["one", "other"]` when it has no data. */
export function categoriesOf(code: string): Category[] {
  try {
    const rules = new Intl.PluralRules(code);
    if (rules.resolvedOptions().locale.split("-")[0]!.toLowerCase() !== code.split(/[-_]/)[0]!.toLowerCase()) return ["one", "other"];
    const have = rules.resolvedOptions().pluralCategories as string[];
    return CATEGORIES.filter((c) => have.includes(c));
  } catch {
    return ["one", "other"];
  }
}

const rulesByCode = new PluralCatalog();

/**
 * The categories a file writes for one plural of language `code`: each of the language's, except
 * one that no number below a million reaches (French, Italian, Spanish, Portuguese and Catalan
 * `many`) when the value has no case for it: a `many` copied from `other` would change the file
 * when it is pushed back (docs/formats.md "Plurals").
 */
export function categoriesFor(code: string, cases: ReadonlyMap<string, string>): Category[] {
  const all = categoriesOf(code);
  const rules = rulesByCode.of(code)?.cardinal;
  return rules ? all.filter((c) => cases.has(c) || !rules.rarelyReached(c)) : all;
}
