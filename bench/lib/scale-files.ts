/**
 * The strings of the size goal's project (docs/deploy.md "Sizing"), shared by the benchmarks that
 * build it (bench/scale.bench.sh, bench/search-load.bench.sh): shaped like an app's, three to seven
 * words, one value in ten with a `{name}` placeholder, one in twenty a plural; each language other
 * than the base lacks a different 2% of the keys, and one value in 500 of it names a placeholder
 * the base lacks (an error of the message checks). `edit` rewords every string with the same
 * placeholders (a copy edit of the whole app).
 */
const CODES = [
  "en", "de", "fr", "es", "it", "nl", "pl", "pt", "pt-BR", "sv", "da", "fi", "nb", "cs", "sk", "hu", "ro", "bg", "el", "tr",
  "ru", "uk", "ja", "ko", "zh-Hans", "zh-Hant", "ar", "he", "hi", "th", "vi", "id", "ms", "lt", "lv", "et", "hr", "sl", "sr", "ca",
  "eu", "gl", "is", "ga", "cy", "sq", "mk", "bn", "ta", "fa",
];

/** The first `languages` language codes, the base first. */
export function scaleCodes(languages: number): string[] {
  if (languages > CODES.length || languages < 2) throw new Error(`SCALE_LANGUAGES must be 2 to ${CODES.length}`);
  return CODES.slice(0, languages);
}

// Words follow each other three places apart, so "checkout" is never followed by "payment" by chance:
// the phrase is in the 1 key in 1,000 that names it (a search with 100 matches at 100,000 keys).
const WORDS = ["account", "settings", "save", "checkout", "cancel", "your", "order", "was", "shipped", "please", "try", "again", "later",
  "address", "delivery", "profile", "message", "search", "results", "cart", "payment", "empty", "review", "details", "confirm"];
// A language's words: the English ones with a mark of their own, some beyond ASCII, so values differ per language.
const MARKS = ["", "en", "é", "ø", "ã", "ß", "ы", "ä", "ł", "ñ", "ő", "ș", "ž", "ı", "ū"];

export const keyName = (i: number) => `screen${i % 500}.section${i % 9}.item_${String(i).padStart(5, "0")}`;

function sentence(i: number, language: number, edit: number): string {
  const mark = language === 0 ? "" : MARKS[language % MARKS.length]!;
  const length = 3 + (i % 5);
  const words: string[] = [];
  for (let j = 0; j < length; j++) words.push(WORDS[(i * 7 + j * 3 + Math.floor(i / 25) + edit) % WORDS.length]! + mark);
  return (i % 1000 === 3 ? "checkout payment: " : "") + words.join(" ");
}

/** One language's file of `keys` keys: key -> value, as a team's repository holds it. */
export function scaleFile(keys: number, language: number, edit = 0): string {
  const out: Record<string, string> = {};
  for (let i = 0; i < keys; i++) {
    if (language > 0 && (i + language * 7) % 50 === 0) continue; // this language's missing 2%
    const text = sentence(i, language, edit);
    const name = language > 0 && i % 500 === 10 ? "cnt" : i % 10 === 0 ? "name" : "count";
    out[keyName(i)] =
      i % 10 === 0 ? `{${name}}: ${text}` : i % 20 === 5 ? `{${name}, plural, one {# ${text}} other {# ${text} (#)}}` : text;
  }
  return JSON.stringify(out, null, 2);
}
