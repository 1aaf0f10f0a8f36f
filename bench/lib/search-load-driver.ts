/**
 * Driver of bench/search-load.bench.sh (docs/dashboard.md "Speed", docs/deploy.md "Sizing"): the
 * compiled server on a project of SEARCH_KEYS keys x SEARCH_LANGUAGES languages (the strings of
 * bench/lib/scale-files.ts, pushed one language at a time with the compiled client, as
 * bench/scale.bench.sh builds it), then:
 *
 * 1. each candidate search and count, alone, timed SEARCH_ROUNDS times (median, and the first):
 *    the two-word search `checkout payment` of the size goal among them;
 * 2. a small project's CDN `latest` file asked every BENCH_PROBE_MS for SEARCH_SECONDS, alone;
 * 3. the same while four viewers (four accounts, each a project `viewer`) loop the slowest of the
 *    candidates back to back for SEARCH_SECONDS; every CDN answer timed, every search's status
 *    counted (a 429 is waited out for its Retry-After, as a client would).
 *
 * One JSON line per figure on stdout. SEARCH_DATA_DIR keeps the seeded data dir (and reuses it when
 * it already holds the project): seeding 100,000 x 50 takes many minutes, measuring a few.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DashboardClient } from "../../test/helpers/dashboard-client.ts";
import { startServer, tempDir } from "../../test/helpers/server.ts";
import { scaleCodes, scaleFile } from "./scale-files.ts";

const BIN = process.env.PHRASEBOOK_BIN!;
const KEYS = Number(process.env.SEARCH_KEYS ?? 100_000);
const LANGS = Number(process.env.SEARCH_LANGUAGES ?? 50);
const ROUNDS = Number(process.env.SEARCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.SEARCH_SECONDS ?? 20);
const PROBE_MS = Number(process.env.BENCH_PROBE_MS ?? 5);
const VIEWERS = 4;
const PROJECT = "Search load";

const emit = (row: Record<string, unknown>) => console.log(JSON.stringify(row));
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! * 10) / 10;
};
const summary = (xs: number[]) => ({ n: xs.length, p50: pct(xs, 50), p99: pct(xs, 99), max: pct(xs, 100) });

const kept = process.env.SEARCH_DATA_DIR;
const dataDir = kept ?? tempDir("phrasebook-bench-search-");
mkdirSync(dataDir, { recursive: true });
const seeded = existsSync(join(dataDir, "phrasebook.db"));
const server = await startServer({ dataDir, env: { PHRASEBOOK_LOG_REQUESTS: "false", PHRASEBOOK_RATE_LIMIT: "10000000" } });
const codes = scaleCodes(LANGS);

async function push(token: string, work: string, code: string, index: number): Promise<void> {
  writeFileSync(join(work, `${code}.json`), scaleFile(KEYS, index));
  const proc = Bun.spawn([BIN, "push", `${code}.json`, "--language", code], {
    cwd: work,
    env: { PATH: process.env.PATH ?? "", HOME: work, PHRASEBOOK_SERVER: server.url, PHRASEBOOK_TOKEN: token },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code_] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code_ !== 0) throw new Error(`push ${code} failed (${code_}): ${err}${out}`);
  rmSync(join(work, `${code}.json`));
}

try {
  const admin = await DashboardClient.loggedIn(server.url);
  let pid: string;
  if (seeded) {
    pid = ((await admin.get("/projects")).body.items as { id: string; name: string }[]).find((p) => p.name === PROJECT)!.id;
  } else {
    const started = performance.now();
    pid = await admin.project(PROJECT, codes[0]!, codes.slice(1));
    const token = (await admin.post(`/projects/${pid}/tokens`, { name: "seed", scopes: ["write"] })).body.token as string;
    const work = tempDir("phrasebook-bench-search-work-");
    for (const [index, code] of codes.entries()) await push(token, work, code, index);
    rmSync(work, { recursive: true, force: true });
    emit({ what: "seeded", keys: KEYS, languages: LANGS, seconds: Math.round((performance.now() - started) / 1000) });
  }

  // A small project whose `latest` file the probe asks for: what is measured is the server's
  // thread, not the size of a file.
  const probeProject = await admin.project(`Probe ${Date.now()}`, "en");
  await admin.key(probeProject, "probe.key", { en: "Probe" });
  const release = await admin.post(`/projects/${probeProject}/releases`, { name: "Probe", tag: "v1" });
  const published = await admin.post(`/projects/${probeProject}/releases/${release.body.id}/publish`);
  const cdnUrl: string = published.body.languages[0].download_urls.json.replace(/\/r\/[^/]+\//, "/r/latest/");

  const viewers: DashboardClient[] = [];
  for (let i = 0; i < VIEWERS; i++) {
    const email = `viewer${i}.${Date.now()}@example.test`;
    const user = await admin.post("/users", { email, name: `Viewer ${i}`, password: "viewer-password", role: "member" });
    await admin.put(`/projects/${pid}/members/${user.body.id}`, { role: "viewer" });
    viewers.push(await DashboardClient.loggedIn(server.url, email, "viewer-password"));
  }

  const shown = codes.slice(0, 4).join(",");
  const candidates: [string, string][] = [
    ["key list: checkout payment", `/projects/${pid}/keys?page=1&page_size=50&languages=${shown}&search=${encodeURIComponent("checkout payment")}`],
    ["key counts (de): checkout payment", `/projects/${pid}/key-counts?language=de&search=${encodeURIComponent("checkout payment")}`],
    ["key list: with", `/projects/${pid}/keys?page=1&page_size=50&languages=${shown}&search=with`],
    ["key counts (de): with", `/projects/${pid}/key-counts?language=de&search=with`],
    ["key counts (de): payment", `/projects/${pid}/key-counts?language=de&search=payment`],
    ["key list: zq (two characters, no match)", `/projects/${pid}/keys?page=1&page_size=50&languages=${shown}&search=zq`],
    ["key counts (de): zq (two characters, no match)", `/projects/${pid}/key-counts?language=de&search=zq`],
    ["key counts (de): e (one character)", `/projects/${pid}/key-counts?language=de&search=e`],
  ];
  let heaviest: { what: string; path: string; ms: number } = { what: "", path: "", ms: -1 };
  for (const [what, path] of candidates) {
    const times: number[] = [];
    let total: unknown;
    for (let round = 0; round < ROUNDS; round++) {
      const t0 = performance.now();
      const r = await viewers[0]!.get(path);
      times.push(performance.now() - t0);
      if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
      total = r.body.page_info?.total_count ?? r.body.total;
    }
    const ms = pct(times, 50);
    emit({ what, ms, first_ms: Math.round(times[0]!), total });
    if (ms > heaviest.ms) heaviest = { what, path, ms };
  }

  const probe = async (until: () => boolean, out: number[]) => {
    let failed = 0;
    while (!until()) {
      const t0 = performance.now();
      const res = await fetch(cdnUrl);
      await res.arrayBuffer();
      if (!res.ok) failed++;
      out.push(performance.now() - t0);
      await Bun.sleep(PROBE_MS);
    }
    return failed;
  };

  const alone: number[] = [];
  const aloneUntil = performance.now() + (SECONDS / 2) * 1000;
  const aloneFailed = await probe(() => performance.now() >= aloneUntil, alone);
  emit({ what: "cdn alone", cdn: summary(alone), failed: aloneFailed });

  const deadline = performance.now() + SECONDS * 1000;
  const stop = () => performance.now() >= deadline;
  const statuses: Record<string, number> = {};
  const searchMs: number[] = [];
  const loops = viewers.map(async (viewer) => {
    while (!stop()) {
      const t0 = performance.now();
      const r = await viewer.get(heaviest.path);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status === 200) searchMs.push(performance.now() - t0);
      else if (r.status === 429) await Bun.sleep(Number(r.headers.get("retry-after") ?? 1) * 1000);
      else throw new Error(`${heaviest.what}: ${r.status} ${JSON.stringify(r.body)}`);
    }
  });
  let looping = true;
  const during: number[] = [];
  const probing = probe(() => !looping, during);
  await Promise.all(loops);
  looping = false;
  const duringFailed = await probing;
  emit({ what: "cdn while four viewers loop the heaviest search", search: heaviest.what, seconds: SECONDS, searches: summary(searchMs), statuses, cdn: summary(during), failed: duringFailed });
} finally {
  await server.stop();
  if (!kept) rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
