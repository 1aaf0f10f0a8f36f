/**
 * Driver of bench/mirror.bench.sh (docs/deploy.md "Object storage and CDN purge"): a project of
 * MIRROR_KEYS keys x MIRROR_LANGUAGES languages pushed by the compiled client to the compiled
 * server, then, in one run:
 *
 * 1. a publish with no mirror (the baseline of the same machine, same moment);
 * 2. the server restarted with the mirror on (s3rver on loopback, in this process): the full pass
 *    that copies the release published before, timed until the bucket holds it;
 * 3. a publish with the mirror on (goal: under 20 s, docs/deploy.md "Sizing"), the server's peak
 *    memory while it publishes and copies, and the time from the publish's answer until the bucket
 *    holds every object of the release, pinned and `latest` (goal: within 60 s).
 *
 * One JSON line per figure on stdout; the shell script prints the table. The bucket's objects are
 * counted from s3rver's own notifications, and the mirror's queue read from the database.
 * Knobs: MIRROR_KEYS (100000), MIRROR_LANGUAGES (50), MIRROR_KEEP (1 keeps the folders).
 */
import { Database } from "bun:sqlite";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DashboardClient } from "../../test/helpers/dashboard-client.ts";
import { BUCKET, mirrorEnv, mirrorIdle } from "../../test/helpers/mirror.ts";
import { startS3 } from "../../test/helpers/s3.ts";
import { startServer, tempDir, type TestServer } from "../../test/helpers/server.ts";

const BIN = process.env.PHRASEBOOK_BIN!;
const KEYS = Number(process.env.MIRROR_KEYS ?? 100_000);
const LANGS = Number(process.env.MIRROR_LANGUAGES ?? 50);
const CODES = [
  "en", "de", "fr", "es", "it", "nl", "pl", "pt", "pt-BR", "sv", "da", "fi", "nb", "cs", "sk", "hu", "ro", "bg", "el", "tr",
  "ru", "uk", "ja", "ko", "zh-Hans", "zh-Hant", "ar", "he", "hi", "th", "vi", "id", "ms", "lt", "lv", "et", "hr", "sl", "sr", "ca",
  "eu", "gl", "is", "ga", "cy", "sq", "mk", "bn", "ta", "fa",
];
if (LANGS > CODES.length || LANGS < 2) throw new Error(`MIRROR_LANGUAGES must be 2 to ${CODES.length}`);
const codes = CODES.slice(0, LANGS);
const WORDS = ["account", "settings", "save", "checkout", "cancel", "your", "order", "was", "shipped", "please", "try", "again", "later", "address", "delivery"];

/** One language's file, values of three to seven words, one in ten with a placeholder. */
function file(language: number, edit: number): string {
  const out: Record<string, string> = {};
  for (let i = 0; i < KEYS; i++) {
    const words: string[] = [];
    for (let j = 0; j < 3 + (i % 5); j++) words.push(WORDS[(i * 7 + j * 3 + language + edit) % WORDS.length]! + (language ? `-${codes[language]}` : ""));
    out[`screen${i % 500}.item_${String(i).padStart(6, "0")}`] = (i % 10 === 0 ? "{name}: " : "") + words.join(" ");
  }
  return JSON.stringify(out, null, 2);
}

const emit = (row: Record<string, unknown>) => console.log(JSON.stringify(row));
const seconds = (ms: number) => +(ms / 1000).toFixed(2);

const dataDir = tempDir("phrasebook-bench-mirror-");
const work = tempDir("phrasebook-bench-mirror-work-");
mkdirSync(join(work, "l10n"), { recursive: true });
const s3 = await startS3([BUCKET]);
const PREFIX = "bench";
const base = { PHRASEBOOK_LOG_REQUESTS: "false", PHRASEBOOK_RATE_LIMIT: "10000000" };
let server: TestServer = await startServer({ dataDir, env: base, keepDataDir: true });

const status = (field: string) => Number(/(\d+) kB/.exec(readFileSync(`/proc/${server.proc.pid}/status`, "utf8").split("\n").find((l) => l.startsWith(field))!)![1]) / 1024;

/** The server's peak resident memory while `during` runs (the kernel's high-water mark, reset first). */
async function withPeak<T>(during: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  try {
    writeFileSync(`/proc/${server.proc.pid}/clear_refs`, "5");
  } catch {
    // not resettable here: the samples below still bound it
  }
  let sampled = status("VmRSS:");
  let running = true;
  const sampler = (async () => {
    while (running) {
      sampled = Math.max(sampled, status("VmRSS:"));
      await Bun.sleep(50);
    }
  })();
  try {
    return { result: await during(), peakMb: Math.round(Math.max(sampled, status("VmHWM:"))) };
  } finally {
    running = false;
    await sampler;
  }
}

