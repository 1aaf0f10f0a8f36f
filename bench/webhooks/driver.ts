/**
 * Webhook benchmark driver (docs/webhooks.md): deliveries per second from the real server to a
 * local HTTPS receiver that answers at once, alone and beside an endpoint that never answers, plus
 * the healthy endpoint's latency at a steady event rate. Runs pinned to its own core (the script
 * sees to it); the server it starts runs pinned to another. Prints a Markdown section for
 * bench/RESULTS.md.
 *
 * Burst: BURST events are written straight into the outbox in one transaction (so the load
 * generator costs the server nothing) and the sender's rate is first to last receipt.
 * Steady: RATE key creations per second through the dashboard API (the real path, wake-up
 * included), one second of warm-up, then STEADY_SECONDS measured; latency is from sending the API
 * request to receipt. DEBUG_LATENCY=1 prints latency per 250 ms and the server's CPU ticks.
 */
import { Database } from "bun:sqlite";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DashboardClient } from "../../test/helpers/dashboard-client.ts";
import { startReceiver, testCa } from "../../test/helpers/https-receiver.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, freePort, tempDir } from "../../test/helpers/server.ts";

const BIN = process.env.BIN!;
const SERVER_CPU = process.env.SERVER_CPU ?? "0";
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const BURST = Number(process.env.BURST ?? 5000);
const RATE = Number(process.env.RATE ?? 250);
const STEADY_SECONDS = Number(process.env.STEADY_SECONDS ?? 5);
const GOAL_PER_SECOND = 500;

type Scenario = "healthy alone" | "healthy beside a dead endpoint";
interface RoundResult {
  scenario: Scenario;
  burstPerSecond: number;
  burstFromInsertPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  deadRequests: number;
  apiP99: number;
}

const received = new Map<string, number>();
const healthy = await startReceiver({
  handler: (req) => {
    received.set(JSON.parse(req.body).data.key, performance.now());
    return new Response("ok");
  },
});
healthy.requests.length = 0;
const dead = await startReceiver({ handler: () => new Promise<Response>(() => {}) });

async function startServer(dataDir: string): Promise<{ url: string; proc: ReturnType<typeof Bun.spawn> }> {
  const port = await freePort();
  const proc = Bun.spawn(["taskset", "-c", SERVER_CPU, BIN, "serve"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PHRASEBOOK_HOST: "127.0.0.1",
      PHRASEBOOK_PORT: String(port),
      PHRASEBOOK_DATA_DIR: dataDir,
      PHRASEBOOK_PUBLIC_URL: `http://127.0.0.1:${port}`,
      PHRASEBOOK_ADMIN_EMAIL: ADMIN_EMAIL,
      PHRASEBOOK_ADMIN_PASSWORD: ADMIN_PASSWORD,
      PHRASEBOOK_LOG_REQUESTS: "false",
      PHRASEBOOK_WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
      NODE_EXTRA_CA_CERTS: testCa().caFile,
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, proc };
    } catch {
      // not up yet
    }
    await Bun.sleep(50);
  }
  throw new Error("server did not start");
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function waitForKeys(keys: string[], timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (keys.some((k) => !received.has(k))) {
    if (performance.now() > deadline) throw new Error(`only ${keys.filter((k) => received.has(k)).length} of ${keys.length} arrived`);
    await Bun.sleep(10);
  }
}

