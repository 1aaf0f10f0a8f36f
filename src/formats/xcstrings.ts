import type { WorkCounter } from "../common/work.ts";
import type { Entry, FileFormat, FileLanguage, WriteInput } from "./format.ts";
import { categoriesFor, icuPlural, isCategory, pluralParts, type PluralForms, type PluralPart } from "./plural-forms.ts";
import { describe, invalid, isPlainObject, parseJsonObject } from "./read.ts";

/**
 * Apple String Catalog `.xcstrings` (docs/formats.md "Apple"): every language of an app in one
 * JSON file; an import and export format. A JSON document, so no library beyond JSON.parse: the
 * mapping of its structure is ours.
 *
 * Read: `sourceLanguage` names the base language; each string's `localizations` give one entry
 * per language (`stringUnit.value`), its `comment` the key's context, `shouldTranslate: false` marks
 * it not to be translated (written back for a key so marked). A `variations.plural` becomes an ICU plural over `count`; `substitutions`
 * (`%#@files@`) one over the substitution's name, as in `.stringsdict`. Other variations (by
 * device, by width) have no place in a key/value project and are refused by name.
 *
 * Written: the source language first, then each language of the export; keys in code-point order,
 * Xcode's layout (two spaces, `" : "`), so a catalog written by Xcode and pulled back differs
 * little.
 */

function unitValue(node: unknown, where: string): string | undefined {
  if (!isPlainObject(node)) throw invalid(`${where} must be an object, not ${describe(node)}`);
  const unit = node.stringUnit;
  if (unit === undefined) return undefined;
  if (!isPlainObject(unit) || typeof unit.value !== "string") throw invalid(`${where}.stringUnit must have a string "value"`);
  return unit.value;
}

function pluralOf(variations: unknown, where: string): PluralForms | undefined {
  if (variations === undefined) return undefined;
  if (!isPlainObject(variations)) throw invalid(`${where}.variations must be an object, not ${describe(variations)}`);
  for (const kind of Object.keys(variations)) {
    if (kind !== "plural") throw invalid(`${where}.variations.${kind}: variations by ${kind} are not imported (only plural)`);
  }
  const plural = variations.plural;
  if (!isPlainObject(plural)) throw invalid(`${where}.variations.plural must be an object`);
  const forms: PluralForms = new Map();
  for (const [category, node] of Object.entries(plural)) {
    if (!isCategory(category)) throw invalid(`${where}.variations.plural: "${category}" is no plural category (zero, one, two, few, many, other)`);
    const value = unitValue(node, `${where}.variations.plural.${category}`);
    if (value !== undefined) forms.set(category === "zero" ? "=0" : category, value);
  }
  if (!forms.has("other")) throw invalid(`${where}.variations.plural has no "other" form`);
  return forms;
}

/** One language's value of a string: its unit, its plural, or its format with substitutions. */
function localizationValue(loc: unknown, subsOf: unknown, where: string): string | undefined {
  if (!isPlainObject(loc)) throw invalid(`${where} must be an object, not ${describe(loc)}`);
  const plural = pluralOf(loc.variations, where);
  if (plural) return icuPlural(plural);
  const value = unitValue(loc, where);
  if (value === undefined) return undefined;
  const subs = loc.substitutions ?? subsOf;
  if (!isPlainObject(subs)) return value;
  return value.replace(/%(?:\d+\$)?#@([^@\s]+)@/g, (whole, name: string) => {
    const sub = subs[name];
    if (!isPlainObject(sub)) throw invalid(`${where} uses ${whole} but has no substitution "${name}"`);
    if (!/^[\p{L}\p{N}_]+$/u.test(name)) throw invalid(`${where}: the substitution name "${name}" must be letters, digits and _`);
    const forms = pluralOf(sub.variations, `${where}.substitutions.${name}`);
    if (!forms) throw invalid(`${where}.substitutions.${name} has no plural variations`);
    return icuPlural(forms, name);
  });
}

async function read(content: string, work?: WorkCounter) {
  const data = await parseJsonObject(content, "a String Catalog (a JSON document)", work);
  const source = data.sourceLanguage;
  if (typeof source !== "string" || !source) throw invalid('a String Catalog must name its "sourceLanguage"', 1, 1);
  const strings = data.strings ?? {};
  if (!isPlainObject(strings)) throw invalid(`"strings" must be an object, not ${describe(strings)}`);
  const byLanguage = new Map<string, Entry[]>([[source, []]]);
  for (const [key, node] of Object.entries(strings)) {
    if (!isPlainObject(node)) throw invalid(`strings."${key}" must be an object, not ${describe(node)}`);
    if (node.comment !== undefined && typeof node.comment !== "string") throw invalid(`strings."${key}".comment must be a string`);
    const locs = node.localizations ?? {};
    if (!isPlainObject(locs)) throw invalid(`strings."${key}".localizations must be an object`);
    // Xcode leaves the source language out when the value is the key itself.
    const values = new Map<string, string>();
    if (!(source in locs)) values.set(source, key);
    for (const [code, loc] of Object.entries(locs)) {
      const value = localizationValue(loc, undefined, `strings."${key}".localizations.${code}`);
      if (value !== undefined) values.set(code, value);
    }
    for (const [code, value] of values) {
      const entry: Entry = { key, value };
      if (code === source && typeof node.comment === "string" && node.comment) entry.description = node.comment;
      if (node.shouldTranslate === false) entry.translatable = false;
      let list = byLanguage.get(code);
      if (!list) byLanguage.set(code, (list = []));
      list.push(entry);
    }
  }
  const languages: FileLanguage[] = [...byLanguage].map(([locale, entries]) => ({ locale, entries }));
  return { languages, source };
}

