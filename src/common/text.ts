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
