/**
 * Driver of bench/scale.bench.sh (docs/deploy.md "Sizing"): one
 * project of SCALE_KEYS keys x SCALE_LANGUAGES languages built the way a team builds it, files
 * generated on disk and sent by the compiled client (`phrasebook push`, one file per language) to
 * the compiled server, then every figure of the size goal measured against that server. One JSON
 * line per figure on stdout; the shell script prints the table.
 *
 * The strings are shaped like an app's: three to seven words, one value in ten with a `{name}`
 * placeholder, one in twenty a plural; each language other than the base lacks a different 2% of
 * the keys, and one value in 500 of it names a placeholder the base lacks (an error of the message
 * checks). The "changed" push sends every base string again with other words and the same
 * placeholders (a copy edit of the whole app).
 *
 * Knobs: SCALE_KEYS (100000), SCALE_LANGUAGES (50), SCALE_ROUNDS (3: each read is timed this many
 * times, the median reported), SCALE_BROWSER (1; 0 skips Chromium), SCALE_KEEP (1 keeps the data dir).
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { launchBrowser, openPage } from "../../test/dashboard/browser.ts";
import { DashboardClient } from "../../test/helpers/dashboard-client.ts";
import { startServer, tempDir } from "../../test/helpers/server.ts";
import { keyName, scaleCodes, scaleFile } from "./scale-files.ts";

const BIN = process.env.PHRASEBOOK_BIN!;
const KEYS = Number(process.env.SCALE_KEYS ?? 100_000);
const LANGS = Number(process.env.SCALE_LANGUAGES ?? 50);
const ROUNDS = Number(process.env.SCALE_ROUNDS ?? 3);
const BROWSER = process.env.SCALE_BROWSER !== "0";

const codes = scaleCodes(LANGS);
const file = (language: number, edit = 0) => scaleFile(KEYS, language, edit);

const emit = (row: Record<string, unknown>) => console.log(JSON.stringify(row));
const seconds = (ms: number) => +(ms / 1000).toFixed(2);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const dataDir = tempDir("phrasebook-bench-scale-");
const work = tempDir("phrasebook-bench-scale-work-");
mkdirSync(join(work, "l10n"), { recursive: true });
mkdirSync(join(work, "out"), { recursive: true });
const server = await startServer({ dataDir, env: { PHRASEBOOK_LOG_REQUESTS: "false", PHRASEBOOK_RATE_LIMIT: "10000000" } });
const pid = server.proc.pid;

const status = (field: string) => Number(/(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith(field))!)![1]) / 1024;

/** Runs `during` while sampling the server's resident memory; its peak (from the kernel's high-water mark when it can be reset, else the samples). */
async function withPeak<T>(during: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let resettable = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    resettable = false;
  }
  let sampled = status("VmRSS:");
  let running = true;
  const sampler = (async () => {
    while (running) {
      sampled = Math.max(sampled, status("VmRSS:"));
      await Bun.sleep(50);
    }
  })();
  let result: T;
  try {
    result = await during();
  } finally {
    running = false;
    await sampler;
  }
  const peakMb = resettable ? Math.max(status("VmHWM:"), sampled) : sampled;
  return { result: result!, peakMb: Math.round(peakMb) };
}