async function client(args: string[], token: string): Promise<void> {
  const proc = Bun.spawn([BIN, ...args], { cwd: work, env: { PATH: process.env.PATH ?? "", PHRASEBOOK_SERVER: server.url, PHRASEBOOK_TOKEN: token }, stdout: "pipe", stderr: "pipe" });
  const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`phrasebook ${args.join(" ")}: ${code} ${err}`);
}

/** Publishes a new release; its seconds until the server answered, and the release. */
async function publish(admin: DashboardClient, project: string, tag: string): Promise<{ ms: number; release: any }> {
  const draft = (await admin.post(`/projects/${project}/releases`, { name: tag, tag })).body.id;
  const started = performance.now();
  const r = await admin.post(`/projects/${project}/releases/${draft}/publish`, { allow_errors: true });
  if (r.status !== 200) throw new Error(`publish: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return { ms: performance.now() - started, release: r.body };
}

/** Waits until the bucket holds every key of `keys` (from s3rver's notifications since `from`). */
async function held(keys: Set<string>, from: number): Promise<number> {
  const started = performance.now();
  const db = new Database(join(dataDir, "phrasebook.db"), { readonly: true });
  const query = <T>(sql: string) => db.query(sql).all() as T[];
  try {
    for (;;) {
      const stored = new Set(s3.events.slice(from).filter((e) => e.op === "put").map((e) => e.key));
      if ([...keys].every((k) => stored.has(k)) && mirrorIdle(query)) return performance.now() - started;
      await Bun.sleep(100);
    }
  } finally {
    db.close();
  }
}

function releaseKeys(release: any, slug: string): Set<string> {
  const keys = new Set<string>();
  for (const l of release.languages) {
    for (const url of Object.values(l.download_urls) as string[]) {
      const path = url.slice(url.indexOf("/p/") + 1);
      keys.add(`${PREFIX}/${path}`);
      keys.add(`${PREFIX}/${path.replace(/\/r\/[0-9A-Za-z]{16}\//, "/r/latest/")}`);
    }
  }
  void slug;
  return keys;
}

try {
  let admin = await DashboardClient.loggedIn(server.url);
  const project = await admin.project("Mirror bench", codes[0]!, codes.slice(1));
  const slug = (await admin.get(`/projects/${project}`)).body.cdn_slug as string;
  const token = (await admin.post(`/projects/${project}/tokens`, { name: "CI", scopes: ["read", "write", "publish"] })).body.token as string;
  emit({ what: "setup", keys: KEYS, languages: LANGS, load: readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ") });
  for (const [i, code] of codes.entries()) {
    writeFileSync(join(work, "l10n", `${code}.json`), file(i, 0));
    await client(["push", `l10n/${code}.json`, "--language", code], token);
  }

  // 1. The baseline: a publish with no mirror.
  const plain = await publish(admin, project, "plain");
  emit({ what: "publish without the mirror", seconds: seconds(plain.ms) });

  // 2. The mirror turned on: the full pass copies the release published before.
  await server.stop();
  const env = { ...base, ...mirrorEnv(s3, PREFIX) };
  const passFrom = s3.events.length;
  const restarted = performance.now();
  server = await startServer({ dataDir, env, keepDataDir: true });
  const passMs = await held(releaseKeys(plain.release, slug), passFrom);
  emit({ what: "full pass of a release at start", seconds: seconds(performance.now() - restarted), copy_seconds: seconds(passMs), objects: s3.events.length - passFrom });

  // 3. A publish with the mirror on, and the time until the bucket holds it.
  admin = await DashboardClient.loggedIn(server.url);
  writeFileSync(join(work, "l10n", `${codes[1]}.json`), file(1, 1));
  await client(["push", `l10n/${codes[1]}.json`, "--language", codes[1]!], token);
  const from = s3.events.length;
  const mirrored = await withPeak(async () => {
    const published = await publish(admin, project, "mirrored");
    const heldMs = await held(releaseKeys(published.release, slug), from);
    return { ...published, heldMs };
  });
  const bytes = s3.events.slice(from).length;
  emit({ what: "publish with the mirror", seconds: seconds(mirrored.result.ms), held_seconds: seconds(mirrored.result.heldMs), peak_mb: mirrored.peakMb, objects: bytes });
  await server.stop();
} finally {
  await server.stop().catch(() => {});
  await s3.close();
  if (process.env.MIRROR_KEEP !== "1") {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  } else emit({ what: "kept", data_dir: dataDir, work });
}
