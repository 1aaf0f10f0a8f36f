/**
 * Pull on its own, against a data dir kept by `SCALE_KEEP=1 bash bench/scale.bench.sh`: the
 * compiled server on it, a new release published, then `phrasebook pull` of every language
 * (each file's first request, as in the scale benchmark), timed; and the server's CPU time.
 * Usage: bun bench/lib/pull-probe.ts DATA_DIR
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DashboardClient } from "../../test/helpers/dashboard-client.ts";
import { startServer, tempDir } from "../../test/helpers/server.ts";

const BIN = process.env.PHRASEBOOK_BIN ?? "dist/phrasebook";
const dataDir = process.argv[2]!;
const work = tempDir("phrasebook-pull-probe-");
mkdirSync(join(work, "out"));
const server = await startServer({ dataDir, env: { PHRASEBOOK_LOG_REQUESTS: "false", PHRASEBOOK_RATE_LIMIT: "10000000", ...(process.env.PROF_DIR ? { BUN_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.PROF_DIR}` } : {}) } });
const cpu = () => readFileSync(`/proc/${server.proc.pid}/stat`, "utf8").split(") ")[1]!.split(" ").slice(11, 13).map(Number);
try {
  const admin = await DashboardClient.loggedIn(server.url);
  const project = (await admin.get("/projects")).body.items[0].id as string;
  const token = (await admin.post(`/projects/${project}/tokens`, { name: `probe ${Date.now()}`, scopes: ["read"] })).body.token as string;
  const tag = `probe-${Date.now()}`;
  const draft = (await admin.post(`/projects/${project}/releases`, { name: tag, tag })).body.id as string;
  const t0 = performance.now();
  const published = await admin.post(`/projects/${project}/releases/${draft}/publish`, { allow_errors: true });
  console.log("publish", published.status, Math.round(performance.now() - t0), "ms");
  const [u0, s0] = cpu();
  const t1 = performance.now();
  const proc = Bun.spawn([BIN, "pull", "--out", "out/{language}.json"], { cwd: work, env: { PATH: process.env.PATH ?? "", HOME: work, PHRASEBOOK_SERVER: server.url, PHRASEBOOK_TOKEN: token }, stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const [u1, s1] = cpu();
  const tick = 100; // clock ticks per second on Linux
  console.log("pull", Math.round(performance.now() - t1), "ms;", out.trim().split("\n").length, "lines; server cpu user", ((u1! - u0!) / tick).toFixed(2), "s sys", ((s1! - s0!) / tick).toFixed(2), "s");
  console.log("client", proc.resourceUsage?.() ? JSON.stringify({ user_s: Number(proc.resourceUsage()!.cpuTime.user) / 1e6, sys_s: Number(proc.resourceUsage()!.cpuTime.system) / 1e6, maxrss_mb: Math.round(proc.resourceUsage()!.maxRSS / 1024) }) : "");
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
