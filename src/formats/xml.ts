import { clipped, withoutXmlForbidden, xmlForbiddenAt } from "../common/text.ts";
import type { WorkCounter } from "../common/work.ts";
import { invalid, IMPORT_LIMITS } from "./read.ts";

/**
 * What the XML formats (XLIFF, Android, `.stringsdict`) share (docs/formats.md "XML and bad
 * files"): one linear pass refuses a file before any parser sees it when it declares a DTD of its
 * own or an entity (the "billion laughs" and external entities such as `file:///etc/passwd` both
 * need one), nests deeper than a translation file does, or holds what XML does not allow; then it
 * is checked for well-formedness (with line and column) and parsed by fast-xml-parser with entity
 * expansion off, loaded only when such a file is read. Entities are decoded by `decodeXml` below:
 * the five of XML and character references, nothing else.
 */

/** The one DOCTYPE a `.stringsdict` carries: Apple's public plist DTD, which no reader fetches. */
const APPLE_PLIST_DOCTYPE = /<!DOCTYPE\s+plist\s+PUBLIC\s+"-\/\/Apple\/\/DTD PLIST 1\.0\/\/EN"\s+"http:\/\/www\.apple\.com\/DTDs\/PropertyList-1\.0\.dtd"\s*>/y;

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

/** Names a JavaScript object must not be given: XML's parser refuses them, and so do we, first and with the line. */
const RESERVED_NAMES = new Set(["__proto__", "constructor", "prototype"]);

/** An XML name as our pass reads it: up to a character that cannot be in one. */
const XML_NAME = /[^\s/>"'=<&]+/y;

/** XML's five entities, the only ones a file without a DTD can use. */
const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** A reference: `&name;`, `&#233;`, `&#xE9;` (the digits bounded: no character needs more). */
const REFERENCE = /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([A-Za-z_][\w.-]*));/y;

type Fail = (at: number, why: string) => never;

/**
 * The one pass over a file before any parser sees it (docs/formats.md "XML and bad files"),
 * refusing with the line and column: a DOCTYPE of its own or an `<!ENTITY>`; a comment, CDATA
 * section, processing instruction or attribute value that is never closed; nesting deeper than a
 * translation file (counted over the tags themselves, their attribute values read within their
 * quotes: `<group x="/>">` opens a group; comments, CDATA and processing instructions passed over
 * whole); an element or attribute named `__proto__`, `constructor` or `prototype`; a reference XML
 * does not define (`&nbsp;`), one to a character XML 1.0 forbids (`&#1;`), and a `&` that starts
 * none. Every search goes on from where the last one ended, so the pass is linear in the length of
 * the file whatever it holds: an opener without its closer is refused where it opens, not searched
 * for again from every later character. `work` is charged the characters passed.
 */
export function refuseUnsafeXml(content: string, allowAppleDoctype = false, work?: WorkCounter): void {
  const fail: Fail = (at, why) => {
    throw invalid(why, lineAt(content, at), at - content.lastIndexOf("\n", at - 1));
  };
  // Each search is charged what it reads: the characters up to what it finds, or to the end.
  const closed = (at: number, opener: string, closer: string, what: string): number => {
    const end = content.indexOf(closer, at + opener.length);
    if (work) work.steps += (end < 0 ? content.length : end) - at;
    if (end < 0) fail(at, `${what} (${opener}) is never closed with ${closer}`);
    return end + closer.length;
  };
  const checkReferences = referenceChecker(content, fail, work);
  let depth = 0;
  for (let i = 0; i < content.length; ) {
    const lt = content.indexOf("<", i);
    const textEnd = lt < 0 ? content.length : lt;
    checkReferences(i, textEnd);
    if (work) work.steps += textEnd - i + 1;
    if (lt < 0) break;
    if (work) work.steps++;
    let next: number;
    if (content.startsWith("<!--", lt)) next = closed(lt, "<!--", "-->", "a comment");
    else if (content.startsWith("<![CDATA[", lt)) next = closed(lt, "<![CDATA[", "]]>", "a CDATA section");
    else if (content.startsWith("<?", lt)) next = closed(lt, "<?", "?>", "a processing instruction");
    else if (content.charCodeAt(lt + 1) === 33 /* ! */) next = declaration(content, lt, allowAppleDoctype, fail);
    else {
      const tag = scanTag(content, lt, fail, checkReferences);
      next = tag.end;
      if (work) work.steps += next - lt;
      if (tag.kind === "close") depth--;
      else if (tag.kind === "open" && ++depth > IMPORT_LIMITS.depth) fail(lt, `elements are nested deeper than ${IMPORT_LIMITS.depth} levels`);
    }
    i = next;
  }
}

