/**
 * The translation memory at size (docs/translators.md "Translation memory"; bench/RESULTS.md
 * "Translation memory"), in-process on a data dir of its own, through the app's own handler:
 *
 * 1. a project of BENCH_KEYS keys (default 100,000) in 10 languages, written with SQL (the
 *    triggers keep the counts and both indexes, as on every write): a million translations;
 * 2. a TMX file of BENCH_UNITS units (default 100,000), imported through `POST /tm/import` (a worker
 *    thread), while a loop asks the CDN for a release file: the import's time, and the CDN's
 *    latency before and during it;
 * 3. BENCH_QUERIES suggestions (default 1,000) for random keys into German, the machine off:
 *    p50, p95 and p99, the first 100 (the trigram counts not yet remembered) apart;
 * 4. recall against a scan of every source string for BENCH_RECALL of those keys (default 100):
 *    of the brute force's top 5 (scores of 75 and up, one per value), how many the suggestions'
 *    top 5 hold (compared by score, so ties count whichever string was chosen);
 * 5. pre-translation of a second project of BENCH_MISSING keys (default 10,000) with no German:
 *    its time, exact matches (the default) and with min_score 80.
 *
 * Usage: bun bench/memory.bench.ts   (the machine it runs on is noted in RESULTS.md by hand)
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSettings } from "../src/config/settings.ts";
import { codePoints, comparable, score } from "../src/memory/score.ts";
import { openApp } from "../src/server.ts";
import { refreshMemoryIndex } from "../src/storage/derived.ts";
import { DashboardClient } from "../test/helpers/dashboard-client.ts";
import { corpus, seeded } from "./lib/memory-corpus.ts";

const KEYS = Number(process.env.BENCH_KEYS ?? 100_000);
const UNITS = Number(process.env.BENCH_UNITS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 1000);
const RECALL = Number(process.env.BENCH_RECALL ?? 100);
const MISSING = Number(process.env.BENCH_MISSING ?? 10_000);
const LANGUAGES = ["de", "fr", "es", "it", "pt-BR", "nl", "pl", "ja", "ru"];
const ORIGIN = "http://localhost:8080";

const dir = mkdtempSync(join(tmpdir(), "phrasebook-bench-memory-"));
const settings = loadSettings({ PHRASEBOOK_DATA_DIR: dir, PHRASEBOOK_PUBLIC_URL: ORIGIN, PHRASEBOOK_LOG_REQUESTS: "false", PHRASEBOOK_WRITE_RATE_LIMIT: "1000000", PHRASEBOOK_ADMIN_EMAIL: "admin@example.test", PHRASEBOOK_ADMIN_PASSWORD: "bench-password" });
const { deps, app } = await openApp(settings);
const c = deps.db.$client;
const handle = async (request: Request): Promise<Response> => app.handle(request, () => "127.0.0.1");
const admin = await DashboardClient.loggedIn(ORIGIN, "admin@example.test", "bench-password", handle);
const ms = (t0: number) => Math.round(performance.now() - t0);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

// 1. The project.
const pid = await admin.project("Big", "en", LANGUAGES);
const projectId = c.query<{ id: number }, [string]>("SELECT id FROM projects WHERE public_id = ?").get(pid)!.id;
const languageIds = new Map(c.query<{ id: number; code: string }, [number]>("SELECT id, code FROM languages WHERE project_id = ?").all(projectId).map((l) => [l.code, l.id]));
const base = corpus(7, KEYS);
/** A key's German: the base words reversed (a stand-in; what matters is that every key has one). */
const german = (s: string) => s.split(" ").reverse().join(" ") + " (de)";
let t0 = performance.now();
c.run("BEGIN");
const insertKey = c.prepare<{ id: number }, [string, number, string]>("INSERT INTO translation_keys (public_id, project_id, key, created_at, updated_at) VALUES (?, ?, ?, 0, 0) RETURNING id");
const insertValue = c.prepare("INSERT INTO translations (key_id, language_id, value, status, updated_at, checked_at) VALUES (?, ?, ?, 'translated', 0, 0)");
const keyRowIds: number[] = [];
for (let i = 0; i < KEYS; i++) {
  const id = insertKey.get(`key_${String(i).padStart(20, "0")}`, projectId, `screen${i % 200}.item_${i}`)!.id;
  keyRowIds.push(id);
  insertValue.run(id, languageIds.get("en")!, base[i]!);
  insertValue.run(id, languageIds.get("de")!, german(base[i]!));
  for (const code of LANGUAGES.slice(1)) insertValue.run(id, languageIds.get(code)!, `${code}: ${base[i]}`);
}
c.run("COMMIT");
console.log(`1. ${KEYS} keys x ${LANGUAGES.length + 1} languages (${KEYS * (LANGUAGES.length + 1)} values) written in ${ms(t0)} ms`);

