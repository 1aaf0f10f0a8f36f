import type { WorkCounter } from "../common/work.ts";
import type { Entry, FileFormat, WriteInput } from "./format.ts";
import { formFor, icuPlural, splitPlural, type PluralForms } from "./plural-forms.ts";
import { pluralFormsFor, readPluralForms } from "./po-plurals.ts";
import { ContentError, invalid, invalidAt } from "./read.ts";
import { lineOf } from "./xml.ts";
import { clipped } from "../common/text.ts";

/**
 * gettext PO (docs/formats.md "gettext PO"): an import and export format, read with
 * `gettext-parser` (loaded when a PO file is read).
 *
 * Read: `msgctxt` is the key (a file without one, as most tools write, is keyed by its `msgid`),
 * `msgstr` the value and `msgid` the source text (the base language's string, which the import
 * compares with the stored one); `msgid_plural` with `msgstr[i]` becomes an ICU plural over
 * `count`, each form put under the category the header's `Plural-Forms` gives it for the file's
 * `Language` (po-plurals.ts). Extracted comments (`#.`), else translator comments (`# `), are the
 * key's context. A fuzzy or empty `msgstr` is no translation.
 *
 * Written: a header with `Language`, UTF-8 and the language's `Plural-Forms`; per key its context
 * as `#.`, `msgctxt` the key, `msgid` (and `msgid_plural`) the base string, `msgstr` the language's.
 * Written by hand (a PO string is quoted like a C string): `write` is synchronous and must not load
 * the parser.
 */

interface ParsedPo {
  /** Absent when the file has no header entry. */
  headers?: Record<string, string>;
  translations: Record<string, Record<string, { msgctxt?: string; msgid: string; msgid_plural?: string; msgstr: string[]; comments?: { translator?: string; extracted?: string; flag?: string } }>>;
}

function poError(err: unknown, content: string): ContentError {
  const message = err instanceof Error ? err.message : String(err);
  const at = /at line (\d+)/.exec(message)?.[1];
  // gettext-parser counts the line break that ends a string's line as the next line's.
  let line = at === undefined ? undefined : Number(at) - (message.includes("End-of-line within string") ? 1 : 0);
  // Its validation names the entry, not the line ("... for entry "apples" in "" context"): found here.
  const entry = /for entry "((?:[^"\\]|\\.)*)"/.exec(message)?.[1];
  if (line === undefined && entry !== undefined) line = lineOf(content, `msgid_plural "${entry}"`) ?? lineOf(content, `msgid "${entry}"`);
  const reason = message.replace(/^Error parsing PO data: /, "").replace(/ at line \d+/, "");
  return invalid(`not a valid PO file: ${reason}`, line, line === undefined ? undefined : 1);
}

/** A language has at most six plural forms (CLDR's zero, one, two, few, many, other): msgstr[0] to msgstr[5]. */
const PLURAL_FORMS_MAX = 6;

/**
 * Refuses a `msgstr[n]` past the forms any language has before gettext-parser reads the file: an
 * entry of 100,000 forms took it seconds to read and check, a 1 MB index as long (docs/formats.md
 * "Bad files").
 */
function refuseTooManyForms(content: string): void {
  for (const m of content.matchAll(/^[ \t]*msgstr\[(\d+)\]/gm)) {
    const index = m[1]!;
    if (index.length <= 2 && Number(index) < PLURAL_FORMS_MAX) continue;
    throw invalidAt(content, m.index!, `msgstr[${clipped(index, 20)}]: an entry has at most ${PLURAL_FORMS_MAX} plural forms, msgstr[0] to msgstr[${PLURAL_FORMS_MAX - 1}]`);
  }
}

/**
 * gettext-parser's check for a duplicate asks `msgid in entries` of a plain object, so a msgid
 * that names a property every object has (`__proto__`, `constructor`, `toString`) looks declared
 * before it is (it was a 400 "duplicate"). So each msgid is read with a mark in front, a character
 * the file does not hold, and the mark is taken off after; the header's empty msgid keeps none.
 * Line by line, so linear; the lines and their numbers are unchanged.
 */
function markMsgids(content: string): { text: string; mark: string } {
  let code = 0xe000;
  while (content.includes(String.fromCharCode(code))) code++;
  const mark = String.fromCharCode(code);
  const lines = content.split("\n");
  let pending = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const msgid = /^(\s*msgid\s+")(.*)$/.exec(line) ?? (pending ? /^(\s*")(.*)$/.exec(line) : null);
    if (!msgid) {
      pending = false;
      continue;
    }
    // `msgid ""` with continuation lines: the mark goes into the first string that is not empty.
    pending = /^"\s*$/.test(msgid[2]!);
    if (!pending) lines[i] = `${msgid[1]}${mark}${msgid[2]}`;
  }
  return { text: lines.join("\n"), mark };
}

