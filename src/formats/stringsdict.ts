import type { WorkCounter } from "../common/work.ts";
import type { Entry, FileFormat, WriteInput } from "./format.ts";
import { categoriesFor, categoriesOf, isCategory, pluralParts, type PluralForms, type PluralPart } from "./plural-forms.ts";
import { describe, invalid, invalid as invalidAt, isPlainObject } from "./read.ts";
import { escapeXmlText, lineOf, parseXml } from "./xml.ts";

/**
 * Apple `.stringsdict` (docs/formats.md "Apple"): the plural rules of an iOS or macOS app, an XML
 * property list; an import and export format, read with the `plist` library.
 *
 * Read: each top-level key is a message; its `NSStringLocalizedFormatKey` (`%#@files@ in
 * %#@folders@`) becomes the value with every `%#@name@` an ICU plural over `name` (the variable's
 * name, as the format names it), the variable's `zero` an exact `=0` case (Apple applies `zero`
 * to 0 in every language) and the other keys its categories. The variable's
 * `NSStringFormatValueTypeKey` (`d`, `lld`) is written back from the placeholders the cases use.
 *
 * Written: the keys whose value holds a plural (the rest go to `.strings`, docs/formats.md
 * "Apple"), each plural with the categories of the language, plus `zero` when the value has `=0`.
 */

const FORMAT_KEY = "NSStringLocalizedFormatKey";
const VARIABLE = /%#@([^@\s]+)@/g;

function readEntry(key: string, spec: unknown, content: string): string {
  // The line is found only for an error (a search per entry would make a large file quadratic).
  const invalid = (why: string) => invalidAt(why, lineOf(content, `<key>${escapeXmlText(key)}</key>`));
  if (!isPlainObject(spec)) throw invalid(`"${key}" must be a <dict>, not ${describe(spec)}`);
  const format = spec[FORMAT_KEY];
  if (typeof format !== "string") throw invalid(`"${key}" has no ${FORMAT_KEY} string`);
  let value = "";
  let at = 0;
  for (const m of format.matchAll(VARIABLE)) {
    const name = m[1]!;
    const rule = spec[name];
    if (!isPlainObject(rule) || rule.NSStringFormatSpecTypeKey !== "NSStringPluralRuleType") {
      throw invalid(`"${key}" uses %#@${name}@ but has no <dict> for "${name}" with NSStringFormatSpecTypeKey NSStringPluralRuleType`);
    }
    if (!/^[\p{L}\p{N}_]+$/u.test(name)) throw invalid(`"${key}": the variable name "${name}" must be letters, digits and _`);
    const cases: string[] = [];
    for (const [category, text] of Object.entries(rule)) {
      if (category === "NSStringFormatSpecTypeKey" || category === "NSStringFormatValueTypeKey") continue;
      if (!isCategory(category)) throw invalid(`"${key}" > "${name}": "${category}" is no plural category (zero, one, two, few, many, other)`);
      if (typeof text !== "string") throw invalid(`"${key}" > "${name}" > "${category}" must be a string, not ${describe(text)}`);
      cases.push(`${category === "zero" ? "=0" : category} {${text.replace(/#/g, "'#'")}}`);
    }
    if (!("other" in rule)) throw invalid(`"${key}" > "${name}" has no "other" form, which iOS needs`);
    value += format.slice(at, m.index) + `{${name}, plural, ${cases.join(" ")}}`;
    at = m.index! + m[0].length;
  }
  return value + format.slice(at);
}

async function read(content: string, work?: WorkCounter) {
  if (!/^\s*(<\?xml|<!DOCTYPE plist|<plist)/.test(content)) throw invalid("a .stringsdict must be an XML property list (<plist>)", 1, 1);
  // Checks well-formedness with line and column, and refuses a DTD of its own, before the plist reader.
  await parseXml(content, "property list", [], true, work);
  if (/<key>\s*__proto__\s*<\/key>/.test(content)) throw invalid('a key "__proto__" is not read', lineOf(content, "__proto__"));
  const { parse } = await import("plist");
  let data: unknown;
  try {
    data = parse(content);
  } catch (err) {
    throw invalid(`not a valid property list: ${(err as Error).message}`);
  }
  if (!isPlainObject(data)) throw invalid(`a .stringsdict must hold a <dict> at the top, not ${describe(data)}`, 1, 1);
  const entries: Entry[] = [];
  for (const [key, spec] of Object.entries(data)) {
    entries.push({ key, value: readEntry(key, spec, content) });
  }
  return { languages: [{ entries }] };
}

/** The printf type of a plural's number, from the placeholders its cases use (`lld` for `%lld`). */
function valueType(cases: PluralForms): string {
  for (const text of cases.values()) {
    const m = /%(?:\d+\$)?(ll|l|h|hh|q|z)?([dDiuUxXoOfeEgG@])/.exec(text);
    if (m) return `${m[1] ?? ""}${m[2]}`;
  }
  return "d";
}

const s = (text: string) => `<string>${escapeXmlText(text)}</string>`;
const k = (text: string) => `<key>${escapeXmlText(text)}</key>`;

function pluralDict(part: PluralPart, code: string, indent: string): string[] {
  const categories = categoriesOf(code);
  const written = categoriesFor(code, part.cases);
  const lines = [`${indent}${k(part.argument)}`, `${indent}<dict>`];
  lines.push(`${indent}\t${k("NSStringFormatSpecTypeKey")}`, `${indent}\t${s("NSStringPluralRuleType")}`);
  lines.push(`${indent}\t${k("NSStringFormatValueTypeKey")}`, `${indent}\t${s(valueType(part.cases))}`);
  const zero = part.cases.get("=0") ?? (categories.includes("zero") ? part.cases.get("zero") : undefined);
  if (zero !== undefined) lines.push(`${indent}\t${k("zero")}`, `${indent}\t${s(zero)}`);
  for (const category of written) {
    if (category === "zero") continue;
    lines.push(`${indent}\t${k(category)}`, `${indent}\t${s(part.cases.get(category) ?? part.cases.get("other")!)}`);
  }
  lines.push(`${indent}</dict>`);
  return lines;
}

function write({ keys, languages, work }: WriteInput): string {
  const lang = languages[0]!;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    "<dict>",
  ];
  for (let i = 0; i < keys.keys.length; i++) {
    const value = lang.values[i];
    if (value === undefined) continue;
    const parts = pluralParts(value, "%d");
    if (!parts) continue;
    if (work) work.steps++;
    // Two plurals of one argument share one variable; a text part with `%` is written as is.
    const variables = new Map<string, PluralPart>();
    let format = "";
    for (const part of parts) {
      if (typeof part === "string") format += part;
      else {
        format += `%#@${part.argument}@`;
        variables.set(part.argument, part);
      }
    }
    lines.push(`\t${k(keys.keys[i]!)}`, "\t<dict>", `\t\t${k(FORMAT_KEY)}`, `\t\t${s(format)}`);
    for (const part of variables.values()) lines.push(...pluralDict(part, lang.code, "\t\t"));
    lines.push("\t</dict>");
  }
  lines.push("</dict>", "</plist>", "");
  return lines.join("\n");
}

export const stringsdict = {
  name: "stringsdict",
  label: "Apple .stringsdict (plurals)",
  extensions: ["stringsdict"],
  contentType: "application/xml; charset=utf-8",
  bundle: false,
  read,
  write,
} as const satisfies FileFormat<"stringsdict">;