// A release, for the CDN to serve during the import.
const rel = await admin.post(`/projects/${pid}/releases`, { name: "R", tag: "r1" });
const pub = await admin.post(`/projects/${pid}/releases/${rel.body.id}/publish`, { allow_errors: true });
if (pub.status !== 200) throw new Error(`publish: ${pub.status} ${JSON.stringify(pub.body).slice(0, 300)}`);
const cdnUrl: string = pub.body.languages.find((l: any) => l.code === "de").download_urls.json;
const cdnPath = new URL(cdnUrl).pathname;
const cdnOnce = async () => {
  const t = performance.now();
  const res = await handle(new Request(ORIGIN + cdnPath));
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`CDN ${res.status}`);
  return performance.now() - t;
};
async function cdnLoop(stop: () => boolean): Promise<number[]> {
  const out: number[] = [];
  while (!stop()) {
    out.push(await cdnOnce());
    await Bun.sleep(2);
  }
  return out.sort((a, b) => a - b);
}

// 2. The TMX import, with the CDN asked meanwhile.
const units = corpus(11, UNITS, base.slice(0, 20_000));
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const tmx =
  `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header creationtool="bench" creationtoolversion="1" segtype="sentence" o-tmf="bench" adminlang="en" srclang="en" datatype="plaintext"/>\n<body>\n` +
  units.map((u, i) => `<tu tuid="u${i}"><tuv xml:lang="en"><seg>${esc(u)}</seg></tuv><tuv xml:lang="de"><seg>${esc(german(u))} [tm]</seg></tuv></tu>`).join("\n") +
  "\n</body></tmx>\n";
let stopBaseline = false;
setTimeout(() => (stopBaseline = true), 3000);
const baseline = await cdnLoop(() => stopBaseline);
let importing = true;
t0 = performance.now();
const during = cdnLoop(() => !importing);
const imported = await admin.upload("POST", `/projects/${pid}/tm/import?name=Bench`, tmx, "application/xml");
const importMs = ms(t0);
importing = false;
const cdnDuring = await during;
console.log(`2. TMX of ${UNITS} units (${(tmx.length / 1024 / 1024).toFixed(1)} MB): ${imported.status} ${JSON.stringify(imported.body)} in ${importMs} ms`);
console.log(`   CDN file (${cdnPath.split("/").pop()}) before: p50 ${pct(baseline, 0.5).toFixed(2)} ms, p99 ${pct(baseline, 0.99).toFixed(2)} ms (${baseline.length} requests); during the import: p50 ${pct(cdnDuring, 0.5).toFixed(2)} ms, p99 ${pct(cdnDuring, 0.99).toFixed(2)} ms, max ${cdnDuring.at(-1)?.toFixed(1)} ms (${cdnDuring.length} requests)`);
const stored = c.query<{ n: number }, []>("SELECT (SELECT count(*) FROM translations) + (SELECT count(*) FROM memory_targets) AS n").get()!.n;
console.log(`   stored translations: ${stored.toLocaleString("en-US")} (values of every language and imported targets); database ${(statSync(join(dir, "phrasebook.db")).size / 1024 / 1024).toFixed(0)} MB`);

// The memory's index is brought up to date after the writes (src/memory/index-pass.ts): here all
// at once, as the server's background pass does a chunk at a time, and timed.
t0 = performance.now();
let indexed = 0;
for (let n; (n = refreshMemoryIndex(c, 5000)) > 0; ) indexed += n;
console.log(`   the memory's index: ${indexed} source strings indexed after the writes in ${ms(t0)} ms`);

