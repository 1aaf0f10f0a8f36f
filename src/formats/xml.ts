import { invalid, IMPORT_LIMITS } from "./read.ts";

/**
 * What the XML formats (XLIFF, Android, `.stringsdict`) share (docs/formats.md "XML"): a file is
 * refused before any parser sees it when it declares a DTD of its own or an entity (the "billion
 * laughs" and external entities such as `file:///etc/passwd` both need one), or nests deeper than a
 * translation file does; then it is checked for well-formedness (with line and column) and parsed
 * by fast-xml-parser with entity expansion off, loaded only when such a file is read. Entities are
 * decoded by `decodeXml` below: the five of XML and character references, nothing else.
 */

/** The one DOCTYPE a `.stringsdict` carries: Apple's public plist DTD, which no reader fetches. */
const APPLE_PLIST_DOCTYPE = /^<!DOCTYPE\s+plist\s+PUBLIC\s+"-\/\/Apple\/\/DTD PLIST 1\.0\/\/EN"\s+"http:\/\/www\.apple\.com\/DTDs\/PropertyList-1\.0\.dtd"\s*>/;

/** The 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** The line of the first occurrence of `needle`, for an error about an element found by it. */
export function lineOf(text: string, needle: string): number | undefined {
  const at = text.indexOf(needle);
  return at < 0 ? undefined : lineAt(text, at);
}

/** Refuses DTDs, entity declarations and deep nesting, naming the line (before any parser runs). */
export function refuseUnsafeXml(content: string, allowAppleDoctype = false): void {
  for (const m of content.matchAll(/<!(DOCTYPE|ENTITY)/gi)) {
    const at = m.index!;
    if (allowAppleDoctype && m[1]!.toUpperCase() === "DOCTYPE" && APPLE_PLIST_DOCTYPE.test(content.slice(at))) continue;
    throw invalid(
      m[1]!.toUpperCase() === "ENTITY"
        ? "an XML entity declaration (<!ENTITY>): entities are not read, so an entity bomb or an external file cannot be pulled in"
        : "a DOCTYPE: a document type of its own could declare entities (an entity bomb, an external file), so it is not read",
      lineAt(content, at),
      at - content.lastIndexOf("\n", at - 1),
    );
  }
  // Nesting: one linear pass over the tags (a translation file is a few levels deep). Comments,
  // CDATA sections and processing instructions are passed over whole: a closing tag written in
  // one is text, and counting it let any depth through (100,000 `</a>` in a comment, then as many
  // nested elements, overflowed a reader's stack).
  let depth = 0;
  for (const m of content.matchAll(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<(\/?)[A-Za-z_][^<>]*?(\/?)>/g)) {
    if (m[0].charCodeAt(1) === 33 /* ! */ || m[0].charCodeAt(1) === 63 /* ? */) continue;
    if (m[1]) depth--;
    else if (!m[2] && ++depth > IMPORT_LIMITS.depth) {
      throw invalid(`elements are nested deeper than ${IMPORT_LIMITS.depth} levels`, lineAt(content, m.index!), 1);
    }
  }
}

/** An element in the order-preserving shape of fast-xml-parser: one tag name key, `:@` its attributes. */
export type XmlNode = Record<string, unknown> & { ":@"?: Record<string, string> };

/** The tag name of a node (`#text`, `#comment` for those). */
export function tagOf(node: XmlNode): string {
  for (const k in node) if (k !== ":@") return k;
  return "";
}

export function childrenOf(node: XmlNode): XmlNode[] {
  const v = node[tagOf(node)];
  return Array.isArray(v) ? (v as XmlNode[]) : [];
}

export function attr(node: XmlNode, name: string): string | undefined {
  const v = node[":@"]?.[name];
  return v === undefined ? undefined : decodeXml(v);
}

/** The raw text of a node kept whole (a stop node) or of a text node: its XML as written, entities not decoded. */
export function rawText(node: XmlNode): string {
  const children = childrenOf(node);
  let out = "";
  for (const c of children) if (typeof c["#text"] === "string") out += c["#text"];
  return out;
}

/** The text of a comment node. */
export function commentText(node: XmlNode): string {
  return rawText(node);
}

/**
 * Well-formedness with the line and column of the first fault, then the parse. `stopNodes` are
 * kept as raw XML (a string's inline markup, `<b>` or `<xliff:g>`, stays as written).
 */
export async function parseXml(content: string, what: string, stopNodes: string[], allowAppleDoctype = false): Promise<XmlNode[]> {
  refuseUnsafeXml(content, allowAppleDoctype);
  const { XMLParser, XMLValidator } = await import("fast-xml-parser");
  const valid = XMLValidator.validate(content, { allowBooleanAttributes: false });
  if (valid !== true) throw invalid(`not well-formed ${what}: ${valid.err.msg}`, valid.err.line, valid.err.col);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    preserveOrder: true,
    commentPropName: "#comment",
    stopNodes,
    processEntities: false,
    htmlEntities: false,
    trimValues: false,
    parseTagValue: false,
    parseAttributeValue: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
  });
  return parser.parse(content) as XmlNode[];
}

const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** XML's five entities and character references decoded; any other `&name;` is left as written (never expanded). */
export function decodeXml(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref.startsWith("#x")) return safeCodePoint(parseInt(ref.slice(2), 16)) ?? whole;
    if (ref.startsWith("#")) return safeCodePoint(parseInt(ref.slice(1), 10)) ?? whole;
    return NAMED[ref] ?? whole;
  });
}

function safeCodePoint(n: number): string | undefined {
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : undefined;
}

/** Text for an element's content: `&`, `<`, `>` escaped (and characters XML 1.0 cannot hold refused by the caller's checks). */
export function escapeXmlText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Text for an attribute in double quotes. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\t/g, "&#9;").replace(/\r/g, "&#13;");
}

/** A comment's text: `--` cannot appear in an XML comment. */
export function xmlComment(text: string): string {
  return `<!-- ${text.replace(/--/g, "- -").replace(/-$/, "- ")} -->`;
}

/**
 * The inline elements of Android strings (HTML styling and `<xliff:g>`) and of XLIFF (1.2 `<g>`,
 * `<x/>`, `<ph>`...; 2.0 `<pc>`, `<ph/>`...): a value read from a string with them keeps them, and
 * gives them back as markup on the way out. Any other `<` is text (`<v2>`), escaped when written.
 */
const INLINE_TAGS = new Set(
  "a abbr annotation b big br em font i li ol p s small span strike strong sub sup tt u ul xliff:g g x bx ex ph bpt ept it mrk pc sc ec sm".split(" "),
);
const TAG = /<\/?([A-Za-z][\w:.-]*)(?:\s[^<>]*)?\/?>/g;

export function hasInlineMarkup(text: string): boolean {
  if (!text.includes("<")) return false;
  for (const m of text.matchAll(TAG)) if (INLINE_TAGS.has(m[1]!)) return true;
  return false;
}

/** Inline markup written back: the elements as they are, lone `&` made `&amp;`. */
export function markupText(text: string): string {
  return text.replace(/&(?!(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);)/g, "&amp;");
}
