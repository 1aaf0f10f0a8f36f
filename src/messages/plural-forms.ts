import { PLURAL_CATEGORIES, type LanguagePlurals } from "./plurals.ts";

/**
 * i18next's plural forms (docs/product.md §9; docs/messages.md "i18next plural forms"): in an
 * `i18next` project, keys that differ only by a suffix `_zero _one _two _few _many _other` (ordinal:
 * `_ordinal_<category>`) are the forms of one message. Keys stay as authored; the form is read
 * from the name, and counts as one only when the group's `_other` form exists too (so a key that
 * merely ends in `_many`, such as `how_many`, is an ordinary key).
 */
export interface PluralForm {
  /** The key without its suffix: `items` for `items_many` and `items_ordinal_few`. */
  group: string;
  category: string;
  ordinal: boolean;
  /** The group's `_other` form (ordinal: `_ordinal_other`), which every language needs. */
  other: string;
}

const SUFFIX = new RegExp(`^(.+?)_(ordinal_)?(${PLURAL_CATEGORIES.join("|")})$`, "s");

/** The form a key name spells, whether or not its group exists; null when it has no plural suffix. */
export function pluralSuffix(key: string): PluralForm | null {
  const m = SUFFIX.exec(key);
  if (!m) return null;
  const ordinal = m[2] !== undefined;
  return { group: m[1]!, category: m[3]!, ordinal, other: `${m[1]}_${ordinal ? "ordinal_" : ""}other` };
}

/** The form `key` is among `keys` (a project's key names), or null. */
export function pluralFormIn(key: string, keys: { has(key: string): boolean }): PluralForm | null {
  const form = pluralSuffix(key);
  return form && keys.has(form.other) ? form : null;
}

/** Whether a language uses this form (its cardinal or ordinal categories); a language without data uses all. */
export function languageHasForm(form: PluralForm, plurals: LanguagePlurals | null): boolean {
  if (!plurals || form.category === "other") return true;
  return (form.ordinal ? plurals.ordinal : plurals.cardinal).categories.includes(form.category);
}

/** The keys of the forms `group` needs in a language: `items_one`, `items_other`... */
export function formsNeeded(form: PluralForm, plurals: LanguagePlurals): string[] {
  const rules = form.ordinal ? plurals.ordinal : plurals.cardinal;
  return rules.categories.map((c) => `${form.group}_${form.ordinal ? "ordinal_" : ""}${c}`);
}
