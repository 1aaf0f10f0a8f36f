import type { WorkCounter } from "../common/work.ts";
import type { Entry, FileFormat, FileLanguage, LanguageTexts, WriteInput } from "./format.ts";
import { invalid } from "./read.ts";
import { InlineCodes, storedFromXliff, xliffContent } from "./xliff-inline.ts";
import { attr, childrenOf, escapeXmlAttribute, escapeXmlText, lineOf, parseXml, rawText, tagOf, xmlPieces, type XmlNode } from "./xml.ts";

/**
 * XLIFF 1.2 and 2.0 (docs/formats.md "XLIFF"): the exchange format of translation tools; an
 * import and export format holding the source (base) language and one target language.
 *
 * Read (the version from the file): XLIFF 1.2 `<trans-unit>` (its `resname`, else its `id`, is the
 * key) and XLIFF 2.0 `<unit>` (its `name`, else its `id`), inside `<group>`s too; `<source>` gives
 * the source language's entries and `<target>` the target language's, each file's languages from
 * its `source-language`/`target-language` (1.2) or `srcLang`/`trgLang` (2.0); `<note>`s are the
 * key's context; `translate="no"` marks the entry not to be translated. Inline elements holding an
 * original code are that code, others are kept as written, text is decoded (xliff-inline.ts;
 * docs/formats.md "Markup in values"). Plurals have no element of their own in XLIFF: the ICU text
 * is the unit's text, as tools that exchange ICU messages write it.
 *
 * Written: 1.2 unless `version` 2.0 is asked for (the client's `--xliff-version 2.0`), the base
 * language as the source and the file's language as the target (no target when it is the base);
 * `translate="no"` on the unit of a key marked not to be translated; a value's tags as inline
 * elements holding their code.
 */

export type XliffVersion = "1.2" | "2.0";

const STOP_NODES = ["*.source", "*.target", "*.note", "*.data"];

/** A `<source>` or `<target>` as a stored value (xliff-inline.ts); `data` a 2.0 unit's `<originalData>`. */
function text(node: XmlNode, data: ReadonlyMap<string, string> | null = null): string {
  return storedFromXliff(xmlPieces(rawText(node)), data);
}