async function client(args: string[], token: string): Promise<{ ms: number; stdout: string }> {
  const started = performance.now();
  const proc = Bun.spawn([BIN, ...args], {
    cwd: work,
    env: { PATH: process.env.PATH ?? "", HOME: work, PHRASEBOOK_SERVER: server.url, PHRASEBOOK_TOKEN: token, PHRASEBOOK_DATA_DIR: dataDir },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`phrasebook ${args.join(" ")} failed (${code}): ${stderr}${stdout}`);
  return { ms: performance.now() - started, stdout };
}

const browser = BROWSER ? await launchBrowser() : undefined;
try {
  const admin = await DashboardClient.loggedIn(server.url);
  const project = await admin.project("Scale", codes[0]!, codes.slice(1));
  const token = (await admin.post(`/projects/${project}/tokens`, { name: "CI", scopes: ["read", "write", "publish"] })).body.token as string;
  emit({ what: "setup", keys: KEYS, languages: LANGS, translations: KEYS * LANGS, load: readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ") });

  // 1. Push: the base file, then each other language's, one `phrasebook push` each.
  let started = performance.now();
  for (const [index, code] of codes.entries()) writeFileSync(join(work, "l10n", `${code}.json`), file(index));
  const largest = Math.max(...codes.map((code) => statSync(join(work, "l10n", `${code}.json`)).size));
  emit({ what: "files generated", seconds: seconds(performance.now() - started), base_mb: +(statSync(join(work, "l10n", "en.json")).size / 1048576).toFixed(1), largest_mb: +(largest / 1048576).toFixed(1) });
  if (largest > 10 * 1024 * 1024) throw new Error("a file is over the client's 10 MB limit: make the strings shorter");
  const base = await client(["push", "l10n/en.json", "--language", codes[0]!], token);
  emit({ what: "push new base", seconds: seconds(base.ms) });
  const others: number[] = [];
  for (const code of codes.slice(1)) others.push((await client(["push", `l10n/${code}.json`, "--language", code], token)).ms);
  emit({ what: "push each other language", median_seconds: seconds(median(others)), max_seconds: seconds(Math.max(...others)), total_seconds: seconds(others.reduce((a, b) => a + b, 0)) });

  // 2. A push of every base string changed (same placeholders, other words).
  writeFileSync(join(work, "l10n", "en.json"), file(0, 1));
  const changed = await withPeak(() => client(["push", "l10n/en.json", "--language", codes[0]!], token));
  emit({ what: "push changed base", seconds: seconds(changed.result.ms), peak_mb: changed.peakMb, result: changed.result.stdout.split("\n")[0] });

  // 3. Reads of the dashboard API, each timed ROUNDS times (the first is reported too: nothing cached).
  const shown = codes.slice(0, 4).join(",");
  const lastPage = Math.ceil(KEYS / 50);
  const one = keyName(KEYS - 9).split(".").pop()!;
  const reads: [string, string][] = [
    ["grid first page", `/projects/${project}/keys?page=1&page_size=50&languages=${shown}`],
    ["grid last page", `/projects/${project}/keys?page=${lastPage}&page_size=50&languages=${shown}`],
    [`grid search ${one}`, `/projects/${project}/keys?page=1&page_size=50&languages=${shown}&search=${one}`],
    ["grid search checkout payment", `/projects/${project}/keys?page=1&page_size=50&languages=${shown}&search=${encodeURIComponent("checkout payment")}`],
    ["grid search ß (one character)", `/projects/${project}/keys?page=1&page_size=50&languages=${shown}&search=${encodeURIComponent("ß")}`],
    ["filter problems (de)", `/projects/${project}/keys?page=1&page_size=50&languages=${shown}&status=problems&language=de`],
    ["filter problems (any language)", `/projects/${project}/keys?page=1&page_size=50&languages=${shown}&status=problems`],
    ["filter missing (de)", `/projects/${project}/keys?page=1&page_size=50&languages=${shown}&status=missing&language=de`],
    ["key counts (de)", `/projects/${project}/key-counts?language=de`],
    ["key counts (de) with a search", `/projects/${project}/key-counts?language=de&search=${encodeURIComponent("checkout payment")}`],
    ["GET /progress", `/projects/${project}/progress`],
    ["GET /problems", `/projects/${project}/problems`],
  ];
  for (const [what, path] of reads) {
    const times: number[] = [];
    let total: unknown;
    for (let round = 0; round < ROUNDS; round++) {
      const t0 = performance.now();
      const r = await admin.get(path);
      times.push(performance.now() - t0);
      if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
      total = r.body.page_info?.total_count ?? r.body.total ?? r.body.total_keys;
    }
    emit({ what, ms: Math.round(median(times)), first_ms: Math.round(times[0]!), total });
  }

  // 4. Publish (as an admin, with the errors the strings have: one value in 500 of each language),
  // then pull every language.
  const draft = (await admin.post(`/projects/${project}/releases`, { name: "Scale", tag: "v1" })).body.id as string;
  const published = await withPeak(async () => {
    const t0 = performance.now();
    const r = await admin.post(`/projects/${project}/releases/${draft}/publish`, { allow_errors: true });
    if (r.status !== 200) throw new Error(`publish: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    return { ms: performance.now() - t0 };
  });
  emit({ what: "publish", seconds: seconds(published.result.ms), peak_mb: published.peakMb });
  const pulled = await client(["pull", "--out", "out/{language}.json"], token);
  emit({ what: "pull", seconds: seconds(pulled.ms), languages: pulled.stdout.trim().split("\n").filter((l) => l.startsWith("wrote")).length });

  // 5. The key grid in Chromium: the page ready, then a search until its one match is drawn.
  if (browser) {
    const cookie = admin.cookie.split(";")[0]!.split("=");
    const tab = await openPage(browser, server);
    await tab.context.addCookies([{ name: cookie[0]!, value: cookie.slice(1).join("="), url: server.url }]);
    const ready: number[] = [];
    const settled: number[] = [];
    const search: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      ready.push((await firstPage(tab.page, `/dashboard/projects/${project}/keys`)).painted);
      // Every answer the page asked for in (progress, counts): network idle is 500 ms without a request.
      const t0 = performance.now();
      await tab.page.goto(`${server.url}/dashboard/projects/${project}/keys`, { waitUntil: "networkidle" });
      settled.push(performance.now() - t0 - 500);
      search.push((await change(tab.page, one)).painted);
      const rows = await tab.page.locator("tbody tr").count();
      if (round === 0) emit({ what: "chromium search rows", rows });
    }
    emit({ what: "chromium grid ready", ms: Math.round(median(ready)), settled_ms: Math.round(median(settled)) });
    emit({ what: "chromium search until its match", ms: Math.round(median(search)) });
    if (tab.problems.length) throw new Error(`the page misbehaved: ${tab.problems.join("; ")}`);
    await tab.context.close();
  }

  // 6. The database, then a backup of it.
  const size = (f: string) => (existsSync(join(dataDir, f)) ? statSync(join(dataDir, f)).size : 0);
  const tables = server.query<{ name: string; n: number }>(
    "SELECT 'outbox_events' AS name, count(*) AS n FROM outbox_events UNION ALL SELECT 'translation_history', count(*) FROM translation_history UNION ALL SELECT 'translations', count(*) FROM translations",
  );
  emit({ what: "database", db_mb: Math.round(size("phrasebook.db") / 1048576), wal_mb: Math.round(size("phrasebook.db-wal") / 1048576), rows: Object.fromEntries(tables.map((t) => [t.name, t.n])) });
  const tar = join(work, "backup.tar");
  const backup = await client(["backup", tar], token);
  emit({ what: "backup", seconds: seconds(backup.ms), mb: Math.round(statSync(tar).size / 1048576) });
} finally {
  await browser?.close();
  await server.stop();
  // SCALE_KEEP=1 leaves the data dir for profiling queries against it (its path goes to stderr).
  if (process.env.SCALE_KEEP === "1") console.error(`kept the data dir: ${dataDir}`);
  else rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}

/** Milliseconds from navigation start to the grid drawn and painted (bench/lib/editor-driver.ts's way). */
async function firstPage(page: Page, url: string): Promise<{ drawn: number; painted: number }> {
  await page.goto(url);
  return page.evaluate(
    () =>
      new Promise<{ drawn: number; painted: number }>((resolve) => {
        const done = (drawn: number) => requestAnimationFrame(() => setTimeout(() => resolve({ drawn, painted: performance.now() })));
        const mark = performance.getEntriesByName("keys-grid")[0];
        if (mark) return done(mark.startTime);
        const observer = new PerformanceObserver((list) => {
          const found = list.getEntries().find((e) => e.name === "keys-grid");
          if (found) {
            observer.disconnect();
            done(found.startTime);
          }
        });
        observer.observe({ type: "mark" });
      }),
  );
}

/** Milliseconds from Enter in the search box to the grid drawn with the answer, and painted. */
async function change(page: Page, term: string): Promise<{ drawn: number; painted: number }> {
  return page.evaluate(
    (term) =>
      new Promise<{ drawn: number; painted: number }>((resolve) => {
        let t0 = 0;
        const observer = new PerformanceObserver((list) => {
          const found = list.getEntries().find((e) => e.name === "keys-grid" && e.startTime > t0);
          if (!found) return;
          observer.disconnect();
          const drawn = found.startTime - t0;
          requestAnimationFrame(() => setTimeout(() => resolve({ drawn, painted: performance.now() - t0 })));
        });
        observer.observe({ type: "mark" });
        t0 = performance.now();
        const box = document.querySelector<HTMLInputElement>('input[type="search"][name="search"]')!;
        box.value = term;
        box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
      }),
    term,
  );
}
