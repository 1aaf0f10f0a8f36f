/**
 * Driver of bench/sync.bench.sh (docs/publishing.md §6 "Not holding up other requests"): the compiled
 * executable as the server (pinned to BENCH_SERVER_CPU) and as the client, a push of BENCH_KEYS keys
 * while a CDN file and a public API list are requested every BENCH_PROBE_MS, each answer timed. One
 * JSON line per round on stdout.
 *
 * Per round, on a new project: PROBE_IDLE_SECONDS of probing with nothing else running (the floor),
 * then `phrasebook push` of the file while probing, then a second push of the same file (nothing to
 * change). The server's CPU time (user + system, all its threads) is read from /proc before and after.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../test/helpers/server.ts";
import { cpuSeconds } from "./proc.ts";

const BIN = process.env.PHRASEBOOK_BIN!;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KEYS = Number(process.env.BENCH_KEYS ?? 50_000);
const PROBE_MS = Number(process.env.BENCH_PROBE_MS ?? 5);
const PROBE_IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 2);
const SERVER_CPU = process.env.BENCH_SERVER_CPU ?? "0";
const CLIENT_CPU = process.env.BENCH_CLIENT_CPU ?? "1";
const ADMIN = { email: "bench@example.test", password: "bench-password" };

const hasTaskset = Bun.spawnSync(["sh", "-c", "command -v taskset"]).exitCode === 0;
const pinned = (cpu: string, command: string[]) => (hasTaskset ? ["taskset", "-c", cpu, ...command] : command);

const dataDir = mkdtempSync(join(tmpdir(), "phrasebook-bench-sync-"));
const work = mkdtempSync(join(tmpdir(), "phrasebook-bench-sync-work-"));
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const server = Bun.spawn(pinned(SERVER_CPU, [BIN, "serve"]), {
  env: {
    PATH: process.env.PATH ?? "",
    PHRASEBOOK_HOST: "127.0.0.1",
    PHRASEBOOK_PORT: String(port),
    PHRASEBOOK_DATA_DIR: dataDir,
    PHRASEBOOK_PUBLIC_URL: origin,
    PHRASEBOOK_ADMIN_EMAIL: ADMIN.email,
    PHRASEBOOK_ADMIN_PASSWORD: ADMIN.password,
    PHRASEBOOK_LOG_REQUESTS: "false",
    // Every API list is computed, never a cache hit: the harder case.
    PHRASEBOOK_API_CACHE_TTL: "0",
    PHRASEBOOK_RATE_LIMIT: "10000000",
  },
  stdout: "ignore",
  stderr: "inherit",
});
process.on("exit", () => {
  server.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${origin}/healthz`)).ok) break;
  } catch {
    // not listening yet
  }
  if (i > 200) throw new Error("server did not start");
  await Bun.sleep(50);
}
// taskset execs the server, so the spawned pid is the server's.
const serverPid = server.pid;

let cookie = "";
let csrf = "";
async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${origin}/dashboard/api${path}`, {
    method,
    headers: { "content-type": "application/json", cookie, "x-csrf-token": csrf },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  if (res.headers.get("set-cookie")) cookie = res.headers.get("set-cookie")!.split(";")[0]!;
  return text ? JSON.parse(text) : null;
}
csrf = (await api("POST", "/login", ADMIN)).csrf_token;

const file = join(work, "app_en.arb");
writeFileSync(file, JSON.stringify(Object.fromEntries([["@@locale", "en"], ...Array.from({ length: KEYS }, (_, i) => [`screen${i % 500}Label${i}`, `Label number ${i} of the app, with a {name} placeholder`])]), null, 2));
const fileBytes = readFileSync(file).byteLength;

interface Probe {
  cdn: number[];
  api: number[];
  failures: number;
}

/** Requests the CDN file and the API list every PROBE_MS until `until` resolves; the latencies in ms. */
async function probe(cdnUrl: string, readToken: string, until: Promise<unknown>): Promise<Probe> {
  let done = false;
  void until.finally(() => (done = true));
  const out: Probe = { cdn: [], api: [], failures: 0 };
  const timed = async (url: string, headers: Record<string, string>, into: number[]) => {
    const started = performance.now();
    try {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (!res.ok) out.failures++;
    } catch {
      out.failures++;
    }
    into.push(performance.now() - started);
  };
  const inFlight: Promise<void>[] = [];
  while (!done) {
    inFlight.push(timed(cdnUrl, {}, out.cdn), timed(`${origin}/v1/releases`, { authorization: `Bearer ${readToken}` }, out.api));
    await Bun.sleep(PROBE_MS);
  }
  await Promise.all(inFlight);
  return out;
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { n: s.length, p50: +at(0.5).toFixed(2), p99: +at(0.99).toFixed(2), max: +(s[s.length - 1] ?? 0).toFixed(2) };
}

async function push(token: string): Promise<{ seconds: number; stdout: string }> {
  const started = performance.now();
  const proc = Bun.spawn(pinned(CLIENT_CPU, [BIN, "push", file]), {
    cwd: work,
    env: { PATH: process.env.PATH ?? "", PHRASEBOOK_SERVER: origin, PHRASEBOOK_TOKEN: token },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`push failed (${code}): ${stderr}`);
  return { seconds: (performance.now() - started) / 1000, stdout: stdout.trim() };
}

for (let round = 1; round <= ROUNDS; round++) {
  const project = await api("POST", "/projects", { name: `Sync ${round}`, base_language_code: "en" });
  const pid = project.id;
  await api("POST", `/projects/${pid}/keys`, { key: "hello" });
  const key = (await api("GET", `/projects/${pid}/keys`)).items[0];
  await api("PUT", `/projects/${pid}/keys/${key.id}/translations/en`, { value: "Hello" });
  for (let i = 0; i < 20; i++) {
    const draft = await api("POST", `/projects/${pid}/releases`, { name: `Release ${i}`, tag: `v${i}` });
    await api("POST", `/projects/${pid}/releases/${draft.id}/publish`);
  }
  const cdnUrl = `${origin}/cdn/p/${project.cdn_slug}/r/latest/en.json`;
  const readToken = (await api("POST", `/projects/${pid}/tokens`, { name: "app", scopes: ["read"] })).token;
  const writeToken = (await api("POST", `/projects/${pid}/tokens`, { name: "CI", scopes: ["write"] })).token;

  const idle = await probe(cdnUrl, readToken, Bun.sleep(PROBE_IDLE_SECONDS * 1000));
  const cpuBefore = cpuSeconds(serverPid);
  const pushing = push(writeToken);
  const during = await probe(cdnUrl, readToken, pushing);
  const first = await pushing;
  const cpuAfter = cpuSeconds(serverPid);
  const second = await push(writeToken);
  const cpuAfterSecond = cpuSeconds(serverPid);

  console.log(
    JSON.stringify({
      round,
      keys: KEYS,
      file_mb: +(fileBytes / 1024 / 1024).toFixed(2),
      push_seconds: +first.seconds.toFixed(2),
      push_result: first.stdout,
      server_cpu_seconds: +(cpuAfter - cpuBefore).toFixed(2),
      unchanged_push_seconds: +second.seconds.toFixed(2),
      unchanged_result: second.stdout,
      unchanged_server_cpu_seconds: +(cpuAfterSecond - cpuAfter).toFixed(2),
      idle: { cdn: stats(idle.cdn), api: stats(idle.api) },
      during: { cdn: stats(during.cdn), api: stats(during.api), failures: during.failures },
      probe_ms: PROBE_MS,
    }),
  );
}
process.exit(0);