// 3. Suggestions.
const r = seeded(99);
const picks = Array.from({ length: QUERIES }, () => Math.floor(r() * KEYS));
const times: number[] = [];
const answers: any[] = [];
for (const i of picks) {
  const t = performance.now();
  const res = await admin.get(`/projects/${pid}/keys/key_${String(i).padStart(20, "0")}/suggestions?language=de&machine=false`);
  times.push(performance.now() - t);
  if (res.status !== 200) throw new Error(`suggestions ${res.status} ${JSON.stringify(res.body)}`);
  answers.push(res.body);
}
const cold = times.slice(0, 100).sort((a, b) => a - b);
const warm = times.slice(100).sort((a, b) => a - b);
const all = [...times].sort((a, b) => a - b);
const withMatches = answers.filter((a) => a.items.length > 0).length;
console.log(`3. ${QUERIES} suggestions: p50 ${pct(all, 0.5).toFixed(1)} ms, p95 ${pct(all, 0.95).toFixed(1)} ms, p99 ${pct(all, 0.99).toFixed(1)} ms, max ${all.at(-1)!.toFixed(1)} ms; first 100 p50 ${pct(cold, 0.5).toFixed(1)} / p95 ${pct(cold, 0.95).toFixed(1)} ms, the rest p50 ${pct(warm, 0.5).toFixed(1)} / p95 ${pct(warm, 0.95).toFixed(1)} ms; ${withMatches} with a match`);

// 4. Recall against a scan of every source string.
const sources: { text: Int32Array; value: string; key: number }[] = [
  ...base.map((s, i) => ({ text: codePoints(comparable(s, "icu")), value: german(s), key: i })),
  ...units.map((s) => ({ text: codePoints(comparable(s, "icu")), value: `${german(s)} [tm]`, key: -1 })),
];
let want = 0;
let got = 0;
t0 = performance.now();
for (let q = 0; q < Math.min(RECALL, picks.length); q++) {
  const i = picks[q]!;
  const mine = codePoints(comparable(base[i]!, "icu"));
  const best = new Map<string, { score: number; source: number }>();
  sources.forEach((s, at) => {
    if (s.key === i) return;
    const sc = score(mine, s.text, 75);
    if (sc >= 75 && sc > (best.get(s.value)?.score ?? -1)) best.set(s.value, { score: sc, source: at });
  });
  const top = [...best.values()].sort((a, b) => b.score - a.score).slice(0, 5);
  const theirs = answers[q].items.slice(0, 5).map((it: any) => it.score as number);
  for (const { score: sc, source } of top) {
    want++;
    const at = theirs.indexOf(sc);
    if (at >= 0) {
      got++;
      theirs.splice(at, 1);
    } else if (process.env.BENCH_SHOW_MISSES) console.log(`   missed: ${JSON.stringify(base[i])} ~ ${JSON.stringify([...base, ...units][source])} (${sc})`);
  }
}
console.log(`4. recall over ${Math.min(RECALL, picks.length)} keys: ${got} of the brute force's ${want} top-5 matches (${((100 * got) / Math.max(want, 1)).toFixed(1)}%); the scan took ${ms(t0)} ms`);

// 5. Pre-translation of a project with no German.
for (const [label, minScore] of [["exact", undefined], ["min_score 80", 80]] as const) {
  const fresh = await admin.project(`Fresh ${label}`, "en", ["de"]);
  const freshId = c.query<{ id: number }, [string]>("SELECT id FROM projects WHERE public_id = ?").get(fresh)!.id;
  const en = c.query<{ id: number }, [number]>("SELECT id FROM languages WHERE project_id = ? AND code = 'en'").get(freshId)!.id;
  const strings = corpus(23, MISSING, base);
  c.run("BEGIN");
  for (let i = 0; i < MISSING; i++) {
    const id = insertKey.get(`key_f${label.length}${String(i).padStart(17, "0")}`, freshId, `fresh.${i}`)!.id;
    insertValue.run(id, en, i % 2 === 0 ? base[(i * 7) % KEYS]! : strings[i]!);
  }
  c.run("COMMIT");
  t0 = performance.now();
  const res = await admin.post(`/projects/${fresh}/pretranslate`, minScore === undefined ? { language_code: "de" } : { language_code: "de", min_score: minScore });
  console.log(`5. pre-translation of ${MISSING} missing values (${label}): ${res.status} ${JSON.stringify(res.body)} in ${ms(t0)} ms`);
}

const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
console.log(`process RSS at the end: ${rss} MB`);
deps.db.$client.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
