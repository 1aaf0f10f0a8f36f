/**
 * Publish benchmark driver (docs/publishing.md §7): fills a project with KEYS keys x LANGS
 * languages through the import API, restarts the server per round, resets its peak-memory counter
 * right before the publish, publishes, and reports wall time and the server's peak RSS (VmHWM)
 * during the publish, as JSON lines. The baseline in the same round is the disk floor: writing and
 * flushing the same files again, uncompiled.
 *
 * Message checks (docs/messages.md "Cost"): with BASELINE_BIN (an executable from before the
 * checks, built by bench/lib/baseline.sh) every round also publishes the same project with it, in
 * alternating order, so publish time with and without checks comes from the same run. After the
 * rounds the driver times, in its own process, the check pass of a publish beside the compile
 * pass over the same snapshot.
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
import { compileLanguage } from "../../src/formats/bundle.ts";
import { checkSnapshot } from "../../src/releases/checks.ts";
import { takeSnapshot } from "../../src/releases/snapshot.ts";
import { openDatabase } from "../../src/storage/db.ts";
import { DashboardClient } from "../../test/helpers/dashboard-client.ts";
import { startServer, tempDir, type TestServer } from "../../test/helpers/server.ts";
import { cpuSeconds } from "./proc.ts";

const KEYS = Number(process.env.BENCH_KEYS ?? 10_000);
const LANGS = Number(process.env.BENCH_LANGS ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CPU = process.env.BENCH_SERVER_CPU;
const BASELINE_BIN = process.env.BASELINE_BIN;

const CODES = ["en", "de", "fr", "es", "it", "nl", "pl", "pt", "pt-BR", "sv", "da", "fi", "nb", "cs", "sk", "hu", "ro", "bg", "el", "tr", "ru", "uk", "ja", "ko", "zh-Hans", "zh-Hant", "ar", "he", "hi", "th", "vi", "id", "ms", "lt", "lv", "et"];

function kib(status: string, field: string): number {
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
}


function memory(server: TestServer): { rss_mb: number; peak_mb: number } {
  const status = readFileSync(`/proc/${server.proc.pid}/status`, "utf8");
  return { rss_mb: Math.round(kib(status, "VmRSS") / 1024), peak_mb: Math.round(kib(status, "VmHWM") / 1024) };
}

function bundle(code: string): string {
  const words = ["account", "settings", "save", "cancel", "your", "order", "was", "shipped", "please", "try", "again", "later"];
  const out: Record<string, string> = {};
  for (let i = 0; i < KEYS; i++) {
    const text = Array.from({ length: 5 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(" ");
    // One value in ten has a placeholder and one in twenty a plural, as app strings do.
    out[`screen${i % 60}.section${i % 9}.label_${i}`] =
      i % 10 === 0 ? `${code}: {count} ${text}` : i % 20 === 5 ? `${code}: {count, plural, one {# ${text}} other {# ${text}s}}` : `${code}: ${text}`;
  }
  return JSON.stringify(out);
}

async function boot(dataDir: string, bin?: string): Promise<TestServer> {
  const saved = process.env.PHRASEBOOK_BIN;
  if (bin) process.env.PHRASEBOOK_BIN = bin;
  const server = await startServer({ dataDir, env: { PHRASEBOOK_LOG_REQUESTS: "false" } }).finally(() => {
    process.env.PHRASEBOOK_BIN = saved;
  });
  if (CPU) Bun.spawnSync(["taskset", "-a", "-p", "-c", CPU, String(server.proc.pid)]);
  return server;
}

/**
 * The check pass and the compile pass of a publish over the same snapshot, timed in this process
 * (CPU time, best of 3): what the checks add to the compilers' work, without the server's IO.
 */
async function passTimes(dir: string, projectPublicId: string) {
  const db = openDatabase(dir);
  try {
    const row = db.$client.query<{ id: number }, [string]>("SELECT id FROM projects WHERE public_id = ?").get(projectPublicId)!;
    const cpu = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1e6;
    };
    const best = async (fn: () => unknown) => {
      let min = Infinity;
      for (let i = 0; i < 3; i++) {
        const before = cpu();
        await fn();
        min = Math.min(min, cpu() - before);
      }
      return Number(min.toFixed(3));
    };
    const snapshot = takeSnapshot(db, row.id);
    const check_cpu_seconds = await best(() => checkSnapshot(snapshot));
    const compile_cpu_seconds = await best(() => snapshot.languages.forEach((l) => compileLanguage(snapshot, l, snapshot.syntax)));
    return { pass_times: true, check_cpu_seconds, compile_cpu_seconds };
  } finally {
    db.$client.close();
  }
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
  await server.stop();
  for (let round = 1; round <= ROUNDS; round++) {
    // With a baseline, which binary goes first alternates between rounds (disk and CPU caches).
    const sides: ("current" | "baseline")[] = BASELINE_BIN ? (round % 2 ? ["current", "baseline"] : ["baseline", "current"]) : ["current"];
    for (const side of sides) {
      server = await boot(dataDir, side === "baseline" ? BASELINE_BIN : undefined);
      admin = await DashboardClient.loggedIn(server.url);
      const draft = await admin.post(`/projects/${pid}/releases`, { name: `Bench ${round} ${side}`, tag: `bench-${round}-${side}` });
      const idle = memory(server); // includes the login's argon2 hashing, which allocates 64 MB
      // Linux: writing 5 to clear_refs resets VmHWM, so the peak read below belongs to the publish.
      let peakReset = true;
      try {
        writeFileSync(`/proc/${server.proc.pid}/clear_refs`, "5");
      } catch {
        peakReset = false;
      }
      const cpuBefore = cpuSeconds(server.proc.pid);
      const started = performance.now();
      const published = await admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`);
      const seconds = (performance.now() - started) / 1000;
      if (published.status !== 200) throw new Error(`publish (${side}): ${published.status} ${JSON.stringify(published.body)}`);
      const after = memory(server);
      const cpu = cpuSeconds(server.proc.pid) - cpuBefore;
      // A second publish on the same server: what a long-running server pays, its code warm.
      const again = await admin.post(`/projects/${pid}/releases`, { name: `Bench ${round} ${side} again`, tag: `bench-${round}-${side}-again` });
      const warmCpuBefore = cpuSeconds(server.proc.pid);
      const warmStarted = performance.now();
      const warm = await admin.post(`/projects/${pid}/releases/${again.body.id}/publish`);
      const warmSeconds = (performance.now() - warmStarted) / 1000;
      if (warm.status !== 200) throw new Error(`second publish (${side}): ${warm.status} ${JSON.stringify(warm.body)}`);
      const warmCpu = cpuSeconds(server.proc.pid) - warmCpuBefore;
      await server.stop();
      const floor = side === "current" ? await rewriteBaseline(join(dataDir, "releases", published.body.id)) : 0;
      console.log(
        JSON.stringify({
          round,
          side,
          keys: KEYS,
          languages: LANGS,
          publish_seconds: Number(seconds.toFixed(3)),
          publish_cpu_seconds: Number(cpu.toFixed(2)),
          warm_publish_seconds: Number(warmSeconds.toFixed(3)),
          warm_publish_cpu_seconds: Number(warmCpu.toFixed(2)),
          baseline_write_seconds: Number(floor.toFixed(3)),
          rss_before_mb: idle.rss_mb,
          peak_before_mb: idle.peak_mb,
          peak_rss_mb: after.peak_mb,
          peak_reset: peakReset,
        }),
      );
    }
  }
  console.log(JSON.stringify(await passTimes(dataDir, pid)));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
