import { badRequest } from "../common/errors.ts";
import { ContentError } from "../formats/read.ts";
import { decodeXml, escapeXmlAttribute, lineAt, refuseUnsafeXml } from "../formats/xml.ts";

/**
 * TMX 1.4b, the translation memory exchange format (docs/translators.md "TMX"): written with each
 * unit's text as plain text (level 1: what Phrasebook stores is text, tags included), read at
 * level 2 too, where the native code of `<bpt>`, `<ept>`, `<ph>`, `<it>` and `<ut>` is put back
 * in place and `<hi>` and `<sub>` are text. A file passes the XML checks of every XML format
 * (docs/formats.md "XML": no entity declarations, no document type but TMX's own DTD named by
 * its system id, nesting bounded) and fast-xml-parser's well-formedness check first, and is
 * then read with a few linear scans, which keep a 20 MB file's memory near its size.
 */

export interface TmxVariant {
  lang: string;
  text: string;
}

export interface TmxUnit {
  tuid: string | null;
  /** The unit's own `srclang`, when it has one (it wins over the header's). */
  srclang: string | null;
  variants: TmxVariant[];
}

export interface TmxFile {
  srclang: string | null;
  creationtool: string | null;
  creationdate: string | null;
  units: TmxUnit[];
}

/** `<!DOCTYPE tmx SYSTEM "tmx14.dtd">`: the DTD of TMX named, nothing declared in the file (which is refused). */
const TMX_DOCTYPE = /<!DOCTYPE\s+tmx\s+(?:SYSTEM\s+(?:"[^"<>]*"|'[^'<>]*')|PUBLIC\s+(?:"[^"<>]*"|'[^'<>]*')\s+(?:"[^"<>]*"|'[^'<>]*'))\s*>/i;

const invalidTmx = (why: string, line?: number, column?: number) =>
  badRequest(`invalid TMX file: ${line !== undefined ? `line ${line}${column !== undefined ? `, column ${column}` : ""}: ` : ""}${why}`);

const ATTRIBUTE = /([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(ATTRIBUTE)) out.set(m[1]!, decodeXml(m[2] ?? m[3] ?? ""));
  return out;
}

/** Inline elements of a segment and CDATA sections: each tag is dropped, the text and native code inside kept. */
const SEGMENT_PART = /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<\/?[A-Za-z_][\w:.-]*(?:\s[^<>]*)?\/?>/g;

/** A `<seg>`'s content as text: native code in place, tags of TMX's inline elements gone. */
export function segmentText(inner: string): string {
  if (inner.indexOf("<") < 0) return decodeXml(inner);
  let out = "";
  let at = 0;
  for (const m of inner.matchAll(SEGMENT_PART)) {
    out += decodeXml(inner.slice(at, m.index));
    if (m[1] !== undefined) out += m[1];
    at = m.index! + m[0].length;
  }
  return out + decodeXml(inner.slice(at));
}

function checkXml(content: string): void {
  try {
    refuseUnsafeXml(content);
  } catch (err) {
    if (err instanceof ContentError) throw invalidTmx(err.reason, err.line, err.column);
    throw err;
  }
}

/** Reads a TMX file's units; refuses a file that is not well-formed XML or not TMX, naming the line. */
export async function readTmx(text: string): Promise<TmxFile> {
  let content = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // TMX's own DTD, named and never read, is allowed; blanked so line numbers stay.
  content = content.replace(TMX_DOCTYPE, (m) => m.replace(/[^\n]/g, " "));
  checkXml(content);
  const { XMLValidator } = await import("fast-xml-parser");
  const valid = XMLValidator.validate(content, { allowBooleanAttributes: false });
  if (valid !== true) throw invalidTmx(`not well-formed XML: ${valid.err.msg}`, valid.err.line, valid.err.col);
  const root = /<tmx(?=[\s>/])([^>]*)>/.exec(content);
  if (!root) throw invalidTmx("no <tmx> element: this is not a TMX file");
  const headerMatch = /<header(?=[\s>/])([^>]*?)\/?>/.exec(content);
  const header = attributes(headerMatch?.[1] ?? "");
  const bodyStart = content.indexOf("<body", root.index);
  if (bodyStart < 0) throw invalidTmx("no <body> element", lineAt(content, root.index));
  // Comments hold no unit; with them gone a commented-out `<tu>` is not read as one.
  const body = content.slice(bodyStart).replace(/<!--[\s\S]*?-->/g, "");
  const units: TmxUnit[] = [];
  for (const tu of body.matchAll(/<tu(?=[\s>/])([^>]*?)(?:\/>|>([\s\S]*?)<\/tu>)/g)) {
    const attrs = attributes(tu[1]!);
    const variants: TmxVariant[] = [];
    for (const tuv of (tu[2] ?? "").matchAll(/<tuv(?=[\s>/])([^>]*?)(?:\/>|>([\s\S]*?)<\/tuv>)/g)) {
      const tuvAttrs = attributes(tuv[1]!);
      const lang = tuvAttrs.get("xml:lang") ?? tuvAttrs.get("lang");
      const seg = /<seg(?=[\s>/])[^>]*?(?:\/>|>([\s\S]*?)<\/seg>)/.exec(tuv[2] ?? "");
      if (lang === undefined || !seg) continue;
      variants.push({ lang, text: segmentText(seg[1] ?? "") });
    }
    units.push({ tuid: attrs.get("tuid") ?? null, srclang: attrs.get("srclang") ?? null, variants });
  }
  return { srclang: header.get("srclang") ?? null, creationtool: header.get("creationtool") ?? null, creationdate: header.get("creationdate") ?? null, units };
}

/** Characters XML 1.0 cannot hold, even as a reference: a text with one cannot be written. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function writableInXml(text: string): boolean {
  return !NOT_XML.test(text);
}

/** A segment's text: `&`, `<`, `>` escaped, and carriage returns as references (a parser would make `\r\n` a `\n`). */
function segment(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
}

export interface TmxOut {
  tuid: string | null;
  source: string;
  target: string;
}

/** TMX's `creationdate`: `YYYYMMDDThhmmssZ`. */
export function tmxDate(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/**
 * A TMX 1.4b document of `units`, `srclang` to `targetLang`. Every text must be writableInXml
 * (the caller leaves out the units that are not).
 */
export function writeTmx(srclang: string, targetLang: string, units: Iterable<TmxOut>, at: number, toolVersion: string): string {
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n',
    `  <header creationtool="Phrasebook" creationtoolversion="${escapeXmlAttribute(toolVersion)}" segtype="block" o-tmf="Phrasebook" adminlang="en" srclang="${escapeXmlAttribute(srclang)}" datatype="plaintext" creationdate="${tmxDate(at)}"/>\n`,
    "  <body>\n",
  ];
  const src = escapeXmlAttribute(srclang);
  const tgt = escapeXmlAttribute(targetLang);
  for (const u of units) {
    parts.push(
      `    <tu${u.tuid === null ? "" : ` tuid="${escapeXmlAttribute(u.tuid)}"`}>\n`,
      `      <tuv xml:lang="${src}"><seg>${segment(u.source)}</seg></tuv>\n`,
      `      <tuv xml:lang="${tgt}"><seg>${segment(u.target)}</seg></tuv>\n`,
      "    </tu>\n",
    );
  }
  parts.push("  </body>\n</tmx>\n");
  return parts.join("");
}
