/**
 * Driver of bench/recovery.bench.sh (docs/deploy.md "Continuous replication", "Restore drill"):
 * the restore drill of test/replication/recovery.test.ts at a size, with its figures. One JSON line per
 * figure on stdout.
 *
 * 1. A project of BENCH_KEYS keys x BENCH_LANGS languages through the import API (bench/lib/editor-seed.ts).
 * 2. BENCH_WRITE_SECONDS of translation writes (2 writers) without and with PHRASEBOOK_REPLICA_URL
 *    (a folder), alternated twice: writes a second and the server's CPU per write, then a publish
 *    (with replication, its files are copied beside the replica before it is published); how long
 *    Litestream's first copy of the database takes.
 * 3. Writes go on; the server's process group is killed (SIGKILL) and the data dir deleted; the
 *    recovery point is the age at the kill of the oldest acknowledged write the restore lacks.
 * 4. `phrasebook restore`, timed; a server on the restored dir; every pinned file compared, every
 *    write acknowledged more than a second before the kill checked.
 */
import { readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { DashboardClient } from "../../test/helpers/dashboard-client.ts";
import { startServer, tempDir, type TestServer } from "../../test/helpers/server.ts";
import { seedEditorProject } from "./editor-seed.ts";
import { cpuSeconds } from "./proc.ts";

const BIN = process.env.PHRASEBOOK_BIN!;
const LITESTREAM = process.env.PHRASEBOOK_LITESTREAM!;
const KEYS = Number(process.env.BENCH_KEYS ?? 100_000);
const LANGS = Number(process.env.BENCH_LANGS ?? 10);
const WRITE_SECONDS = Number(process.env.BENCH_WRITE_SECONDS ?? 10);

const work = tempDir("phrasebook-bench-recovery-");
const dataDir = join(work, "data");
const replica = join(work, "replica");
const quiet = { PHRASEBOOK_LOG_REQUESTS: "false" };
const replicating = { ...quiet, PHRASEBOOK_REPLICA_URL: replica, PHRASEBOOK_LITESTREAM: LITESTREAM };
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

const report = (fields: Record<string, unknown>) => console.log(JSON.stringify(fields));

function du(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + du(join(path, name)), 0);
}

/** CPU seconds of the litestream process under the server (its guard's child). */
function litestreamCpu(serverPid: number): number {
  const children = (pid: number) => Bun.spawnSync(["ps", "-o", "pid=", "--ppid", String(pid)]).stdout.toString().split("\n").map((l) => Number(l.trim())).filter((n) => n > 0);
  for (const guard of children(serverPid)) {
    for (const pid of children(guard)) {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] === LITESTREAM) return cpuSeconds(pid);
    }
  }
  return 0;
}

/** The first project of a data dir given to the drill, as seeding would describe it. */
async function existingProject(admin: DashboardClient): Promise<{ pid: string; codes: string[]; keys: number; seconds: number }> {
  const project = (await admin.get("/projects")).body.items[0];
  const languages = (await admin.get(`/projects/${project.id}/languages`)).body.items as { code: string; is_base_language?: boolean }[];
  const keys = (await admin.get(`/projects/${project.id}/keys?page_size=1`)).body.page_info.total_count as number;
  // The base language first, as seeding orders them: the drill writes the second.
  const codes = [...languages.filter((l) => l.is_base_language), ...languages.filter((l) => !l.is_base_language)].map((l) => l.code);
  return { pid: project.id, codes, keys, seconds: 0 };
}

interface Ack {
  keyId: string;
  seq: number;
  at: number;
}