/** A note's or an original code's text: references decoded, a 2.0 `<cp hex>` its character, any other element as written. */
function plain(node: XmlNode): string {
  let out = "";
  for (const p of xmlPieces(rawText(node))) {
    const hex = "tag" in p && p.name === "cp" ? /hex\s*=\s*["']([0-9a-fA-F]{1,6})["']/.exec(p.tag) : null;
    const code = hex ? parseInt(hex[1]!, 16) : -1;
    const char = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : undefined;
    out += "text" in p ? p.text : (char ?? p.tag);
  }
  return out;
}

interface Unit {
  key: string;
  source?: string;
  target?: string;
  note?: string;
  translate: boolean;
}

/** Every element named `name` under `node`, through `<group>`s (bounded by the file's nesting limit). */
function unitsOf(node: XmlNode, name: string, out: XmlNode[]): void {
  for (const child of childrenOf(node)) {
    const tag = tagOf(child);
    if (tag === name) out.push(child);
    else if (tag === "group" || tag === "body") unitsOf(child, name, out);
  }
}

function notesOf(node: XmlNode): string[] {
  const notes: string[] = [];
  for (const child of childrenOf(node)) {
    const tag = tagOf(child);
    if (tag === "note") notes.push(plain(child).trim());
    else if (tag === "notes") notes.push(...notesOf(child));
  }
  return notes.filter(Boolean);
}

function unit12(node: XmlNode): Unit {
  const key = attr(node, "resname") ?? attr(node, "id") ?? "";
  const u: Unit = { key, translate: attr(node, "translate") !== "no" };
  for (const child of childrenOf(node)) {
    const tag = tagOf(child);
    if (tag === "source") u.source = text(child);
    else if (tag === "target") u.target = text(child);
  }
  const notes = notesOf(node);
  if (notes.length > 0) u.note = notes.join("\n");
  return u;
}

function unit20(node: XmlNode): Unit {
  const key = attr(node, "name") ?? attr(node, "id") ?? "";
  const u: Unit = { key, translate: attr(node, "translate") !== "no" };
  // The original codes the inline elements of this unit name (`dataRef`), when it has any.
  let data: Map<string, string> | null = null;
  for (const child of childrenOf(node)) {
    if (tagOf(child) !== "originalData") continue;
    data ??= new Map();
    for (const d of childrenOf(child)) if (tagOf(d) === "data") data.set(attr(d, "id") ?? "", plain(d));
  }
  for (const child of childrenOf(node)) {
    const tag = tagOf(child);
    if (tag !== "segment" && tag !== "ignorable") continue;
    for (const part of childrenOf(child)) {
      const t = tagOf(part);
      if (t === "source") u.source = (u.source ?? "") + text(part, data ?? new Map());
      else if (t === "target") u.target = (u.target ?? "") + text(part, data ?? new Map());
    }
  }
  const notes = notesOf(node);
  if (notes.length > 0) u.note = notes.join("\n");
  return u;
}

async function read(content: string, work?: WorkCounter) {
  const root = (await parseXml(content, "XLIFF", STOP_NODES, false, work)).find((n) => tagOf(n) === "xliff");
  if (!root) throw invalid("an XLIFF file must have <xliff> at the top", 1, 1);
  const version = attr(root, "version") ?? "";
  const v2 = version.startsWith("2.");
  if (!v2 && version !== "1.2" && version !== "1.1") throw invalid(`XLIFF version "${version}" is not read (1.2 and 2.0 are)`, lineOf(content, "<xliff"), 1);
  const byLanguage = new Map<string, Map<string, Entry>>();
  let sourceLanguage: string | undefined;
  const add = (locale: string, entry: Entry, where: string) => {
    let list = byLanguage.get(locale);
    if (!list) byLanguage.set(locale, (list = new Map()));
    // A document with a <file> per target language repeats each source: the same text is no conflict.
    if (locale === sourceLanguage && list.get(entry.key)?.value === entry.value) return;
    if (list.has(entry.key)) throw invalid(`the unit "${entry.key}" appears twice for ${locale}`, lineOf(content, where));
    list.set(entry.key, entry);
  };
  for (const file of childrenOf(root)) {
    if (tagOf(file) !== "file") continue;
    const src = v2 ? attr(root, "srcLang") : attr(file, "source-language");
    const trg = v2 ? attr(root, "trgLang") : attr(file, "target-language");
    if (!src) throw invalid(v2 ? "<xliff> has no srcLang" : "a <file> has no source-language", lineOf(content, v2 ? "<xliff" : "<file"), 1);
    if (sourceLanguage !== undefined && sourceLanguage !== src) throw invalid(`the files have different source languages (${sourceLanguage}, ${src})`, lineOf(content, src));
    sourceLanguage = src;
    const nodes: XmlNode[] = [];
    unitsOf(file, v2 ? "unit" : "trans-unit", nodes);
    for (const node of nodes) {
      const u = v2 ? unit20(node) : unit12(node);
      const where = `"${u.key}"`;
      if (!u.key) throw invalid(`a <${v2 ? "unit" : "trans-unit"}> has no ${v2 ? "name or id" : "resname or id"}`, lineOf(content, v2 ? "<unit" : "<trans-unit"));
      if (u.source === undefined) throw invalid(`the unit "${u.key}" has no <source>`, lineOf(content, where));
      const extra = u.translate ? {} : { translatable: false as const };
      // The source is a copy of the base string: it sets a key's base string only where there is none yet.
      add(src, { key: u.key, value: u.source, source: u.source, ...(u.note ? { description: u.note } : {}), ...extra }, where);
      if (trg && u.target !== undefined && u.target !== "") add(trg, { key: u.key, value: u.target, source: u.source, ...extra }, where);
    }
  }
  if (sourceLanguage === undefined) throw invalid("the XLIFF file has no <file>", lineOf(content, "<xliff"), 1);
  const languages: FileLanguage[] = [...byLanguage].map(([locale, entries]) => ({ locale, entries: [...entries.values()] }));
  if (languages.length === 0) languages.push({ locale: sourceLanguage, entries: [] });
  return { languages, source: sourceLanguage };
}

function write12(input: WriteInput, base: LanguageTexts, targets: readonly (LanguageTexts | undefined)[]): string {
  const { keys } = input;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'];
  // One <file> per target language: XLIFF 1.2 lets a document hold several.
  for (const target of targets) {
    lines.push(
      `  <file original="phrasebook" datatype="plaintext" source-language="${escapeXmlAttribute(base.code)}"${target ? ` target-language="${escapeXmlAttribute(target.code)}"` : ""}>`,
      "    <body>",
    );
    for (let i = 0; i < keys.keys.length; i++) {
      const source = base.values[i];
      if (source === undefined) continue;
      if (input.work) input.work.steps++;
      const key = escapeXmlAttribute(keys.keys[i]!);
      // XLIFF 1.2 `translate="no"`: a key marked not to be translated (docs/formats.md "Not translatable").
      const translate = keys.translatableOf[i] ? "" : ' translate="no"';
      const codes = new InlineCodes();
      lines.push(`      <trans-unit id="${key}" resname="${key}"${translate} xml:space="preserve">`, `        <source>${xliffContent(source, "1.2", codes)}</source>`);
      const value = target?.values[i];
      if (value !== undefined) lines.push(`        <target state="translated">${xliffContent(value, "1.2", codes)}</target>`);
      const context = keys.contextOf[i];
      if (context) lines.push(`        <note>${escapeXmlText(context)}</note>`);
      lines.push("      </trans-unit>");
    }
    lines.push("    </body>", "  </file>");
  }
  lines.push("</xliff>", "");
  return lines.join("\n");
}

function write20(input: WriteInput, base: LanguageTexts, target: LanguageTexts | undefined): string {
  const { keys } = input;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="${escapeXmlAttribute(base.code)}"${target ? ` trgLang="${escapeXmlAttribute(target.code)}"` : ""}>`,
    '  <file id="f1">',
  ];
  for (let i = 0; i < keys.keys.length; i++) {
    const source = base.values[i];
    if (source === undefined) continue;
    if (input.work) input.work.steps++;
    // A unit's id is an NMTOKEN in XLIFF 2.0, which a key need not be: the key is its name.
    // XLIFF 2.0 core: `translate="no"` on a <unit> (docs/formats.md "Not translatable").
    lines.push(`    <unit id="u${i + 1}" name="${escapeXmlAttribute(keys.keys[i]!)}"${keys.translatableOf[i] ? "" : ' translate="no"'}>`);
    const context = keys.contextOf[i];
    if (context) lines.push("      <notes>", `        <note>${escapeXmlText(context)}</note>`, "      </notes>");
    const value = target?.values[i];
    // <originalData> comes after the notes and before the segments (XLIFF 2.0 core), so the
    // segment is made first and its codes written above it.
    const codes = new InlineCodes();
    const segment = [`      <segment${value !== undefined ? ' state="translated"' : ""}>`, `        <source xml:space="preserve">${xliffContent(source, "2.0", codes)}</source>`];
    if (value !== undefined) segment.push(`        <target xml:space="preserve">${xliffContent(value, "2.0", codes)}</target>`);
    lines.push(...codes.originalData("      "), ...segment, "      </segment>", "    </unit>");
  }
  lines.push("  </file>", "</xliff>", "");
  return lines.join("\n");
}

/**
 * Writes an XLIFF file of the given version: the base language as the source, each of `languages`
 * as a target (1.2: a `<file>` each; 2.0 holds one); the base language alone writes sources only.
 */
export function writeXliff(input: WriteInput, version: XliffVersion): string {
  const base = input.source ?? input.languages[0]!;
  const targets = input.languages.map((l) => (l.code === base.code ? undefined : l));
  if (version === "2.0") return write20(input, base, targets[0]);
  return write12(input, base, targets);
}

export const xliff = {
  name: "xliff",
  label: "XLIFF 1.2 / 2.0",
  extensions: ["xlf", "xliff"],
  contentType: "application/xliff+xml; charset=utf-8",
  bundle: false,
  multiLanguage: true,
  marksTranslatable: true,
  read,
  write: (input: WriteInput) => writeXliff(input, input.options?.xliffVersion ?? "1.2"),
} as const satisfies FileFormat<"xliff">;
