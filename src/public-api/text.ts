/**
 * Text rules of `GET /releases` (spec 4.2): what "case-insensitive" means for search and what
 * order `sort=name` and `sort=tag` produce. Both are done in JavaScript over the in-memory index,
 * not with SQLite's LIKE/NOCASE, which fold ASCII letters only (so "ÄPFEL" would not find "äpfel").
 */

/**
 * Caseless form of a string: Unicode canonical composition, then full case mapping up and down.
 * Upper-then-lower folds the cases a single toLowerCase misses: ß and SS, the ligature ﬁ and FI,
 * final ς and σ, titlecase digraphs. Composition first means a decomposed "U+0308" matches a
 * precomposed "Ü". Accents stay significant: "e" does not match "é". The same function is applied
 * to the search and to every name and tag, so matching is symmetric.
 */
export function fold(value: string): string {
  const composed = value.normalize("NFC");
  // Fast path: ASCII needs only lower-casing, and most names and tags are ASCII.
  if (/^[\x00-\x7f]*$/.test(composed)) return composed.toLowerCase();
  // toLowerCase writes a word-final sigma as ς; case folding makes every sigma σ, so "σ" finds "ΟΔΟΣ".
  return composed.toUpperCase().toLowerCase().normalize("NFC").replaceAll("ς", "σ");
}

/**
 * Compares strings by Unicode code point (CONTRACTS 3 uses the same order for keys in files), not
 * by UTF-16 code unit, which would put U+FF5E after U+1F600. Returns <0, 0 or >0.
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

/** Moves surrogates (astral code points) above U+E000..U+FFFF while keeping every other order. */
function codeUnitRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}
