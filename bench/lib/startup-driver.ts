/**
 * Times the start of executables for bench/startup.bench.sh (docs/architecture.md "Start-up").
 * Usage: bun startup-driver.ts <rounds> <spec json>, where the spec is
 * `{ cases: [{ name, kind: "exit" | "healthz", argv, env?, dataDir?: "fresh" | <path> }], ... }`.
 *
 * "exit": from spawn to the process's exit (a client command). "healthz": from spawn to the first
 * 200 from GET /healthz (polled every 1 ms; a refused connection is answered at once), then SIGTERM
 * and wait. Beside the wall time, the CPU time the process used until then (all its threads).
 * Every round runs every case once, in an order that rotates between rounds, so a busy
 * moment of the shared machine is spread over all of them. Prints one JSON line per measurement.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface Case {
  name: string;
  kind: "exit" | "healthz";
  argv: string[];
  env?: Record<string, string>;
  /** "fresh": a new empty data dir every round; a path: that data dir every round. */
  dataDir?: string;
}

const [roundsArg, specArg] = process.argv.slice(2);
if (!roundsArg || !specArg) throw new Error("usage: startup-driver.ts <rounds> <spec json>");
const rounds = Number(roundsArg);
const { cases } = JSON.parse(specArg) as { cases: Case[] };

let nextPort = 20000 + (process.pid % 20000);
const port = () => (nextPort = nextPort >= 65000 ? 20000 : nextPort + 1);

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** CPU time of every thread of a live process so far (ns precision, from the scheduler), in ms. */
function cpuMs(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns / 1e6;
}

async function measure(c: Case): Promise<{ ms: number; cpuMs: number }> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ...c.env };
  let fresh: string | undefined;
  if (c.dataDir === "fresh") env.PHRASEBOOK_DATA_DIR = fresh = mkdtempSync(join(tmpdir(), "phrasebook-startup-"));
  else if (c.dataDir) env.PHRASEBOOK_DATA_DIR = c.dataDir;
  const p = port();
  env.PHRASEBOOK_PORT = String(p);
  env.PHRASEBOOK_HOST = "127.0.0.1";
  try {
    const started = performance.now();
    const child = Bun.spawn(c.argv, { env, stdout: "ignore", stderr: "pipe" });
    if (c.kind === "exit") {
      await child.exited;
      const ms = performance.now() - started;
      const usage = child.resourceUsage();
      return { ms, cpuMs: usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1000 : NaN };
    }
    const url = `http://127.0.0.1:${p}/healthz`;
    for (;;) {
      if (await healthy(url)) break;
      if (child.exitCode !== null) throw new Error(`${c.name} exited with ${child.exitCode}: ${await new Response(child.stderr).text()}`);
      await Bun.sleep(1);
    }
    const elapsed = performance.now() - started;
    const cpu = cpuMs(child.pid);
    child.kill("SIGTERM");
    await child.exited;
    return { ms: elapsed, cpuMs: cpu };
  } finally {
    if (fresh) rmSync(fresh, { recursive: true, force: true });
  }
}

for (let round = 0; round < rounds; round++) {
  const order = cases.map((_, i) => cases[(i + round) % cases.length]!);
  for (const c of order) {
    const { ms, cpuMs } = await measure(c);
    console.log(JSON.stringify({ case: c.name, round, ms: Math.round(ms * 100) / 100, cpu_ms: Math.round(cpuMs * 100) / 100 }));
  }
}
