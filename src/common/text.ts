/**
 * Compares strings by Unicode code point, the order of keys in every bundle file and of names and
 * tags in the public API (docs/product.md §3). JavaScript's `<` compares UTF-16 code units, which
 * puts U+E000..U+FFFF after astral characters; shifting the unit ranges at the first difference
 * gives code-point order without decoding whole strings. Returns <0, 0 or >0.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codeUnitRank(x) - codeUnitRank(y);
  }
  return a.length - b.length;
}

/** Moves surrogates (parts of astral code points) above U+E000..U+FFFF, keeping every other order. */
function codeUnitRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/** True for text holding a C0 control character or DEL: such keys, names and tags make files no tool reads back. */
export function hasControlCharacters(text: string): boolean {
  return /[\u0000-\u001f\u007f]/.test(text);
}

/**
 * The characters XML 1.0 cannot hold, not even as a character reference: C0 controls other than
 * tab, line feed and carriage return, and the noncharacters U+FFFE and U+FFFF (lone surrogates,
 * which XML forbids too, are `hasLoneSurrogate`'s). A value or context holding one could never be
 * written into an Android or XLIFF file, so it is refused on save and import
 * (docs/formats.md "XML and bad files").
 */
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const XML_FORBIDDEN_ALL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** The index of the first character XML 1.0 forbids in `text` (a lone surrogate aside), or -1. */
export function xmlForbiddenAt(text: string): number {
  return text.search(XML_FORBIDDEN);
}

/** How a refused character is named: "U+0001 (a control character)", "U+FFFE (a noncharacter)". */
export function nameForbidden(text: string, at: number): string {
  const unit = text.charCodeAt(at);
  return `U+${unit.toString(16).toUpperCase().padStart(4, "0")} (${unit >= 0xfffe ? "a noncharacter" : "a control character"})`;
}

/** Why `text` cannot be stored, worded for a field's 400, or null: it holds a character XML 1.0 forbids. */
export function xmlForbiddenReason(text: string): string | null {
  const at = xmlForbiddenAt(text);
  return at < 0 ? null : `must not contain ${nameForbidden(text, at)}: XML 1.0 forbids it, so no Android or XLIFF file could carry it`;
}

/** `text` with every character XML 1.0 forbids replaced by U+FFFD: what a writer of XML puts in their place. */
export function withoutXmlForbidden(text: string): string {
  return XML_FORBIDDEN.test(text) ? text.replace(XML_FORBIDDEN_ALL, "\uFFFD") : text;
}

/**
 * True for text holding a lone UTF-16 surrogate (half of an astral character without its other
 * half): it is not Unicode, cannot be written as UTF-8, and SQLite or a file would keep U+FFFD in
 * its place, so it is refused rather than changed silently.
 */
export function hasLoneSurrogate(text: string): boolean {
  return !text.isWellFormed();
}

/** The index of the first lone surrogate in `text`, or -1. */
export function loneSurrogateAt(text: string): number {
  if (text.isWellFormed()) return -1;
  return text.search(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
}

/** At most `max` characters of `text` for a message, with "…" where it was cut: an error never echoes a 10 MB key. */
export function clipped(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