async function read(content: string, work?: WorkCounter) {
  // gettext-parser keeps a NUL inside a string; no gettext tool reads such a file (docs/formats.md "Bad files").
  const nul = content.indexOf("\0");
  if (nul >= 0) throw invalidAt(content, nul, "the file holds a NUL character, which a PO file may not");
  refuseTooManyForms(content);
  if (work) work.steps += 3 * content.length; // the marks, the parser, the checks above
  const { po } = await import("gettext-parser");
  const { text, mark } = markMsgids(content);
  const unmark = (s: string) => (s.startsWith(mark) ? s.slice(1) : s);
  let parsed: ParsedPo;
  try {
    parsed = po.parse(text, { validation: true }) as unknown as ParsedPo;
  } catch (err) {
    throw poError(err instanceof Error ? new Error(err.message.split(mark).join("")) : err, content);
  }
  // A file without the header entry (msgid "") has no headers at all: it was a 500.
  const headers = parsed.headers ?? {};
  const language = headers.Language?.trim() || undefined;
  const pluralHeader = headers["Plural-Forms"];
  let categories: string[] | undefined;
  const needPlurals = Object.values(parsed.translations).some((ctx) => Object.values(ctx).some((t) => t.msgid_plural !== undefined));
  if (needPlurals) {
    const at = lineOf(content, "Plural-Forms") ?? 1;
    if (!language) throw invalid('the file has plural entries but its header names no "Language", so its Plural-Forms cannot be checked', at, 1);
    if (!pluralHeader) throw invalid('the file has plural entries but its header has no "Plural-Forms"', at, 1);
    const forms = readPluralForms(pluralHeader, language.replace(/_/g, "-"));
    if (typeof forms === "string") throw invalid(`the Plural-Forms do not fit ${language}: ${forms}`, at, 1);
    categories = forms.categories;
  }

  const entries: Entry[] = [];
  const seen = new Set<string>();
  for (const [ctx, messages] of Object.entries(parsed.translations)) {
    for (const [marked, t] of Object.entries(messages)) {
      const msgid = unmark(marked);
      t.msgid = unmark(t.msgid);
      if (ctx === "" && msgid === "") continue; // the header
      const key = ctx || msgid;
      // Found only for an error: searching the file for every entry would cost its length each time.
      const fail = (why: string) => {
        const where = lineOf(content, ctx ? `msgctxt ${JSON.stringify(ctx)}` : `msgid ${JSON.stringify(msgid)}`);
        return invalid(why, where, where ? 1 : undefined);
      };
      if (seen.has(key)) throw fail(`the key "${key}" appears twice (as a msgctxt and as a msgid without one)`);
      seen.add(key);
      const fuzzy = /\bfuzzy\b/.test(t.comments?.flag ?? "");
      let value: string;
      let source: string;
      if (t.msgid_plural !== undefined) {
        if (t.msgstr.length !== categories!.length) {
          throw fail(`"${key}" has ${t.msgstr.length} msgstr forms, but the Plural-Forms say ${categories!.length}`);
        }
        const forms: PluralForms = new Map();
        categories!.forEach((category, i) => forms.set(category, t.msgstr[i] ?? ""));
        if (!forms.has("other")) forms.set("other", forms.get(categories!.at(-1)!)!);
        value = [...forms.values()].every((f) => f === "") || fuzzy ? "" : icuPlural(forms);
        source = icuPlural(new Map([["one", msgid], ["other", t.msgid_plural]]));
      } else {
        value = fuzzy ? "" : (t.msgstr[0] ?? "");
        source = msgid;
      }
      const entry: Entry = { key, value, source };
      const comment = (t.comments?.extracted || t.comments?.translator || "").trim();
      if (comment) entry.description = comment;
      entries.push(entry);
    }
  }
  return { languages: [language ? { locale: language, entries } : { entries }] };
}

/** A PO string: C escapes, and a value with line breaks split after each (as msgmerge writes it). */
function quote(keyword: string, text: string): string {
  const escaped = text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\t/g, "\\t").replace(/\r/g, "\\r");
  const lines = escaped.split("\n");
  if (lines.length === 1) return `${keyword} "${escaped}"`;
  const parts = lines.map((l, i) => (i < lines.length - 1 ? `"${l}\\n"` : l ? `"${l}"` : "")).filter(Boolean);
  return `${keyword} ""\n${parts.join("\n")}`;
}

const headerCache = new Map<string, ReturnType<typeof pluralFormsFor>>();

function write({ keys, languages, source, work }: WriteInput): string {
  const lang = languages[0]!;
  const base = source ?? lang;
  let plural = headerCache.get(lang.code);
  if (!headerCache.has(lang.code)) headerCache.set(lang.code, (plural = pluralFormsFor(lang.code)));
  const header = [
    "Project-Id-Version: phrasebook",
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=UTF-8",
    "Content-Transfer-Encoding: 8bit",
    `Language: ${lang.code.replace(/-/g, "_")}`,
    ...(plural ? [`Plural-Forms: ${plural.header}`] : []),
    "X-Generator: Phrasebook",
  ];
  const blocks = [`msgid ""\nmsgstr ""\n${header.map((h) => `"${h}\\n"`).join("\n")}\n`];
  for (let i = 0; i < keys.keys.length; i++) {
    const sourceText = base.values[i];
    if (!sourceText) continue; // a PO entry needs its msgid, the base string
    if (work) work.steps++;
    const value = lang === base ? sourceText : (lang.values[i] ?? "");
    const lines: string[] = [];
    const context = keys.contextOf[i];
    if (context) for (const l of context.split("\n")) lines.push(`#. ${l}`);
    lines.push(quote("msgctxt", keys.keys[i]!));
    const sourcePlural = plural ? splitPlural(sourceText, "%d") : null;
    if (sourcePlural && plural) {
      lines.push(quote("msgid", formFor(sourcePlural.forms, "one")), quote("msgid_plural", sourcePlural.forms.get("other")!));
      const forms = value ? splitPlural(value, "%d") : null;
      plural.forms.categories.forEach((category, n) => lines.push(quote(`msgstr[${n}]`, forms ? formFor(forms.forms, category) : value)));
    } else {
      lines.push(quote("msgid", sourceText), quote("msgstr", value));
    }
    blocks.push(lines.join("\n") + "\n");
  }
  return blocks.join("\n");
}

export const po = {
  name: "po",
  label: "gettext PO",
  extensions: ["po", "pot"],
  contentType: "text/x-gettext-translation; charset=utf-8",
  bundle: false,
  read,
  write,
} as const satisfies FileFormat<"po">;