async function runRound(round: number, scenario: Scenario): Promise<RoundResult> {
  const tag = `r${round}${scenario === "healthy alone" ? "a" : "b"}`;
  const dataDir = tempDir("phrasebook-bench-");
  const server = await startServer(dataDir);
  try {
    const client = await DashboardClient.loggedIn(server.url);
    const pid = await client.project("Bench", "en");
    await client.post(`/projects/${pid}/webhooks`, { url: healthy.url(), events: ["key_created"], secret: "bench-secret" });
    if (scenario !== "healthy alone") await client.post(`/projects/${pid}/webhooks`, { url: dead.url(), events: ["key_created"], secret: "bench-secret" });
    const deadBefore = dead.requests.length;

    // Steady rate through the API.
    const sentAt = new Map<string, number>();
    const apiDone = new Map<string, number>();
    // One second of warm-up (JIT, connection pool) before the measured seconds.
    const warmupTicks = 50;
    const ticks = warmupTicks + STEADY_SECONDS * 50;
    const perTick = Math.max(1, Math.round(RATE / 50));
    const t0 = performance.now();
    const inflight: Promise<unknown>[] = [];
    const cpuSamples: string[] = [];
    const cpuTimer = process.env.DEBUG_LATENCY ? setInterval(() => {
      const f = readFileSync(`/proc/${server.proc.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      cpuSamples.push(`${Number(f[11]) + Number(f[12])}`);
    }, 250) : undefined;
    for (let tick = 0; tick < ticks; tick++) {
      for (let j = 0; j < perTick; j++) {
        const key = `${tag}.steady.${tick}.${j}`;
        const sent = performance.now();
        if (tick >= warmupTicks) sentAt.set(key, sent);
        inflight.push(client.post(`/projects/${pid}/keys`, { key }).then(() => apiDone.set(key, performance.now() - sent)));
      }
      const next = t0 + (tick + 1) * 20;
      await Bun.sleep(Math.max(0, next - performance.now()));
    }
    await Promise.all(inflight);
    clearInterval(cpuTimer);
    if (cpuSamples.length) console.error("server cpu ticks", cpuSamples.join(" "));
    await waitForKeys([...sentAt.keys()], 30_000);
    if (process.env.DEBUG_LATENCY) {
      const rows = [...sentAt].map(([k, t]) => [t - t0, received.get(k)! - t] as const);
      const buckets = new Map<number, number[]>();
      for (const [at, lat] of rows) buckets.set(Math.floor(at / 250), [...(buckets.get(Math.floor(at / 250)) ?? []), lat]);
      console.error([...buckets].map(([b, ls]) => `${b * 250}ms:max${Math.max(...ls).toFixed(0)}`).join(" "));
    }
    const latencies = [...sentAt].map(([k, t]) => received.get(k)! - t).sort((a, b) => a - b);
    const apiLatencies = [...apiDone.values()].sort((a, b) => a - b);

    // Burst straight into the outbox.
    const db = new Database(join(dataDir, "phrasebook.db"));
    db.run("PRAGMA busy_timeout = 5000");
    const projectId = (db.query("SELECT id FROM projects WHERE public_id = ?").get(pid) as { id: number }).id;
    const insert = db.prepare("INSERT INTO outbox_events (project_id, event, payload, created_at) VALUES (?, 'key_created', ?, ?)");
    const keys: string[] = [];
    const now = Date.now();
    db.transaction(() => {
      for (let i = 0; i < BURST; i++) {
        const key = `${tag}.burst.${i}`;
        keys.push(key);
        const envelope = { event: "key_created", event_version: 1, occurred_at: new Date(now).toISOString(), project_id: pid, data: { key, context: null } };
        insert.run(projectId, JSON.stringify(envelope), now);
      }
    })();
    db.close();
    const insertedAt = performance.now();
    await waitForKeys(keys, 120_000);
    const times = keys.map((k) => received.get(k)!).sort((a, b) => a - b);
    const first = times[0]!;
    const last = times.at(-1)!;
    return {
      scenario,
      burstPerSecond: BURST / ((last - first) / 1000),
      burstFromInsertPerSecond: BURST / ((last - insertedAt) / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1)!,
      deadRequests: dead.requests.length - deadBefore,
      apiP99: percentile(apiLatencies, 99),
    };
  } finally {
    server.proc.kill("SIGKILL");
    await server.proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results: RoundResult[][] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const pair = [await runRound(round, "healthy alone"), await runRound(round, "healthy beside a dead endpoint")];
  results.push(pair);
  for (const r of pair) {
    console.error(`round ${round} ${r.scenario}: burst ${r.burstPerSecond.toFixed(0)}/s (${r.burstFromInsertPerSecond.toFixed(0)}/s from insert), steady p50 ${r.p50.toFixed(1)} ms p99 ${r.p99.toFixed(1)} ms max ${r.max.toFixed(1)} ms, dead endpoint got ${r.deadRequests}; API p99 ${r.apiP99.toFixed(1)} ms`);
  }
}
await healthy.stop();
await dead.stop();

const row = (s: Scenario, i: number) => {
  const rs = results.map((p) => p[i]!);
  return `| ${s} | ${median(rs.map((r) => r.burstPerSecond)).toFixed(0)} | ${median(rs.map((r) => r.burstFromInsertPerSecond)).toFixed(0)} | ${median(rs.map((r) => r.p50)).toFixed(1)} | ${median(rs.map((r) => r.p99)).toFixed(1)} | ${median(rs.map((r) => r.deadRequests))} |`;
};
const ratio = (f: (r: RoundResult) => number) => median(results.map((p) => f(p[1]!) / f(p[0]!)));
const cpus = (await Bun.$`nproc --all`.text()).trim();
console.log(`## Webhook sending

Command: \`bash bench/webhooks.bench.sh\` (ROUNDS=${ROUNDS} BURST=${BURST} RATE=${RATE}/s STEADY_SECONDS=${STEADY_SECONDS});
server \`dist/phrasebook\` pinned to CPU ${SERVER_CPU}, receivers and load generator pinned to the other (${cpus} CPUs).
Each round starts a fresh server per scenario (interleaved: alone, beside dead, alone, ...). Deliveries are
signed (a secret is set), over HTTPS with keep-alive, to a Bun HTTPS receiver on 127.0.0.1 that answers 200 at once.
The dead endpoint accepts TLS and never answers (default 30 s timeout, so it holds its 32 connection slots throughout).
Burst: ${BURST} events written into the outbox in one transaction; rate = first to last receipt (and from the insert,
which includes up to one poll interval). Steady: ${RATE} key creations/s through the dashboard API for 1 s of warm-up, then ${STEADY_SECONDS} s measured;
latency = API request sent to receipt at the healthy receiver. Medians of ${ROUNDS} rounds.

| scenario | burst deliveries/s | from insert | steady p50 ms | steady p99 ms | requests to dead endpoint |
|---|---|---|---|---|---|
${row("healthy alone", 0)}
${row("healthy beside a dead endpoint", 1)}

Goal ${GOAL_PER_SECOND} deliveries/s. Beside-dead / alone, median of per-round ratios: burst rate ${ratio((r) => r.burstPerSecond).toFixed(2)},
steady p50 ${ratio((r) => r.p50).toFixed(2)}, steady p99 ${ratio((r) => r.p99).toFixed(2)}.
`);
process.exit(0);