/** `<!DOCTYPE` (Apple's plist one, where allowed, is passed over) and `<!ENTITY`, refused. */
function declaration(content: string, lt: number, allowAppleDoctype: boolean, fail: Fail): number {
  const word = /<!([A-Za-z]*)/y;
  word.lastIndex = lt;
  const kind = (word.exec(content)?.[1] ?? "").toUpperCase();
  if (kind === "DOCTYPE") {
    APPLE_PLIST_DOCTYPE.lastIndex = lt;
    const apple = allowAppleDoctype ? APPLE_PLIST_DOCTYPE.exec(content) : null;
    if (apple) return lt + apple[0].length;
    fail(lt, "a DOCTYPE: a document type of its own could declare entities (an entity bomb, an external file), so it is not read");
  }
  if (kind === "ENTITY") fail(lt, "an XML entity declaration (<!ENTITY>): entities are not read, so an entity bomb or an external file cannot be pulled in");
  // Any other `<!` is no XML outside a DTD: the well-formedness check names it.
  return lt + 2;
}

/**
 * The tag at `lt`: its kind and where it ends, its attribute values read within their quotes (a
 * `>` or `/>` inside one is text). A tag that is not well-formed ends where reading it stopped
 * and counts as no element: the well-formedness check that follows refuses the file.
 */
function scanTag(content: string, lt: number, fail: Fail, checkReferences: (from: number, to: number) => void): { kind: "open" | "close" | "empty" | "none"; end: number } {
  const closing = content.charCodeAt(lt + 1) === 47; /* / */
  let i = lt + (closing ? 2 : 1);
  const name = (at: number): string | undefined => {
    XML_NAME.lastIndex = at;
    const found = XML_NAME.exec(content)?.[0];
    if (found !== undefined && RESERVED_NAMES.has(found)) fail(at, `an element or attribute named "${found}": the names __proto__, constructor and prototype are not read`);
    return found;
  };
  const spaces = () => {
    while (i < content.length && /\s/.test(content[i]!)) i++;
  };
  const element = name(i);
  if (element === undefined) return { kind: "none", end: i };
  i += element.length;
  for (;;) {
    spaces();
    const c = content.charCodeAt(i);
    if (c === 62 /* > */) return { kind: closing ? "close" : "open", end: i + 1 };
    if (c === 47 /* / */ && content.charCodeAt(i + 1) === 62) return { kind: closing ? "none" : "empty", end: i + 2 };
    const attribute = closing ? undefined : name(i);
    if (attribute === undefined) return { kind: "none", end: i };
    i += attribute.length;
    spaces();
    if (content[i] !== "=") return { kind: "none", end: i };
    i++;
    spaces();
    const quote = content[i];
    if (quote !== '"' && quote !== "'") return { kind: "none", end: i };
    const end = content.indexOf(quote, i + 1);
    if (end < 0) fail(i, `the value of the attribute ${clipped(attribute, 40)} is never closed with ${quote}`);
    checkReferences(i + 1, end);
    i = end + 1;
  }
}

/**
 * The references in `content[from, to)`: XML's five entities and characters XML 1.0 allows, nothing
 * else. The next `&` is found once and kept while the ranges asked about move on (they do, through
 * the file): searching anew for each range would read to the end of the file each time.
 */
function referenceChecker(content: string, fail: Fail, work: WorkCounter | undefined): (from: number, to: number) => void {
  let next = -2;
  const find = (from: number) => {
    next = content.indexOf("&", from);
    if (work) work.steps += (next < 0 ? content.length : next) - from + 1;
  };
  return (from, to) => {
    if (next !== -1 && next < from) find(from);
    while (next >= 0 && next < to) {
      checkReference(content, next, to, fail);
      find(next + 1);
    }
  };
}