/** Two writers of translations of `keyIds`, until `stop()`; each acknowledged write recorded. */
function writeLoop(admin: DashboardClient, pid: string, keyIds: string[], code: string) {
  const acks: Ack[] = [];
  let seq = 0;
  let stopped = false;
  const writer = async () => {
    while (!stopped) {
      const n = ++seq;
      const keyId = keyIds[n % keyIds.length]!;
      const reply = await admin.put(`/projects/${pid}/keys/${keyId}/translations/${code}`, { value: `w${n}` }).catch(() => null);
      if (reply?.status === 200) acks.push({ keyId, seq: n, at: Date.now() });
    }
  };
  const running = Promise.all([writer(), writer()]);
  return {
    acks,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

// 1. Seed, without replication; or take the data dir BENCH_DATA_DIR names (moved here, and removed
// at the end like the rest): the one `SCALE_KEEP=1 bash bench/scale.bench.sh` leaves, 100,000 x 50.
const given = process.env.BENCH_DATA_DIR;
if (given) renameSync(given, dataDir);
let server = await startServer({ dataDir, env: quiet });
let admin = await DashboardClient.loggedIn(server.url);
const seeded: { pid: string; codes: string[]; keys?: number; seconds: number } = given ? await existingProject(admin) : await seedEditorProject(admin, KEYS, LANGS, 0);
const pid = seeded.pid;
const code = seeded.codes[1]!;
const page = await admin.get(`/projects/${pid}/keys?page_size=500&languages=${code}`);
const keyIds: string[] = page.body.items.map((k: { id: string }) => k.id);
report({ seeded: true, keys: seeded.keys ?? KEYS, languages: seeded.codes.length, translations: (seeded.keys ?? KEYS) * seeded.codes.length, seed_seconds: Number(seeded.seconds.toFixed(1)), db_bytes: du(join(dataDir, "phrasebook.db")) });
await server.stop();

/**
 * 2. Writes without and with replication, alternated twice on the same data dir (the machine is
 * shared: side by side in one run). The server's own CPU per write is what other load disturbs
 * least; Litestream's CPU is its own process's, counted apart.
 */
let live!: TestServer;
let pub!: { status: number; body: any };
for (const round of [1, 2]) {
  for (const replicated of [false, true]) {
    const started = performance.now();
    server = await startServer({ dataDir, env: replicated ? replicating : quiet, ownProcessGroup: true });
    if (replicated) {
      for (let i = 0; i < 6000 && !server.output().includes("wal segment written"); i++) await Bun.sleep(50);
      if (round === 1) report({ what: "start to the database's first copy in the replica", seconds: Number(((performance.now() - started) / 1000).toFixed(1)) });
    }
    admin = await DashboardClient.loggedIn(server.url);
    const cpuBefore = cpuSeconds(server.proc.pid);
    const loop = writeLoop(admin, pid, keyIds, code);
    await Bun.sleep(WRITE_SECONDS * 1000);
    await loop.stop();
    const cpu = cpuSeconds(server.proc.pid) - cpuBefore;
    const litestream = replicated ? litestreamCpu(server.proc.pid) : 0;
    report({
      what: replicated ? "writes with replication" : "writes without replication",
      round,
      per_second: Math.round(loop.acks.length / WRITE_SECONDS),
      server_cpu_us_per_write: Math.round((cpu * 1e6) / loop.acks.length),
      ...(replicated ? { litestream_cpu_seconds_total: Number(litestream.toFixed(2)) } : {}),
    });
    // A publish in each setting, side by side: with replication its files are copied beside the
    // replica before it is published.
    const publishStarted = performance.now();
    const rel = await admin.post(`/projects/${pid}/releases`, { name: `Bench ${round}${replicated ? "r" : ""}`, tag: `bench-${round}-${replicated}` });
    // As an admin, with what errors the strings have (the scale data has some by design).
    pub = await admin.post(`/projects/${pid}/releases/${rel.body.id}/publish`, { allow_errors: true });
    if (pub.status !== 200) throw new Error(`publish: ${pub.status} ${JSON.stringify(pub.body)}`);
    report({ what: replicated ? "publish, its files copied beside the replica" : "publish without replication", round, seconds: Number(((performance.now() - publishStarted) / 1000).toFixed(1)) });
    if (replicated && round === 2) live = server;
    else await server.stop();
  }
}

const pinned = new Map<string, Uint8Array>();
for (const lang of pub.body.languages) {
  for (const url of Object.values(lang.download_urls) as string[]) {
    const path = new URL(url).pathname;
    const res = await fetch(live.url + path, { headers: { "accept-encoding": "identity" } });
    pinned.set(path, new Uint8Array(await res.arrayBuffer()));
  }
}

// 3. Writes, then the machine is lost.
const loop = writeLoop(admin, pid, keyIds, code);
await Bun.sleep(WRITE_SECONDS * 1000);
const killAt = Date.now();
await live.kill("SIGKILL");
await loop.stop();
const dbBytes = du(join(dataDir, "phrasebook.db"));
rmSync(dataDir, { recursive: true, force: true });

// 4. Restore.
const restoreStarted = performance.now();
const restore = Bun.spawn([BIN, "restore"], { env: { PATH: process.env.PATH ?? "", PHRASEBOOK_DATA_DIR: dataDir, ...replicating }, stdout: "pipe", stderr: "pipe" });
const [out, err, exit] = await Promise.all([new Response(restore.stdout).text(), new Response(restore.stderr).text(), restore.exited]);
const restoreSeconds = (performance.now() - restoreStarted) / 1000;
if (exit !== 0) throw new Error(`restore failed: ${err}${out}`);
report({ what: "restore", seconds: Number(restoreSeconds.toFixed(1)), db_bytes: dbBytes, replica_bytes: du(replica), output: out.trim().split("\n")[0] });

const back = await startServer({ dataDir, env: quiet });
let same = 0;
for (const [path, body] of pinned) {
  const res = await fetch(back.url + path, { headers: { "accept-encoding": "identity" } });
  if (res.status === 200 && Buffer.from(await res.arrayBuffer()).equals(Buffer.from(body))) same++;
}
const restored = new Map<string, number>();
for (const row of back.query<{ key_id: string; value: string }>(
  "SELECT k.public_id AS key_id, t.value FROM translations t JOIN translation_keys k ON k.id = t.key_id JOIN languages l ON l.id = t.language_id WHERE l.code = ?",
  code,
)) {
  restored.set(row.key_id, row.value.startsWith("w") ? Number(row.value.slice(1)) : -1);
}
const lost = loop.acks.filter((a) => (restored.get(a.keyId) ?? -1) < a.seq);
report({
  what: "recovery point",
  acknowledged: loop.acks.length,
  lost: lost.length,
  lost_older_than_1s: lost.filter((a) => a.at <= killAt - 1000).length,
  recovery_point_ms: lost.length === 0 ? 0 : killAt - Math.min(...lost.map((a) => a.at)),
  pinned_files: pinned.size,
  pinned_same_bytes: same,
});
await back.stop();
process.exit(0);
