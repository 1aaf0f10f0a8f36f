import { withoutXmlForbidden } from "../common/text.ts";
import { scanTags, type TagKind } from "../messages/markup.ts";
import { escapeXmlText, type XmlPiece } from "./xml.ts";

/**
 * Values with markup in the XML formats (docs/formats.md "Markup in values"). A stored value keeps
 * its tags as tags (`<b>`, `<xliff:g id="n">`) and writes a literal `<` as `&lt;`, so text and
 * markup stay apart; every other reference of the file (`&amp;`, `&#233;`) is stored decoded and
 * encoded again on the way out. Readers build values with `storedFromPieces`; writers split them
 * with `valueParts`, which takes as markup only tags that make well-formed XML, so a file stays
 * well-formed whatever a value holds.
 */

/** Text as a stored value writes it: a `<` as `&lt;`, so it is never read as a tag. */
export function storedText(text: string): string {
  return text.indexOf("<") < 0 ? text : text.replace(/</g, "&lt;");
}

/** A stored value's text as the app shows it: `&lt;` is the `<` it stands for. */
export function plainText(text: string): string {
  return text.indexOf("&lt;") < 0 ? text : text.replace(/&lt;/g, "<");
}

/** A value from the pieces of an XML element: its tags as written, its text decoded with `<` as `&lt;`. */
export function storedFromPieces(pieces: readonly XmlPiece[]): string {
  let out = "";
  for (const p of pieces) out += "text" in p ? storedText(p.text) : p.tag;
  return out;
}

/** A tag a writer writes as markup: one of a pair (`partner` its index in the parts) or self-closing. */
export interface TagPart {
  tag: string;
  name: string;
  kind: TagKind;
  partner: number;
}

/** A stored value as an XML writer takes it: text as the app shows it, and the tags that are markup. */
export type ValuePart = { text: string } | TagPart;

/**
 * The parts of a stored value: each tag that pairs (`<b>…</b>`) or closes itself (`<br/>`), and
 * whose name `accept`s (a prefix the file declares, as Android's `xliff:`), as a tag; the rest as
 * text. An unpaired tag and HTML's `<br>` without its slash are text, written escaped.
 */
export function valueParts(value: string, accept: (name: string) => boolean = () => true): ValuePart[] {
  const tokens = value.indexOf("<") < 0 ? [] : scanTags(value);
  const parts: ValuePart[] = [];
  const partOf = new Map<number, number>();
  let at = 0;
  const text = (end: number) => {
    if (end > at) parts.push({ text: plainText(value.slice(at, end)) });
  };
  tokens.forEach((t, k) => {
    const markup = (t.kind === "empty" || (t.pair >= 0 && t.pair !== k)) && accept(t.name);
    if (!markup) return;
    text(t.start);
    const index = parts.length;
    const partner = t.kind === "empty" ? index : (partOf.get(t.pair) ?? -1);
    parts.push({ tag: value.slice(t.start, t.end), name: t.name, kind: t.kind, partner });
    partOf.set(k, index);
    if (partner >= 0 && partner !== index) (parts[partner] as TagPart).partner = index;
    at = t.end;
  });
  text(value.length);
  return parts;
}

/** A tag written as markup: a bare `&` (typed in the editor) made `&amp;`, a character XML cannot hold replaced. */
export function markupTag(tag: string): string {
  return withoutXmlForbidden(tag).replace(/&(?!(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z_][\w.-]*);)/g, "&amp;");
}

/** A stored value as XML content with its markup as elements (`<b>` stays `<b>`), text escaped. */
export function xmlContent(value: string, accept?: (name: string) => boolean): string {
  let out = "";
  for (const p of valueParts(value, accept)) out += "text" in p ? escapeXmlText(p.text) : markupTag(p.tag);
  return out;
}