/** A JSON string as Xcode writes it (it escapes `/` too). */
const q = (text: string) => JSON.stringify(text).replace(/\//g, "\\/");

function unit(value: string, indent: string): string[] {
  return [`${indent}"stringUnit" : {`, `${indent}  "state" : "translated",`, `${indent}  "value" : ${q(value)}`, `${indent}}`];
}

function pluralVariations(cases: PluralForms, code: string, indent: string): string[] {
  const categories = categoriesFor(code, cases);
  const forms: [string, string][] = [];
  const zero = cases.get("=0");
  if (zero !== undefined && !categories.includes("zero")) forms.push(["zero", zero]);
  for (const c of categories) forms.push([c, cases.get(c) ?? (c === "zero" ? zero : undefined) ?? cases.get("other")!]);
  const lines = [`${indent}"variations" : {`, `${indent}  "plural" : {`];
  forms.forEach(([c, text], n) => {
    lines.push(`${indent}    "${c}" : {`, ...unit(text, `${indent}      `), `${indent}    }${n < forms.length - 1 ? "," : ""}`);
  });
  lines.push(`${indent}  }`, `${indent}}`);
  return lines;
}

/** One language's localization object. */
function localization(value: string, code: string, indent: string): string[] {
  const parts = pluralParts(value, "%lld");
  if (!parts) return unit(value, indent);
  const plurals = parts.filter((p): p is PluralPart => typeof p !== "string");
  if (plurals.length === 1 && parts.length === 1) return pluralVariations(plurals[0]!.cases, code, indent);
  // Text around the plural(s): a format with substitutions, as Xcode writes it.
  let format = "";
  const subs = new Map<string, PluralPart>();
  for (const p of parts) {
    if (typeof p === "string") format += p;
    else {
      format += `%#@${p.argument}@`;
      subs.set(p.argument, p);
    }
  }
  const lines = [...unit(format, indent)];
  lines[lines.length - 1] += ",";
  lines.push(`${indent}"substitutions" : {`);
  [...subs.values()].forEach((p, n) => {
    lines.push(`${indent}  "${p.argument}" : {`, `${indent}    "formatSpecifier" : "lld",`, ...pluralVariations(p.cases, code, `${indent}    `), `${indent}  }${n < subs.size - 1 ? "," : ""}`);
  });
  lines.push(`${indent}}`);
  return lines;
}

function write({ keys, languages, source, work }: WriteInput): string {
  const all = source ? [source, ...languages.filter((l) => l.code !== source.code)] : languages;
  const base = all[0]!;
  const strings: string[] = [];
  for (let i = 0; i < keys.keys.length; i++) {
    const locs: string[] = [];
    for (const lang of all) {
      const value = lang.values[i];
      if (value === undefined) continue;
      if (work) work.steps++;
      locs.push([`        ${q(lang.code)} : {`, ...localization(value, lang.code, "          "), "        }"].join("\n"));
    }
    if (locs.length === 0) continue;
    const fields: string[] = [];
    const context = keys.contextOf[i];
    if (context) fields.push(`      "comment" : ${q(context)}`);
    fields.push(`      "extractionState" : "manual"`);
    fields.push(`      "localizations" : {\n${locs.join(",\n")}\n      }`);
    // After `localizations`: Xcode writes a string's fields in name order (docs/formats.md "Not translatable").
    if (!keys.translatableOf[i]) fields.push(`      "shouldTranslate" : false`);
    strings.push(`    ${q(keys.keys[i]!)} : {\n${fields.join(",\n")}\n    }`);
  }
  return `{\n  "sourceLanguage" : ${q(base.code)},\n  "strings" : {\n${strings.join(",\n")}\n  },\n  "version" : "1.0"\n}\n`;
}

export const xcstrings = {
  name: "xcstrings",
  label: "Apple String Catalog (.xcstrings)",
  extensions: ["xcstrings"],
  contentType: "application/json; charset=utf-8",
  bundle: false,
  multiLanguage: true,
  marksTranslatable: true,
  read,
  write,
} as const satisfies FileFormat<"xcstrings">;
