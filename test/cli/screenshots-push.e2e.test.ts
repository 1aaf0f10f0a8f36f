/**
 * `phrasebook screenshots push DIR` against the compiled executable's server (docs/translators.md
 * "Screenshots", docs/automation.md "screenshots push"): a folder of 100 images with their keys,
 * pushed, then pushed again changing nothing; the files the server refuses named; and the images
 * back after `phrasebook backup` and after a restore from the replica.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { ROOT, serverCommand, startServer, tempDir, type TestServer } from "../helpers/server.ts";
import { JPEG, PNG, pngOf, WEBP } from "../screenshots/images.ts";
import { clientBinary, deployment, phrasebook, type Deployment } from "./client.ts";

setDefaultTimeout(120_000);

const LITESTREAM = join(ROOT, "node_modules", "@flydotio", "litestream-linux-x64", "litestream");
let d: Deployment;
let dir: string;
const work = tempDir("phrasebook-shots-");
const servers: TestServer[] = [];

beforeAll(async () => {
  clientBinary();
  d = await deployment(["de"], { env: { PHRASEBOOK_REPLICA_URL: join(work, "replica"), PHRASEBOOK_LITESTREAM: LITESTREAM, PHRASEBOOK_REPLICA_SYNC_INTERVAL: "60" }, keepDataDir: true });
  for (let i = 0; i < 10; i++) await d.admin.key(d.pid, `screen.${i}.title`, { en: `Title ${i}` });
  dir = mkdtempSync(join(tmpdir(), "phrasebook-screens-"));
  for (let i = 0; i < 97; i++) {
    writeFileSync(join(dir, `screen-${String(i).padStart(3, "0")}.png`), pngOf(100 + i, 50 + i));
    if (i < 10) writeFileSync(join(dir, `screen-${String(i).padStart(3, "0")}.json`), JSON.stringify({ keys: [`screen.${i}.title`, { key: `screen.${(i + 1) % 10}.title`, box: { x: 0, y: 0, width: 10, height: 10 } }] }));
  }
  writeFileSync(join(dir, "cart.png"), PNG);
  writeFileSync(join(dir, "cart-photo.jpg"), JPEG);
  writeFileSync(join(dir, "cart-small.webp"), WEBP);
  writeFileSync(join(dir, "notes.txt"), "not an image");
});

afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => {});
  await d?.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

const run = (args: string[], cwd = dir) => phrasebook(args, { cwd, env: d.env });
const listed = async () => (await d.admin.get(`/projects/${d.pid}/screenshots`)).body.items as any[];

describe("automation: screenshots push", () => {
  test("100 images of a folder, with the keys of their NAME.json", async () => {
    const r = await run(["screenshots", "push", "."]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("screen-000.png: 100 x 50 uploaded, 2 keys set\n");
    expect(r.stdout).toEndWith("100 screenshots: 100 uploaded, 10 with new keys, 0 unchanged\n");
    const items = await listed();
    expect(items).toHaveLength(100);
    expect(items.find((s) => s.name === "screen-003").keys).toEqual([
      { key_id: expect.any(String), key: "screen.3.title", box: null },
      { key_id: expect.any(String), key: "screen.4.title", box: { x: 0, y: 0, width: 10, height: 10 } },
    ]);
    expect(items.find((s) => s.name === "cart-photo")).toMatchObject({ content_type: "image/jpeg", width: 320, height: 200 });
  });

  test("pushed again: nothing changes", async () => {
    const before = await listed();
    const r = await run(["screenshots", "push", "."]);
    expect(r.code).toBe(0);
    expect(r.stdout).toEndWith("100 screenshots: 0 uploaded, 0 with new keys, 100 unchanged\n");
    expect(await listed()).toEqual(before);
  });

  test("a file whose bytes are not what its extension says is refused by the server, named, exit 2", async () => {
    const bad = mkdtempSync(join(tmpdir(), "phrasebook-screens-bad-"));
    try {
      copyFileSync(join(dir, "cart-photo.jpg"), join(bad, "photo.png"));
      const r = await run(["screenshots", "push", bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`photo.png: 400 invalid image: sent as image/png but the bytes are image/jpeg`);
      writeFileSync(join(bad, "photo.png"), pngOf(100_000, 100_000));
      expect((await run(["screenshots", "push", bad])).stderr).toContain("100000 x 100000 pixels");
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });

  test("usage and local files: exit 1 with one line", async () => {
    expect(await run(["screenshots", "push"])).toMatchObject({ code: 1, stderr: "phrasebook: usage: phrasebook screenshots push DIR (see phrasebook screenshots --help)\n" });
    expect((await run(["screenshots", "push", "no-such-folder"])).stderr).toBe("phrasebook: no-such-folder: not a folder\n");
    const bad = mkdtempSync(join(tmpdir(), "phrasebook-screens-json-"));
    try {
      writeFileSync(join(bad, "a.png"), PNG);
      writeFileSync(join(bad, "a.json"), "{keys: [");
      const r = await run(["screenshots", "push", bad]);
      expect(r.code).toBe(1);
      expect(r.stderr).toStartWith(`phrasebook: ${join(bad, "a.json")}: not valid JSON`);
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });
});

describe("translators.md: screenshots are in backups and the replica", () => {
  const bytesOf = async (server: string, admin: DashboardClient, pid: string, name: string) => {
    const shot = (await admin.get(`/projects/${pid}/screenshots`)).body.items.find((s: any) => s.name === name);
    const res = await fetch(`${server}${new URL(shot.url).pathname}`, { headers: { cookie: admin.cookie } });
    return new Uint8Array(await res.arrayBuffer());
  };

  test("phrasebook backup: unpacked into an empty data dir, a server there serves the same images", async () => {
    const file = join(work, "backup.tar");
    const backup = Bun.spawn([...serverCommand(), "backup", file], { env: { PATH: process.env.PATH ?? "", PHRASEBOOK_DATA_DIR: d.server.dataDir }, stdout: "pipe", stderr: "pipe" });
    expect(await backup.exited).toBe(0);
    const restored = join(work, "from-backup");
    Bun.spawnSync(["mkdir", "-p", restored]);
    expect(Bun.spawnSync(["tar", "-xf", file, "-C", restored]).exitCode).toBe(0);
    const back = await startServer({ dataDir: restored, env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
    servers.push(back);
    const admin = await DashboardClient.loggedIn(back.url);
    expect(await bytesOf(back.url, admin, d.pid, "cart")).toEqual(PNG);
    expect(await bytesOf(back.url, admin, d.pid, "cart-small")).toEqual(WEBP);
  });

  test("phrasebook restore from the replica: the same images", async () => {
    await d.server.stop(); // SIGTERM: Litestream copies the last changes before it stops
    const restored = join(work, "from-replica");
    const restore = Bun.spawn([...serverCommand(), "restore"], {
      env: { PATH: process.env.PATH ?? "", PHRASEBOOK_DATA_DIR: restored, PHRASEBOOK_REPLICA_URL: join(work, "replica"), PHRASEBOOK_LITESTREAM: LITESTREAM },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await restore.exited).toBe(0);
    const back = await startServer({ dataDir: restored, env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
    servers.push(back);
    const admin = await DashboardClient.loggedIn(back.url);
    expect(await bytesOf(back.url, admin, d.pid, "cart-photo")).toEqual(JPEG);
    expect((await admin.get(`/projects/${d.pid}/screenshots`)).body.items).toHaveLength(100);
  });
});
