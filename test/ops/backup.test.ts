/**
 * `phrasebook backup FILE` (product §1, docs/deploy.md "Backups"): the real CLI command, run as its own process against the
 * data dir of an app that keeps writing meanwhile; the archive is unpacked the documented way and
 * the restored data dir opened by the app in-process.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { serverCommand, tempDir } from "../helpers/server.ts";
import { eventually } from "../helpers/wait.ts";

async function run(args: string[], env: Record<string, string>) {
  const proc = Bun.spawn([...serverCommand(), ...args], { env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

let live: TestApp;
let admin: DashboardClient;
let pid: string;
let publishedId: string;
let cdnUrls: string[];
const work = tempDir("phrasebook-backup-");

beforeAll(async () => {
  // The sender runs, so the outbox turns into deliveries; their receiver's address is refused and
  // the next attempt is an hour away on a clock that stands still, so they stay pending.
  live = await testApp({ webhooks: true, env: { PHRASEBOOK_WEBHOOK_RETRY_DELAYS: "3600,3600,3600,3600" } });
  admin = await live.login();
  pid = await admin.project("Backed up", "en", ["de", "pt-BR"]);
  for (let i = 0; i < 20; i++) await admin.key(pid, `key.${i}`, { en: `English ${i}`, de: `Deutsch ${i}`, "pt-BR": `Português ${i}` });
  const rel = await admin.post(`/projects/${pid}/releases`, { name: "One", tag: "v1" });
  const pub = await admin.post(`/projects/${pid}/releases/${rel.body.id}/publish`);
  expect(pub.status).toBe(200);
  publishedId = rel.body.id;
  cdnUrls = pub.body.languages.flatMap((l: any) => Object.values(l.download_urls) as string[]);
  await admin.post(`/projects/${pid}/releases`, { name: "Draft", tag: "v2" });
  const hook = await admin.post(`/projects/${pid}/webhooks`, { url: "https://127.0.0.1:9/hook", events: ["key_created"] });
  expect(hook.status).toBe(201);
  await admin.key(pid, "pending.event");
});

afterAll(async () => {
  await live.close();
  rmSync(work, { recursive: true, force: true });
});

describe("backup and restore", () => {
  test("a backup taken while the app runs and writes restores into an empty data dir with the same content", async () => {
    // Pending deliveries must exist before the backup.
    const pendingCount = () => live.query<{ n: number }>("SELECT count(*) AS n FROM deliveries WHERE status = 'pending'")[0]!.n;
    await eventually(() => pendingCount() > 0, { what: "a pending delivery" });
    const pendingBefore = live.query<{ public_id: string }>("SELECT public_id FROM deliveries WHERE status = 'pending' ORDER BY public_id");
    expect(pendingBefore.length).toBeGreaterThan(0);

    // Keep writing during the backup: the copy must still be consistent.
    const file = join(work, "phrasebook.tar");
    const backup = run(["backup", file], { PHRASEBOOK_DATA_DIR: live.dataDir });
    let writes = 0;
    let done = false;
    void backup.finally(() => (done = true));
    while (!done) {
      expect((await admin.post(`/projects/${pid}/keys`, { key: `during.${writes++}` })).status).toBe(201);
      await Bun.sleep(1);
    }
    const result = await backup;
    expect(writes).toBeGreaterThan(1); // the app really wrote while the backup ran
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("1 published release(s)");
    expect(readdirSync(work)).toEqual(["phrasebook.tar"]); // no scratch files left beside it

    const restored = join(work, "restored");
    mkdirSync(restored);
    expect(Bun.spawnSync(["tar", "-xf", file, "-C", restored]).exitCode).toBe(0);
    expect(existsSync(join(restored, "phrasebook.db"))).toBe(true);

    const copy = await testApp({ dataDir: restored });
    try {
      const c = await copy.login();
      const projects = (await c.get("/projects")).body.items;
      expect(projects.map((p: any) => p.id)).toEqual([pid]);
      const releases = (await c.get(`/projects/${pid}/releases`)).body.items.map((r: any) => [r.tag, r.status]);
      expect(releases).toEqual([["v2", "draft"], ["v1", "published"]]);
      const keys = (await c.get(`/projects/${pid}/keys?page_size=500`)).body.items.map((k: any) => k.key);
      for (let i = 0; i < 20; i++) expect(keys).toContain(`key.${i}`);
      // Keys written during the backup are in the copy as a prefix of what was written: a
      // consistent snapshot, never a hole.
      const during = keys.filter((k: string) => k.startsWith("during.")).map((k: string) => Number(k.slice(7))).sort((a: number, b: number) => a - b);
      expect(during).toEqual(during.map((_: number, i: number) => i));
      // The same files, byte for byte, at the same URLs (the slugs came along).
      for (const url of cdnUrls) {
        const original = await (await live.fetch(url)).arrayBuffer();
        const again = await (await copy.fetch(url)).arrayBuffer();
        expect(original.byteLength).toBeGreaterThan(0);
        expect(Buffer.from(again).equals(Buffer.from(original))).toBe(true);
      }
      const pendingAfter = copy.query<{ public_id: string }>("SELECT public_id FROM deliveries WHERE status = 'pending' ORDER BY public_id");
      expect(pendingAfter.map((d) => d.public_id)).toEqual(expect.arrayContaining(pendingBefore.map((d) => d.public_id)));
      expect(copy.query("SELECT public_id FROM releases WHERE public_id = ?", publishedId)).toHaveLength(1);
    } finally {
      await copy.close();
    }
  }, 60_000);

  test("bad backup targets are one clear line", async () => {
    const none = await run(["backup"], { PHRASEBOOK_DATA_DIR: live.dataDir });
    expect(none.code).toBe(2);
    expect(none.stderr).toStartWith("phrasebook: backup needs a FILE");
    const nowhere = await run(["backup", "/nonexistent/dir/x.tar"], { PHRASEBOOK_DATA_DIR: live.dataDir });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr.trim().split("\n")).toHaveLength(1);
    const empty = tempDir();
    const nodb = await run(["backup", join(work, "x.tar")], { PHRASEBOOK_DATA_DIR: empty });
    expect(nodb.code).toBe(2);
    expect(nodb.stderr).toBe(`phrasebook: no Phrasebook database in ${empty}\n`);
    rmSync(empty, { recursive: true, force: true });
  });
});
