/**
 * Text rules of `GET /releases` (docs/interface.md §4.2): what "case-insensitive" means for search and what
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
