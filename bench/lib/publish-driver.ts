/**
 * Publish benchmark driver (docs/publishing.md §7): fills a project with KEYS keys x LANGS
 * languages through the import API, restarts the server per round, resets its peak-memory counter
 * right before the publish, publishes, and reports wall time and the server's peak RSS (VmHWM)
 * during the publish, as JSON lines. The baseline in the same round is the disk floor: writing and
 * flushing the same files again, uncompiled.
 */

/** The same IO as a publish without the snapshot and the compilers: every file written and fsync'd. */
async function rewriteBaseline(releaseDir: string): Promise<number> {
  const target = tempDir("phrasebook-bench-floor-");
  try {
    const files = readdirSync(releaseDir).filter((f) => /\.(json|yaml|arb)$/.test(f));
    const contents = files.map((f) => readFileSync(join(releaseDir, f)));
    const started = performance.now();
    mkdirSync(join(target, "r"));
    for (let i = 0; i < files.length; i += 3) {
      await Promise.all(files.slice(i, i + 3).map((f, j) => writeDurable(join(target, "r", f), contents[i + j]!)));
    }
    return (performance.now() - started) / 1000;
  } finally {
    rmSync(target, { recursive: true, force: true });
  }
}
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeDurable } from "../../src/bundles/files.ts";
import { DashboardClient } from "../../test/helpers/dashboard-client.ts";
import { startServer, tempDir, type TestServer } from "../../test/helpers/server.ts";

const KEYS = Number(process.env.BENCH_KEYS ?? 10_000);
const LANGS = Number(process.env.BENCH_LANGS ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CPU = process.env.BENCH_SERVER_CPU;

const CODES = ["en", "de", "fr", "es", "it", "nl", "pl", "pt", "pt-BR", "sv", "da", "fi", "nb", "cs", "sk", "hu", "ro", "bg", "el", "tr", "ru", "uk", "ja", "ko", "zh-Hans", "zh-Hant", "ar", "he", "hi", "th", "vi", "id", "ms", "lt", "lv", "et"];

function kib(status: string, field: string): number {
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
}

/** User + system CPU seconds the server process has used (all its threads). */
function cpuSeconds(server: TestServer): number {
  const fields = readFileSync(`/proc/${server.proc.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}
const CLOCK_TICKS_PER_SECOND = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

function memory(server: TestServer): { rss_mb: number; peak_mb: number } {
  const status = readFileSync(`/proc/${server.proc.pid}/status`, "utf8");
  return { rss_mb: Math.round(kib(status, "VmRSS") / 1024), peak_mb: Math.round(kib(status, "VmHWM") / 1024) };
}

function bundle(code: string): string {
  const words = ["account", "settings", "save", "cancel", "your", "order", "was", "shipped", "please", "try", "again", "later"];
  const out: Record<string, string> = {};
  for (let i = 0; i < KEYS; i++) {
    const text = Array.from({ length: 5 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(" ");
    out[`screen${i % 60}.section${i % 9}.label_${i}`] = i % 10 === 0 ? `${code}: {count} ${text}` : `${code}: ${text}`;
  }
  return JSON.stringify(out);
}

async function boot(dataDir: string): Promise<TestServer> {
  const server = await startServer({ dataDir, env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
  if (CPU) Bun.spawnSync(["taskset", "-a", "-p", "-c", CPU, String(server.proc.pid)]);
  return server;
}

const dataDir = tempDir("phrasebook-bench-publish-");
try {
  let server = await boot(dataDir);
  let admin = await DashboardClient.loggedIn(server.url);
  const codes = CODES.slice(0, LANGS);
  const pid = await admin.project("Bench", codes[0]!, codes.slice(1));
  const importStarted = performance.now();
  for (const code of codes) {
    const r = await admin.post(`/projects/${pid}/import`, { language_code: code, format: "json", content: bundle(code) });
    if (r.status !== 200) throw new Error(`import ${code}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const importSeconds = (performance.now() - importStarted) / 1000;
  console.log(JSON.stringify({ import_seconds_per_language: Number((importSeconds / codes.length).toFixed(3)) }));
  for (let round = 1; round <= ROUNDS; round++) {
    await server.stop();
    server = await boot(dataDir);
    admin = await DashboardClient.loggedIn(server.url);
    const draft = await admin.post(`/projects/${pid}/releases`, { name: `Bench ${round}`, tag: `bench-${round}` });
    const idle = memory(server); // includes the login's argon2 hashing, which allocates 64 MB
    // Linux: writing 5 to clear_refs resets VmHWM, so the peak read below belongs to the publish.
    let peakReset = true;
    try {
      writeFileSync(`/proc/${server.proc.pid}/clear_refs`, "5");
    } catch {
      peakReset = false;
    }
    const cpuBefore = cpuSeconds(server);
    const started = performance.now();
    const published = await admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`);
    const seconds = (performance.now() - started) / 1000;
    if (published.status !== 200) throw new Error(`publish: ${published.status} ${JSON.stringify(published.body)}`);
    const after = memory(server);
    const cpu = cpuSeconds(server) - cpuBefore;
    const floor = await rewriteBaseline(join(dataDir, "releases", published.body.id));
    console.log(
      JSON.stringify({
        round,
        keys: KEYS,
        languages: LANGS,
        publish_seconds: Number(seconds.toFixed(3)),
        publish_cpu_seconds: Number(cpu.toFixed(2)),
        baseline_write_seconds: Number(floor.toFixed(3)),
        rss_before_mb: idle.rss_mb,
        peak_before_mb: idle.peak_mb,
        peak_rss_mb: after.peak_mb,
        peak_reset: peakReset,
      }),
    );
  }
  await server.stop();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
