/**
 * Faults with nothing lost (docs/deploy.md "When the disk fills up"): the server process runs on a
 * data dir on a small tmpfs that this test mounts, and the disk is then filled to the last byte.
 * Publishing, importing (on the request's thread and in a worker), editing keys and the backup
 * command each fail with a clear error; the database stays whole (integrity_check, every row as
 * before) and every published file is served byte for byte as before; once space is freed, each of
 * them succeeds again. Mounting needs root (or CAP_SYS_ADMIN): where that is impossible the test
 * is skipped and says why.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statfsSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ReleaseStaging } from "../../src/bundles/files.ts";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { serverCommand, startServer, type TestServer } from "../helpers/server.ts";

const TMPFS_MB = 24;
const mountPoint = mkdtempSync(join(tmpdir(), "phrasebook-full-disk-"));

function tryMount(): string | null {
  const result = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", `size=${TMPFS_MB}m,mode=0700`, "tmpfs", mountPoint], { stderr: "pipe" });
  if (result.exitCode === 0) return null;
  return `cannot mount a ${TMPFS_MB} MB tmpfs at ${mountPoint} (needs root or CAP_SYS_ADMIN): ${result.stderr.toString().trim() || `exit ${result.exitCode}`}`;
}

const skipReason = tryMount();
if (skipReason) console.warn(`test/faults/disk-full.test.ts skipped: ${skipReason}`);
const dataDir = join(mountPoint, "data");
const filler = join(mountPoint, "filler");

/** Fills the file system to its last byte with one file. */
function fillDisk(): void {
  const fd = openSync(filler, "a");
  try {
    for (const size of [1024 * 1024, 64 * 1024, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 0x61);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
      }
    }
  } finally {
    closeSync(fd);
  }
  expect(statfsSync(mountPoint).bavail).toBe(0);
}

function freeDisk(): void {
  rmSync(filler, { force: true });
}

/**
 * Folds the write-ahead log into the database file and truncates it, as a quiet server's
 * checkpoints do: then any write needs new space (a WAL with room left would take a few small
 * writes even on a full disk, which is fine, but proves nothing).
 */
function truncateWal(): void {
  const db = new Database(join(dataDir, "phrasebook.db"));
  try {
    expect(db.query("PRAGMA wal_checkpoint(TRUNCATE)").get()).toMatchObject({ busy: 0 });
  } finally {
    db.close();
  }
}

