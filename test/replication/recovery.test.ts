/**
 * The restore drill of docs/deploy.md "Restore drill", run against the compiled executable
 * (docs/deploy.md "Continuous replication": a recovery point of a second):
 * translations are written and releases published without pause while the server replicates to a
 * folder; the server and every process it started are killed at one instant (SIGKILL to its
 * process group: the machine is lost) and the data dir deleted; `phrasebook restore` brings the
 * data dir back from the replica, and a new server on it answers every pinned URL with the same
 * bytes and holds every write acknowledged more than one second before the kill.
 *
 * The recovery point (the age, at the kill, of the oldest acknowledged write the restore lacks)
 * and the restore's duration are printed for bench/RESULTS.md "Recovery"; they are not asserted
 * on, only what was restored is.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { ROOT, serverCommand, startServer, tempDir, type TestServer } from "../helpers/server.ts";

const LITESTREAM = join(ROOT, "node_modules", "@flydotio", "litestream-linux-x64", "litestream");
const KEYS = 40;
const WRITE_SECONDS = 6;
const PUBLISH_EVERY_MS = 1500;

const work = tempDir("phrasebook-recovery-");
const dataDir = join(work, "data");
const replica = join(work, "replica");
const servers: TestServer[] = [];

afterAll(async () => {
  for (const s of servers) await s.kill().catch(() => {});
  rmSync(work, { recursive: true, force: true });
});

interface Ack {
  keyId: string;
  seq: number;
  at: number;
}

const seqOf = (value: string | undefined) => (value === undefined ? -1 : Number(value.slice(1)));

/** The path of a CDN URL: the restored server listens on another port. */
const pathOf = (url: string) => new URL(url).pathname;

async function bytes(base: string, path: string): Promise<{ status: number; body: Uint8Array }> {
  const res = await fetch(base + path, { headers: { "accept-encoding": "identity" } });
  return { status: res.status, body: new Uint8Array(await res.arrayBuffer()) };
}

