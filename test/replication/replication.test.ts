/**
 * Release files beside the replica (docs/deploy.md "Continuous replication"): the app in-process
 * with PHRASEBOOK_REPLICA_URL set to a folder. Litestream itself is not started in-process (the
 * server starts it, test/replication/recovery.test.ts runs the whole drill); what is checked here is the
 * Phrasebook side: a publish copies its files with a manifest before the release is published,
 * refuses when the replica cannot be written, and the copies follow the releases.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ReplicaCopies } from "../../src/targets/replica.ts";
import { testApp, testDir } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { serverCommand } from "../helpers/server.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function replicaDir(): string {
  const dir = testDir("phrasebook-replica-");
  dirs.push(dir);
  return dir;
}

async function projectWithKeys(admin: DashboardClient): Promise<string> {
  const pid = await admin.project("Replicated", "en", ["de"]);
  for (let i = 0; i < 5; i++) await admin.key(pid, `key.${i}`, { en: `English ${i}`, de: `Deutsch ${i}` });
  return pid;
}

async function publish(admin: DashboardClient, pid: string, tag: string) {
  const rel = await admin.post(`/projects/${pid}/releases`, { name: tag, tag });
  return { id: rel.body.id as string, reply: await admin.post(`/projects/${pid}/releases/${rel.body.id}/publish`) };
}

describe("release files beside the replica", () => {
  test("a publish copies every file of the release and then its manifest, byte for byte", async () => {
    const replica = replicaDir();
    const app = await testApp({ env: { PHRASEBOOK_REPLICA_URL: replica } });
    try {
      const admin = await app.login();
      const pid = await projectWithKeys(admin);
      const { id, reply } = await publish(admin, pid, "v1");
      expect(reply.status).toBe(200);
      const copy = join(replica, "releases", id);
      const local = join(app.dataDir, "releases", id);
      const names = readdirSync(local).filter((n) => !n.startsWith(".") && !n.endsWith(".gz") && !n.endsWith(".br")).sort(); // not the folder's marker
      expect(names.length).toBe(6); // 2 languages x json, yaml, arb
      expect(readdirSync(copy).sort()).toEqual(["_manifest.json", ...names].sort());
      for (const name of names) expect(readFileSync(join(copy, name)).equals(readFileSync(join(local, name)))).toBe(true);
      const manifest = JSON.parse(readFileSync(join(copy, "_manifest.json"), "utf8"));
      expect(manifest.files.map((f: { name: string }) => f.name)).toEqual(names);
    } finally {
      await app.close();
    }
  });

  test("when the replica cannot be written the publish is refused with 503 and the release stays a draft", async () => {
    const replica = replicaDir();
    writeFileSync(join(replica, "releases"), "not a folder"); // every copy fails (ENOTDIR), even as root
    const app = await testApp({ env: { PHRASEBOOK_REPLICA_URL: replica } });
    try {
      const admin = await app.login();
      const pid = await projectWithKeys(admin);
      const { id, reply } = await publish(admin, pid, "v1");
      expect(reply.status).toBe(503);
      expect(reply.body.error).toContain("the replica cannot be written");
      expect(app.query<{ status: string }>("SELECT status FROM releases WHERE public_id = ?", id)[0]!.status).toBe("draft");
      expect(existsSync(join(app.dataDir, "releases", id))).toBe(false);

      // Once the replica is writable again, the same draft publishes.
      rmSync(join(replica, "releases"));
      expect((await admin.post(`/projects/${pid}/releases/${id}/publish`)).status).toBe(200);
      expect(existsSync(join(replica, "releases", id, "_manifest.json"))).toBe(true);
    } finally {
      await app.close();
    }
  });

  test("releases published before replication was on are copied at start; copies of deleted releases go after two passes", async () => {
    const dataDir = testDir("phrasebook-data-");
    dirs.push(dataDir);
    const before = await testApp({ dataDir });
    const admin = await before.login();
    const pid = await projectWithKeys(admin);
    const old = await publish(admin, pid, "v1");
    expect(old.reply.status).toBe(200);
    await before.close();

    const replica = replicaDir();
    const app = await testApp({ dataDir, env: { PHRASEBOOK_REPLICA_URL: replica } });
    try {
      const replication = app.deps.targets.target<ReplicaCopies>("replica")!;
      expect(await replication.catchUp()).toBe(1);
      expect(existsSync(join(replica, "releases", old.id, "_manifest.json"))).toBe(true);
      expect(await replication.catchUp()).toBe(0); // copied once

      const admin2 = await app.login();
      expect((await admin2.delete(`/projects/${pid}/releases/${old.id}`)).status).toBe(204);
      expect(await replication.prune()).toBe(0); // the replica's database may still name it
      expect(existsSync(join(replica, "releases", old.id))).toBe(true);
      expect(await replication.prune()).toBe(1);
      expect(existsSync(join(replica, "releases", old.id))).toBe(false);
    } finally {
      await app.close();
    }
  });
});

describe("phrasebook restore refuses what it cannot do, in one line", () => {
  async function restore(env: Record<string, string>) {
    const proc = Bun.spawn([...serverCommand(), "restore"], { env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { stdout, stderr, code };
  }

  test("without a replica, into a data dir that is not empty, or from a folder that holds no replica; serve without Litestream", async () => {
    const replica = replicaDir();
    const full = replicaDir();
    writeFileSync(join(full, "phrasebook.db"), "");
    const litestream = join(import.meta.dir, "..", "..", "node_modules", "@flydotio", "litestream-linux-x64", "litestream");

    expect(await restore({ PHRASEBOOK_DATA_DIR: join(replica, "x") })).toEqual({
      stdout: "",
      stderr: "phrasebook: restore needs the replica to restore from: set PHRASEBOOK_REPLICA_URL (or --replica-url)\n",
      code: 2,
    });
    expect(await restore({ PHRASEBOOK_DATA_DIR: full, PHRASEBOOK_REPLICA_URL: replica, PHRASEBOOK_LITESTREAM: litestream })).toEqual({
      stdout: "",
      stderr: `phrasebook: the data dir ${full} is not empty; restore into a new or empty folder (PHRASEBOOK_DATA_DIR or --data-dir)\n`,
      code: 2,
    });
    const target = join(replica, "new");
    const none = await restore({ PHRASEBOOK_DATA_DIR: target, PHRASEBOOK_REPLICA_URL: replica, PHRASEBOOK_LITESTREAM: litestream });
    expect(none.code).toBe(2);
    expect(none.stderr).toStartWith("phrasebook: litestream restore failed: no matching backups found");
    expect(existsSync(target)).toBe(false); // nothing half-restored is left
    // serve refuses to start without the executable that would replicate.
    const serve = Bun.spawn([...serverCommand(), "serve"], {
      env: { PATH: process.env.PATH ?? "", PHRASEBOOK_DATA_DIR: target, PHRASEBOOK_PORT: "0", PHRASEBOOK_REPLICA_URL: replica, PHRASEBOOK_LITESTREAM: "/nonexistent/litestream" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [serveErr, serveCode] = await Promise.all([new Response(serve.stderr).text(), serve.exited]);
    expect({ serveErr, serveCode }).toEqual({
      serveErr: 'phrasebook: PHRASEBOOK_LITESTREAM: cannot find the litestream executable "/nonexistent/litestream"; install it (docs/deploy.md "Continuous replication") or set PHRASEBOOK_LITESTREAM to its path\n',
      serveCode: 2,
    });
    expect(existsSync(target)).toBe(false);
    expect(await restore({ PHRASEBOOK_DATA_DIR: target, PHRASEBOOK_REPLICA_URL: "relative/path" })).toMatchObject({
      stderr: 'phrasebook: PHRASEBOOK_REPLICA_URL: must be an absolute folder path or s3://bucket/path (got "relative/path")\n',
      code: 2,
    });
  });
});