/** Everything the database holds that a failed write could have damaged, and its integrity. */
function databaseState(): { integrity: string; rows: Record<string, number>; values: string } {
  const db = new Database(join(dataDir, "phrasebook.db"), { readonly: true });
  try {
    const rows: Record<string, number> = {};
    for (const table of ["users", "projects", "languages", "translation_keys", "translations", "releases", "release_languages", "outbox_events", "translation_history"]) {
      rows[table] = (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    }
    const values = (db.query("SELECT group_concat(k.key || '=' || t.value, '|') AS v FROM translations t JOIN translation_keys k ON k.id = t.key_id").get() as { v: string }).v;
    const integrity = (db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
    return { integrity, rows, values };
  } finally {
    db.close();
  }
}

async function runBackup(file: string) {
  const proc = Bun.spawn([...serverCommand(), "backup", file], { env: { PATH: process.env.PATH ?? "", PHRASEBOOK_DATA_DIR: dataDir }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

const importBody = (prefix: string, n: number, pad = 0) => ({
  language_code: "en",
  format: "json",
  content: JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}.key_${i}`, `${prefix} value ${i}`.padEnd(pad, ".")]))),
});

let server: TestServer | undefined;
let admin: DashboardClient;
let pid: string;
let keyId: string;
let draftId: string;
let releaseId: string;
/** Every published file's URL and its bytes as first served. */
const published = new Map<string, Uint8Array<ArrayBuffer>>();

beforeAll(async () => {
  if (skipReason) return;
  mkdirSync(dataDir);
  server = await startServer({ dataDir, env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
  admin = await DashboardClient.loggedIn(server.url);
  pid = await admin.project("Full disk", "en", ["de", "fr"]);
  for (const code of ["en", "de", "fr"]) {
    const r = await admin.post(`/projects/${pid}/import`, { ...importBody("app", 300), language_code: code });
    expect(r.status).toBe(200);
  }
  keyId = (await admin.get(`/projects/${pid}/keys?search=app.key_1&page_size=1`)).body.items[0].id;
  const release = await admin.post(`/projects/${pid}/releases`, { name: "One", tag: "v1" });
  const pub = await admin.post(`/projects/${pid}/releases/${release.body.id}/publish`);
  expect(pub.status).toBe(200);
  // The files as written at publish, read from the disk: nothing has asked the CDN for them yet, so
  // their compressed copies are made (and fail to be stored) on the full disk.
  for (const language of pub.body.languages) {
    for (const [ext, url] of Object.entries(language.download_urls) as [string, string][]) {
      const bytes = new Uint8Array(readFileSync(join(dataDir, "releases", pub.body.id, `${language.code}.${ext}`)));
      published.set(url, bytes);
      published.set(url.replace(/\/r\/[^/]+\//, "/r/latest/"), bytes);
    }
  }
  releaseId = pub.body.id;
  draftId = (await admin.post(`/projects/${pid}/releases`, { name: "Two", tag: "v2" })).body.id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (!skipReason) Bun.spawnSync(["umount", "-l", mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Every published file, identity and compressed, answered as before (`latest` too, until a new publish). */
async function expectPublishedIntact(withLatest = true): Promise<void> {
  for (const [url, bytes] of published) {
    if (!withLatest && url.includes("/r/latest/")) continue;
    const plain = await fetch(url);
    expect(plain.status, url).toBe(200);
    expect(new Uint8Array(await plain.arrayBuffer())).toEqual(bytes);
    for (const encoding of ["gzip", "br"]) {
      const compressed = await fetch(url, { headers: { "accept-encoding": encoding } });
      expect(compressed.status, `${url} ${encoding}`).toBe(200);
      expect(new Uint8Array(await compressed.arrayBuffer())).toEqual(bytes); // fetch decodes it
    }
  }
}

function expectDiskFull(r: { status: number; body: any }, what: string): void {
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(507);
  expect(r.body.error).toBe("the server's disk is full: nothing was changed; free space on it and try again");
}

describe.skipIf(Boolean(skipReason))(`a full disk loses nothing (deploy.md "When the disk fills up")${skipReason ? ` [skipped: ${skipReason}]` : ""}`, () => {
  test("on a full disk, key edits, imports, publishing and the backup fail with a clear error; the database and every published file are intact", async () => {
    const before = databaseState();
    expect(before.integrity).toBe("ok");
    truncateWal();
    expect(readdirSync(join(dataDir, "releases", releaseId)).filter((f) => /\.(gz|br)$/.test(f))).toEqual([]);
    fillDisk();

    expectDiskFull(await admin.put(`/projects/${pid}/keys/${keyId}/translations/de`, { value: "Neuer Wert" }), "a translation edit");
    expectDiskFull(await admin.post(`/projects/${pid}/keys`, { key: "new.key" }), "a new key");
    expectDiskFull(await admin.patch(`/projects/${pid}/keys/${keyId}`, { context: "a context" }), "a key edit");
    expectDiskFull(await admin.post(`/projects/${pid}/import`, importBody("small", 50)), "a small import");
    expectDiskFull(await admin.post(`/projects/${pid}/releases/${draftId}/publish`), "a publish");

    const backupFile = join(mountPoint, "backup.tar");
    const b = await runBackup(backupFile);
    expect(b.code, b.stdout + b.stderr).toBe(2);
    expect(b.stderr.trim().split("\n")).toEqual([`phrasebook: cannot write ${backupFile}: the disk is full; nothing was written`]);
    expect(readdirSync(mountPoint).sort()).toEqual(["data", "filler"]); // no archive, no scratch folder

    expect((await fetch(`${server!.url}/healthz`)).status).toBe(200);
    expect((await admin.get(`/projects/${pid}/releases/${draftId}`)).body).toMatchObject({ status: "draft" });
    await expectPublishedIntact(); // compressed in memory, where the disk had no room for the copies
    expect(server!.output()).toContain('"msg":"could not store compressed bundle"');
    expect(server!.output()).toContain('"msg":"disk full"');
    expect(readdirSync(join(dataDir, "releases")).filter((e) => e.startsWith("."))).toEqual([]); // no staging left
    expect(readdirSync(join(dataDir, "releases", releaseId)).filter((f) => f.startsWith(".tmp-"))).toEqual([]); // no temporary file left
    expect(databaseState()).toEqual(before);
    expectDiskFull(await admin.post(`/projects/${pid}/import`, importBody("large", 2000, 70)), "a large import (in a worker)");
    expect(databaseState()).toEqual(before);
  }, 120_000);

  test("once space is freed, each of them succeeds again, and nothing written before is lost", async () => {
    freeDisk();
    const before = databaseState();
    expect((await admin.put(`/projects/${pid}/keys/${keyId}/translations/de`, { value: "Neuer Wert" })).status).toBe(200);
    expect((await admin.post(`/projects/${pid}/keys`, { key: "new.key" })).status).toBe(201);
    expect((await admin.patch(`/projects/${pid}/keys/${keyId}`, { context: "a context" })).status).toBe(200);
    expect((await admin.post(`/projects/${pid}/import`, importBody("small", 50))).body.created_keys).toBe(50);
    expect((await admin.post(`/projects/${pid}/import`, importBody("large", 2000, 70))).body.created_keys).toBe(2000);
    const pub = await admin.post(`/projects/${pid}/releases/${draftId}/publish`);
    expect(pub.status, JSON.stringify(pub.body)).toBe(200);
    const de = await (await fetch(pub.body.languages.find((l: any) => l.code === "de").download_urls.json)).json();
    expect(de["app.key_1"]).toBe("Neuer Wert");
    const backupFile = join(mountPoint, "backup.tar");
    const b = await runBackup(backupFile);
    expect(b.code, b.stdout + b.stderr + Bun.spawnSync(["du", "-a", mountPoint]).stdout.toString()).toBe(0);
    expect(existsSync(backupFile)).toBe(true);
    const after = databaseState();
    expect(after.integrity).toBe("ok");
    expect(after.rows.translation_keys).toBe(before.rows.translation_keys + 1 + 50 + 2000);
    await expectPublishedIntact(false);
  }, 120_000);

  test("a disk that fills while the write-ahead log still has room: a publish whose files do not fit leaves its draft ready to publish again", async () => {
    const draft = (await admin.post(`/projects/${pid}/releases`, { name: "Three", tag: "v3" })).body.id;
    const before = databaseState();
    fillDisk(); // the log keeps its room: small database writes may still fit, release files do not
    const failed = await admin.post(`/projects/${pid}/releases/${draft}/publish`);
    expectDiskFull(failed, "a publish");
    expect(server!.query("SELECT status, publishing_since FROM releases WHERE public_id = ?", draft)).toEqual([{ status: "draft", publishing_since: null }]);
    expect(readdirSync(join(dataDir, "releases")).filter((e) => e.startsWith(".") || e === draft)).toEqual([]);
    expect(databaseState().integrity).toBe("ok");
    freeDisk();
    expect((await admin.post(`/projects/${pid}/releases/${draft}/publish`)).status).toBe(200);
    expect(databaseState().rows.releases).toBe(before.rows.releases);
  }, 120_000);

  test("a staging folder whose first file (its marker) does not fit is removed, not left for good", async () => {
    const releases = join(dataDir, "releases");
    const staged = () => readdirSync(releases).filter((e) => e.startsWith("."));
    const before = staged();
    fillDisk();
    try {
      await expect(ReleaseStaging.create(dataDir, "rel_markerdoesnotfit")).rejects.toMatchObject({ code: "ENOSPC" });
      expect(staged()).toEqual(before);
    } finally {
      freeDisk();
    }
  });
});