function checkReference(content: string, amp: number, to: number, fail: Fail): void {
  REFERENCE.lastIndex = amp;
  const m = REFERENCE.exec(content);
  if (!m || REFERENCE.lastIndex > to) return fail(amp, "a & that starts no reference: write it as &amp;");
  if (m[3] !== undefined) {
    if (!Object.hasOwn(NAMED, m[3])) fail(amp, `the entity &${clipped(m[3], 40)}; is not one of XML's (&amp; &lt; &gt; &quot; &apos;): write the character itself`);
    return;
  }
  const code = m[1] !== undefined ? parseInt(m[1], 16) : Number(m[2]);
  const char = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "";
  if (!char || xmlForbiddenAt(char) >= 0) fail(amp, `${m[0]} is a character XML 1.0 cannot hold`);
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
  const attributes = node[":@"];
  const v = attributes && Object.hasOwn(attributes, name) ? attributes[name] : undefined;
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
 * kept as raw XML (a string's inline markup, `<b>` or `<xliff:g>`, stays as written). `work` is
 * charged the pass before (`refuseUnsafeXml`) and the length the parser is handed, twice.
 */
export async function parseXml(content: string, what: string, stopNodes: string[], allowAppleDoctype = false, work?: WorkCounter): Promise<XmlNode[]> {
  refuseUnsafeXml(content, allowAppleDoctype, work);
  const { XMLParser, XMLValidator } = await import("fast-xml-parser");
  if (work) work.steps += 2 * content.length;
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
  try {
    return parser.parse(content) as XmlNode[];
  } catch (err) {
    // The parser's own limits and checks (ours come first, with the line): a 400, never a 500.
    throw invalid(`${what} that cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** XML's five entities and character references decoded; any other `&name;` is left as written (never expanded). */
export function decodeXml(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref.startsWith("#x")) return safeCodePoint(parseInt(ref.slice(2), 16)) ?? whole;
    if (ref.startsWith("#")) return safeCodePoint(parseInt(ref.slice(1), 10)) ?? whole;
    return Object.hasOwn(NAMED, ref) ? NAMED[ref]! : whole;
  });
}

function safeCodePoint(n: number): string | undefined {
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : undefined;
}

/** Text for an element's content: `&`, `<`, `>` escaped, a character XML 1.0 cannot hold replaced (common/text.ts). */
export function escapeXmlText(text: string): string {
  return withoutXmlForbidden(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Text for an attribute in double quotes. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\t/g, "&#9;").replace(/\r/g, "&#13;");
}

/** A comment's text: `--` cannot appear in an XML comment. */
export function xmlComment(text: string): string {
  return `<!-- ${withoutXmlForbidden(text).replace(/--/g, "- -").replace(/-$/, "- ")} -->`;
}

/** One piece of an element's content as written: text (references decoded), or a tag as written. */
export type XmlPiece = { text: string } | { tag: string; name: string; kind: "open" | "close" | "empty" };

/**
 * The content of an element kept whole (a stop node: a string, a `<source>`) as text and tags, in
 * order: references decoded in text, a CDATA section's text as it is, comments and processing
 * instructions left out (aapt2 and XLIFF tools drop them too). The file passed `refuseUnsafeXml`
 * and the well-formedness check, so every tag is whole. Linear in the length of `raw`.
 */
export function xmlPieces(raw: string): XmlPiece[] {
  const pieces: XmlPiece[] = [];
  let i = 0;
  while (i < raw.length) {
    const lt = raw.indexOf("<", i);
    const end = lt < 0 ? raw.length : lt;
    if (end > i) pieces.push({ text: decodeXml(raw.slice(i, end)) });
    if (lt < 0) break;
    if (raw.startsWith("<!--", lt)) i = raw.indexOf("-->", lt + 4) + 3;
    else if (raw.startsWith("<?", lt)) i = raw.indexOf("?>", lt + 2) + 2;
    else if (raw.startsWith("<![CDATA[", lt)) {
      const close = raw.indexOf("]]>", lt + 9);
      pieces.push({ text: raw.slice(lt + 9, close) });
      i = close + 3;
    } else {
      const close = tagEnd(raw, lt);
      const tag = raw.slice(lt, close);
      const kind = tag.startsWith("</") ? "close" : tag.endsWith("/>") ? "empty" : "open";
      pieces.push({ tag, name: /^<\/?([^\s/>]+)/.exec(tag)![1]!, kind });
      i = close;
    }
    if (i <= lt) i = raw.length; // a closer missing: the checks before make it impossible
  }
  return pieces;
}

/** The end (after `>`) of the tag at `lt`, a `>` inside a quoted attribute value skipped. */
function tagEnd(raw: string, lt: number): number {
  let quote = "";
  for (let i = lt + 1; i < raw.length; i++) {
    const c = raw[i]!;
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ">") return i + 1;
  }
  return raw.length;
}
