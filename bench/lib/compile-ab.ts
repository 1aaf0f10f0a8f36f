/**
 * The publish's compile pass of this tree against another revision's, in one process, alternating
 * (docs/formats.md "Writing, and speed"): every language of a 10,000-key x 30-language snapshot
 * (the values of bench/lib/publish-driver.ts, arguments from the checks as a publish has them)
 * compiled to every bundle format, CPU time per pass, and the files of both compared byte for byte.
 *
 *   BASELINE_SRC=<a git archive of the other revision> bun bench/lib/compile-ab.ts
 *
 * bench/lib/baseline.sh makes BASELINE_SRC. Before the format registry `compileLanguage` took the
 * ARB names as its second argument; both forms are called as they were.
 * Knobs: BENCH_KEYS (10000), BENCH_LANGS (30), BENCH_ROUNDS (7).
 */
import { join } from "node:path";
import { compareCodePoints } from "../../src/common/text.ts";
import { compileLanguage } from "../../src/formats/bundle.ts";
import { readMessage } from "../../src/messages/read.ts";

const SRC = process.env.BASELINE_SRC;
if (!SRC) throw new Error("BASELINE_SRC: a source tree of the revision to compare with (bench/lib/baseline.sh)");
const KEYS = Number(process.env.BENCH_KEYS ?? 10_000);
const LANGS = Number(process.env.BENCH_LANGS ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

type Files = Record<string, string>;
type Lang = { code: string; values: (string | undefined)[]; arguments?: unknown[] };
type KeySet = { keys: string[]; contexts: Map<string, string | null> };

const theirs = (await import(join(SRC, "src/formats/bundle.ts"))).compileLanguage as (...args: unknown[]) => Files;
const theirNames = (await import(join(SRC, "src/formats/arb-names.ts"))).arbNames as (keys: string[]) => Map<string, string>;
// Before the registry: (keySet, names, lang, syntax); since: (keySet, lang, syntax).
const takesNames = theirs.length === 3;
const compileTheirs = (keySet: KeySet, lang: Lang, names: () => Map<string, string>) => (takesNames ? theirs(keySet, names(), lang, "icu") : theirs(keySet, lang, "icu"));

const WORDS = ["account", "settings", "save", "cancel", "your", "order", "was", "shipped", "please", "try", "again", "later"];
const CODES = ["en", "de", "fr", "es", "it", "nl", "pl", "pt", "pt-BR", "sv", "da", "fi", "nb", "cs", "sk", "hu", "ro", "bg", "el", "tr", "ru", "uk", "ja", "ko", "zh-Hans", "zh-Hant", "ar", "he", "hi", "th", "vi", "id"];
const keys = Array.from({ length: KEYS }, (_, i) => `screen${i % 60}.section${i % 9}.label_${i}`).sort(compareCodePoints);
const contexts = new Map(keys.map((k, i) => [k, i % 7 === 0 ? `shown on screen ${i % 60}` : null]));
const languages: Lang[] = CODES.slice(0, LANGS).map((code) => {
  const values = keys.map((_, i) => {
    if (i % 13 === 0 && code !== "en") return undefined; // some keys untranslated
    const text = Array.from({ length: 5 }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]).join(" ");
    return i % 10 === 0 ? `${code}: {count} ${text}` : i % 20 === 5 ? `${code}: {count, plural, one {# ${text}} other {# ${text}s}}` : `${code}: ${text}`;
  });
  return { code, values, arguments: values.map((v) => (v === undefined ? undefined : readMessage(v, "icu").arguments)) };
});

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** One pass as a publish makes it: a fresh key set (its forms made once), every language. */
function pass(side: "ours" | "theirs"): number {
  const keySet: KeySet = { keys, contexts };
  const started = cpu();
  if (side === "ours") for (const lang of languages) compileLanguage(keySet, lang as never, "icu");
  else {
    let names: Map<string, string> | undefined;
    for (const lang of languages) compileTheirs(keySet, lang, () => (names ??= theirNames(keys)));
  }
  return cpu() - started;
}

const keySet: KeySet = { keys, contexts };
let files = 0;
for (const lang of languages) {
  const a = compileLanguage(keySet, lang as never, "icu") as Files;
  const b = compileTheirs(keySet, lang, () => theirNames(keys));
  for (const format of Object.keys(b)) {
    if (a[format] !== b[format]) throw new Error(`${lang.code}.${format}: the two revisions write different bytes`);
    files++;
  }
}

const times = { ours: [] as number[], theirs: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  for (const side of round % 2 ? (["theirs", "ours"] as const) : (["ours", "theirs"] as const)) times[side].push(pass(side));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const ratios = times.ours.map((t, i) => t / times.theirs[i]!);
console.log(
  JSON.stringify({
    keys: KEYS,
    languages: LANGS,
    identical_files: files,
    ours_cpu_seconds: times.ours.map((t) => Number(t.toFixed(3))),
    theirs_cpu_seconds: times.theirs.map((t) => Number(t.toFixed(3))),
    median_ours: Number(median(times.ours).toFixed(3)),
    median_theirs: Number(median(times.theirs).toFixed(3)),
    median_ratio_ours_to_theirs: Number(median(ratios).toFixed(3)),
  }),
);
