/**
 * Hostile files against the readers (docs/formats.md "Reading", docs/deploy.md "Security notes"):
 * each shape that once made a reader quadratic, imported through the dashboard API of one or more
 * compiled executables side by side, timed from the request to the answer, and a small import of
 * another project timed while the hostile one runs (does one import make another wait?).
 *
 *   PHRASEBOOK_BINS="old=/path/to/old/phrasebook new=dist/phrasebook" bun bench/hostile-files.bench.ts
 *
 * An answer that takes longer than BENCH_LIMIT_S (default 60) is cut off and reported as such.
 * Figures go to bench/RESULTS.md "Hostile files".
 */
import { join } from "node:path";
import { DashboardClient } from "../test/helpers/dashboard-client.ts";
import { startServer } from "../test/helpers/server.ts";

const BINS = (process.env.PHRASEBOOK_BINS ?? `new=${join(import.meta.dir, "..", "dist", "phrasebook")}`).split(/\s+/).filter(Boolean).map((pair) => {
  const at = pair.indexOf("=");
  return { name: pair.slice(0, at), bin: pair.slice(at + 1) };
});
const LIMIT_MS = Number(process.env.BENCH_LIMIT_S ?? 60) * 1000;

/** The shapes: a format, and content of about `bytes` made of one opener repeated. */
const SHAPES: { name: string; format: string; content: (bytes: number) => string; bytes: number }[] = [
  { name: "XLIFF, `<?` repeated", format: "xliff", bytes: 400_000, content: (n) => `<xliff version="1.2">${"<?".repeat(n / 2)}` },
  { name: "XLIFF, `<!--` repeated", format: "xliff", bytes: 400_000, content: (n) => `<xliff version="1.2">${"<!--".repeat(n / 4)}` },
  { name: "XLIFF, `<![CDATA[` repeated", format: "xliff", bytes: 400_000, content: (n) => `<xliff version="1.2">${"<![CDATA[".repeat(n / 9)}` },
  { name: "YAML, `&a ` repeated", format: "yaml", bytes: 240_000, content: (n) => "&a ".repeat(n / 3) },
  { name: "YAML, `{a: ` repeated", format: "yaml", bytes: 240_000, content: (n) => "{a: ".repeat(n / 4) },
  { name: "YAML, `a: |` lines", format: "yaml", bytes: 240_000, content: (n) => "a: |\n".repeat(n / 5) },
  { name: "JSON, `[` x 40,000", format: "json", bytes: 40_000, content: (n) => "[".repeat(n) },
];

interface Running {
  origin: string;
  stop(): Promise<void>;
  cookie: string;
  csrf: string;
}

async function start(bin: string): Promise<Running> {
  const server = await startServer({ bin, env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
  const admin = await DashboardClient.loggedIn(server.url);
  return { origin: server.url, cookie: admin.cookie, csrf: admin.csrf, stop: () => server.stop() };
}

async function api(s: Running, method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(`${s.origin}/dashboard/api${path}`, {
    method,
    signal,
    headers: { "content-type": "application/json", cookie: s.cookie, "x-csrf-token": s.csrf },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function project(s: Running, name: string): Promise<string> {
  return ((await (await api(s, "POST", "/projects", { name, base_language_code: "en" })).json()) as { id: string }).id;
}

/** Milliseconds to the answer (its status), or the limit when cut off. */
async function timed(run: (signal: AbortSignal) => Promise<Response>): Promise<{ ms: number; status: number | "cut off" }> {
  const started = performance.now();
  try {
    const res = await run(AbortSignal.timeout(LIMIT_MS));
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  } catch {
    return { ms: performance.now() - started, status: "cut off" };
  }
}

const fmt = (r: { ms: number; status: number | "cut off" }) => (r.status === "cut off" ? `> ${(LIMIT_MS / 1000).toFixed(0)} s (cut off)` : `${r.ms < 1000 ? `${r.ms.toFixed(0)} ms` : `${(r.ms / 1000).toFixed(1)} s`} (${r.status})`);

const rows: string[][] = [];
for (const { name, bin } of BINS) {
  const s = await start(bin);
  try {
    const hostile = await project(s, "Hostile");
    const other = await project(s, "Other");
    for (const shape of SHAPES) {
      const content = shape.content(shape.bytes);
      const attack = timed((signal) => api(s, "POST", `/projects/${hostile}/import`, { language_code: "en", format: shape.format, content }, signal));
      // Another project's 9-byte import, started while the hostile one is read.
      await Bun.sleep(100);
      const small = timed((signal) => api(s, "POST", `/projects/${other}/import`, { language_code: "en", format: "json", content: '{"a":"b"}' }, signal));
      const [a, b] = await Promise.all([attack, small]);
      rows.push([name, `${shape.name}, ${(content.length / 1000).toFixed(0)} KB`, fmt(a), fmt(b)]);
      console.error(rows.at(-1)!.join(" | "));
    }
  } finally {
    await s.stop();
  }
}

console.log("| build | file | its import answered in | another project's 9-byte import meanwhile |");
console.log("|---|---|---|---|");
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