test("the restore drill: killed mid-write with its data dir deleted, the server comes back from the replica with every pinned file and every write acknowledged a second before", async () => {
  expect(existsSync(LITESTREAM)).toBe(true);
  const replicating = { PHRASEBOOK_REPLICA_URL: replica, PHRASEBOOK_LITESTREAM: LITESTREAM, PHRASEBOOK_LOG_REQUESTS: "false" };
  const first = await startServer({ dataDir, env: replicating, ownProcessGroup: true });
  servers.push(first);
  const admin = await DashboardClient.loggedIn(first.url);
  const pid = await admin.project("Drill", "en", ["de"]);
  const keyIds: string[] = [];
  for (let i = 0; i < KEYS; i++) keyIds.push(await admin.key(pid, `drill.key_${i}`, { en: `English ${i}`, de: "w0" }));

  // Writers and publishes go on together until the kill. Each acknowledged write is recorded with
  // the time its answer arrived; each published release's pinned files with their bytes.
  const acks: Ack[] = [];
  const pinned = new Map<string, { body: Uint8Array; at: number }>(); // `at`: when its publish was acknowledged
  let seq = 0;
  let killed = false;
  const writer = async () => {
    while (!killed) {
      const n = ++seq;
      const keyId = keyIds[n % KEYS]!;
      const reply = await admin.put(`/projects/${pid}/keys/${keyId}/translations/de`, { value: `w${n}` }).catch(() => null);
      if (reply?.status === 200) acks.push({ keyId, seq: n, at: Date.now() });
    }
  };
  let tag = 0;
  const publishOnce = async () => {
    const rel = await admin.post(`/projects/${pid}/releases`, { name: `Drill ${++tag}`, tag: `d${tag}` }).catch(() => null);
    const pub = rel?.status === 201 ? await admin.post(`/projects/${pid}/releases/${rel.body.id}/publish`).catch(() => null) : null;
    if (pub?.status !== 200) return;
    const at = Date.now();
    for (const lang of pub.body.languages) {
      for (const url of Object.values(lang.download_urls) as string[]) {
        const got = await bytes(first.url, pathOf(url)).catch(() => null);
        if (got?.status === 200) pinned.set(pathOf(url), { body: got.body, at });
      }
    }
  };
  const publisher = async () => {
    while (!killed) {
      await Bun.sleep(PUBLISH_EVERY_MS);
      if (!killed) await publishOnce();
    }
  };
  await publishOnce(); // one release before the writes start, whatever the machine's load
  const running = [publisher(), writer(), writer()];
  await Bun.sleep(WRITE_SECONDS * 1000);

  const killAt = Date.now();
  await first.kill("SIGKILL"); // the server, Litestream and its guard, at once
  killed = true;
  await Promise.all(running);
  rmSync(dataDir, { recursive: true, force: true });
  expect(acks.length).toBeGreaterThan(20); // a busy machine manages a few dozen a second
  expect(pinned.size).toBeGreaterThanOrEqual(6); // one release or more, of 2 languages x 3 formats

  const started = performance.now();
  const restore = Bun.spawn([...serverCommand(), "restore"], {
    env: { PATH: process.env.PATH ?? "", PHRASEBOOK_DATA_DIR: dataDir, ...replicating },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(restore.stdout).text(), new Response(restore.stderr).text(), restore.exited]);
  const restoreMs = performance.now() - started;
  expect(err).toBe("");
  expect(code).toBe(0);
  expect(out).toContain(`restored ${dataDir} from ${replica}`);
  expect(out).not.toContain("mirror sync"); // no mirror, nothing to sync

  const second = await startServer({ dataDir, env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
  servers.push(second);

  // Every pinned URL of a release published more than a second before the kill answers the same
  // bytes; one published in the last second may be missing (404), never different.
  for (const [path, { body, at }] of pinned) {
    const got = await bytes(second.url, path);
    if (at > killAt - 1000 && got.status === 404) continue;
    expect({ path, status: got.status }).toEqual({ path, status: 200 });
    expect(Buffer.from(got.body).equals(Buffer.from(body))).toBe(true);
  }

  // Every write acknowledged more than a second before the kill is there (or a later one of the
  // same key).
  const restored = new Map<string, number>();
  for (const { key_id, value } of second.query<{ key_id: string; value: string }>(
    "SELECT k.public_id AS key_id, t.value FROM translations t JOIN translation_keys k ON k.id = t.key_id JOIN languages l ON l.id = t.language_id WHERE l.code = 'de'",
  )) {
    restored.set(key_id, seqOf(value));
  }
  const lost = acks.filter((a) => (restored.get(a.keyId) ?? -1) < a.seq);
  const lostOlderThanASecond = lost.filter((a) => a.at <= killAt - 1000);
  expect(lostOlderThanASecond).toEqual([]);

  const recoveryPointMs = lost.length === 0 ? 0 : killAt - Math.min(...lost.map((a) => a.at));
  console.log(
    `recovery drill: ${acks.length} acknowledged writes, ${pinned.size} pinned files; lost ${lost.length} write(s) acknowledged in the last ` +
      `${recoveryPointMs} ms before the kill; restore took ${Math.round(restoreMs)} ms`,
  );
});

/** The processes whose parent is `pid`, from /proc (a fresh Debian machine may have no `ps`). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) children.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** Alive and not a zombie waiting for a parent to collect it. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

test("Litestream does not outlive the server: killed alone with SIGKILL, the server takes its Litestream with it", async () => {
  const dir = join(work, "alone");
  const server = await startServer({
    dataDir: dir,
    env: { PHRASEBOOK_REPLICA_URL: join(work, "alone-replica"), PHRASEBOOK_LITESTREAM: LITESTREAM, PHRASEBOOK_LOG_REQUESTS: "false" },
    readyMessage: "replication started",
  });
  servers.push(server);
  const guard = childrenOf(server.proc.pid)[0]!;
  let litestream: number[] = [];
  for (let i = 0; i < 100 && litestream.length === 0; i++) {
    litestream = childrenOf(guard).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] === LITESTREAM);
    if (litestream.length === 0) await Bun.sleep(50);
  }
  expect(litestream.length).toBe(1);
  // Once its first copy is made Litestream is idle and writes no log line, so a closed pipe to
  // the dead server would not end it either (SIGPIPE): only the guard does.
  for (let i = 0; i < 200 && !server.output().includes("wal segment written"); i++) await Bun.sleep(50);
  expect(server.output()).toContain("wal segment written");
  await Bun.sleep(500);

  await server.kill("SIGKILL"); // the server process only
  let alive = true;
  for (let i = 0; i < 200 && alive; i++) {
    alive = running(litestream[0]!) || running(guard);
    if (alive) await Bun.sleep(50);
  }
  expect({ litestream: running(litestream[0]!), guard: running(guard) }).toEqual({ litestream: false, guard: false });
});

test("Litestream killed on its own is started again", async () => {
  const server = await startServer({
    dataDir: join(work, "restarted"),
    env: { PHRASEBOOK_REPLICA_URL: join(work, "restarted-replica"), PHRASEBOOK_LITESTREAM: LITESTREAM, PHRASEBOOK_LOG_REQUESTS: "false" },
    readyMessage: "replication started",
  });
  servers.push(server);
  const litestreamOf = async () => {
    for (let i = 0; i < 200; i++) {
      for (const guard of childrenOf(server.proc.pid)) {
        const found = childrenOf(guard).find((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] === LITESTREAM && running(pid));
        if (found) return found;
      }
      await Bun.sleep(50);
    }
    throw new Error("no litestream process under the server");
  };
  const before = await litestreamOf();
  process.kill(before, "SIGKILL");
  let after = before;
  for (let i = 0; i < 100 && after === before; i++) {
    await Bun.sleep(100);
    after = await litestreamOf().catch(() => before);
  }
  expect(after).not.toBe(before);
  for (let i = 0; i < 100 && !server.output().includes('"msg":"litestream stopped; restarting it"'); i++) await Bun.sleep(50);
  expect(server.output()).toContain('"msg":"litestream stopped; restarting it"');
  await server.stop();
});

test("a server stopped with SIGTERM copies its last changes before Litestream stops: a restore holds every write", async () => {
  const dir = join(work, "graceful");
  const replicaDir = join(work, "graceful-replica");
  // Litestream copies on its own only once a minute here, so the writes reach the replica only
  // through the copy it makes when it is stopped, after the server closed its database.
  const env = { PHRASEBOOK_REPLICA_URL: replicaDir, PHRASEBOOK_LITESTREAM: LITESTREAM, PHRASEBOOK_LOG_REQUESTS: "false", PHRASEBOOK_REPLICA_SYNC_INTERVAL: "60" };
  const server = await startServer({ dataDir: dir, env, keepDataDir: true });
  for (let i = 0; i < 200 && !server.output().includes("wal segment written"); i++) await Bun.sleep(50);
  servers.push(server);
  const admin = await DashboardClient.loggedIn(server.url);
  const pid = await admin.project("Graceful", "en", ["de"]);
  const keyId = await admin.key(pid, "graceful.key", { en: "English" });
  for (let i = 1; i <= 20; i++) expect((await admin.put(`/projects/${pid}/keys/${keyId}/translations/de`, { value: `w${i}` })).status).toBe(200);
  await server.stop(); // SIGTERM right after the last write was acknowledged
  expect(server.proc.exitCode).toBe(0);
  expect(server.output()).not.toContain("litestream stopped; restarting it");

  const restoredDir = join(work, "graceful-restored");
  const restore = Bun.spawn([...serverCommand(), "restore"], { env: { PATH: process.env.PATH ?? "", PHRASEBOOK_DATA_DIR: restoredDir, ...env }, stdout: "pipe", stderr: "pipe" });
  expect(await restore.exited).toBe(0);
  const back = await startServer({ dataDir: restoredDir, env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
  servers.push(back);
  expect(back.query<{ value: string }>("SELECT t.value FROM translations t JOIN languages l ON l.id = t.language_id WHERE l.code = 'de'")).toEqual([{ value: "w20" }]);
});
