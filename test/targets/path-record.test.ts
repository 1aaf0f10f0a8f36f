/**
 * The path record (docs/architecture.md "Publish targets"): every action that changes what a CDN
 * path serves writes one ordered change, in its own transaction, saying enough on its own for a
 * target to replay it; a project's `sequence` grows by one with each.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import type { PathChange } from "../../src/changes/paths.ts";
import { pathOps } from "../../src/targets/cdn-paths.ts";
import { ManualClock, testApp, testDir } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { cdnFixture, projectSlug, publish, type CdnFixture } from "../helpers/releases.ts";

let f: CdnFixture;
let admin: DashboardClient;
let pid: string;

beforeAll(async () => {
  f = await cdnFixture();
  admin = f.admin;
  pid = await admin.project("Recorded", "en", ["de", "fr"]);
  await admin.key(pid, "greeting", { en: "Hello", de: "Hallo", fr: "Bonjour" });
});
afterAll(() => f.t.close());

interface Row {
  id: number;
  sequence: number;
  kind: string;
  change: PathChange;
}

function projectRowId(): number {
  return f.t.query<{ id: number }>("SELECT id FROM projects WHERE public_id = ?", pid)[0]!.id;
}

/** The changes recorded after `afterId`, oldest first. */
function recorded(afterId: number): Row[] {
  return f.t
    .query<{ id: number; sequence: number; kind: string; change: string }>("SELECT id, sequence, kind, change FROM path_changes WHERE project_id = ? AND id > ? ORDER BY id", projectRowId(), afterId)
    .map((r) => ({ ...r, change: JSON.parse(r.change) as PathChange }));
}

function lastId(): number {
  return f.t.query<{ id: number | null }>("SELECT max(id) AS id FROM path_changes")[0]!.id ?? 0;
}

function releaseSlug(id: string): string {
  return f.t.query<{ slug: string }>("SELECT slug FROM releases WHERE public_id = ?", id)[0]!.slug;
}

describe("the path record", () => {
  let v1: any;
  let v2: any;

  test("a publish records the release's files, then latest moving to it, under one sequence; the sequence counts from 1", async () => {
    const slug = await projectSlug(admin, pid);
    v1 = await publish(admin, pid, "v1");
    const rows = recorded(0);
    expect(rows.map((r) => [r.sequence, r.kind])).toEqual([
      [1, "release_published"],
      [1, "latest_moved"],
    ]);
    const ref = { id: v1.id, slug: releaseSlug(v1.id), languages: ["de", "en", "fr"], formats: ["json", "yaml", "arb"] };
    // Each with the manifest it writes: its sequence and the key that signs it (docs/delivery.md "Manifests").
    const manifest = (dir: string) => [{ dir: `p/${slug}/r/${dir}`, release: v1.id, release_slug: ref.slug, sequence: 1, key: 1 }];
    const keys = { project: pid, count: 1 };
    expect(rows[0]!.change).toEqual({ kind: "release_published", project_slug: slug, release: ref, manifests: manifest(ref.slug), keys });
    // `key.pub` moves with latest (docs/deploy.md "Purging the CDN in front"): latest's change names the key.
    expect(rows[1]!.change).toEqual({ kind: "latest_moved", project_slug: slug, release: ref, previous: null, manifests: manifest("latest"), keys });
    expect(pathOps(rows[0]!.change).filter((op) => op.path.includes("key"))).toEqual([
      { op: "put", path: `p/${slug}/keys/1.pub`, source: { kind: "key", project: pid, n: 1 }, moving: false },
    ]);
    expect(pathOps(rows[1]!.change).filter((op) => op.path.includes("key"))).toEqual([{ op: "put", path: `p/${slug}/key.pub`, source: { kind: "key", project: pid, n: 1 }, moving: true }]);
  });

  test("a release that does not ship a language moves latest with the previous release named, so its file can go", async () => {
    await admin.delete(`/projects/${pid}/languages/fr`);
    const before = lastId();
    v2 = await publish(admin, pid, "v2");
    const rows = recorded(before);
    expect(rows.map((r) => r.kind)).toEqual(["release_published", "latest_moved"]);
    const moved = rows[1]!.change as Extract<PathChange, { kind: "latest_moved" }>;
    expect(moved.release!.languages).toEqual(["de", "en"]);
    expect(moved.previous!.id).toBe(v1.id);
    expect(moved.previous!.languages).toEqual(["de", "en", "fr"]);
    expect(rows.map((r) => r.sequence)).toEqual([2, 2]);
  });

  test("channels: made, moved, rotated and deleted, each one change naming the channel's slug", async () => {
    const before = lastId();
    const made = await admin.put(`/projects/${pid}/channels/beta`, { release_id: v1.id });
    expect(made.status).toBe(201);
    const moved = await admin.put(`/projects/${pid}/channels/beta`, { release_id: v2.id });
    expect(moved.status).toBe(200);
    const rotated = await admin.post(`/projects/${pid}/channels/beta/rotate-slug`);
    expect(rotated.status).toBe(200);
    const rows = recorded(before);
    expect(rows.map((r) => [r.kind, (r.change as any).of ?? null])).toEqual([
      ["channel_moved", null],
      ["channel_moved", null],
      ["slug_rotated", "channel"],
    ]);
    const [first, second, third] = rows.map((r) => r.change as any);
    expect([first.release.id, first.previous]).toEqual([v1.id, null]);
    expect([second.release.id, second.previous.id]).toEqual([v2.id, v1.id]);
    expect(third.from).toBe(made.body.slug);
    expect(third.channel).toEqual({ name: "beta", slug: rotated.body.slug });

    const gone = lastId();
    expect((await admin.delete(`/projects/${pid}/channels/beta`)).status).toBe(204);
    const [deleted] = recorded(gone).map((r) => r.change as any);
    expect(deleted).toMatchObject({ kind: "channel_moved", channel: { name: "beta", slug: rotated.body.slug }, release: null });
    expect(deleted.previous.id).toBe(v2.id);
  });

  test("a release's new slug is recorded with the old one; latest does not move for it", async () => {
    const before = lastId();
    const old = releaseSlug(v2.id);
    expect((await admin.post(`/projects/${pid}/releases/${v2.id}/rotate-slug`)).status).toBe(200);
    const rows = recorded(before);
    expect(rows.map((r) => r.kind)).toEqual(["slug_rotated"]);
    expect(rows[0]!.change).toMatchObject({ of: "release", from: old, release: { id: v2.id, slug: releaseSlug(v2.id) } });
  });

  test("a project's new slug records everything it serves under the new slug, and the old slug", async () => {
    const old = await projectSlug(admin, pid);
    expect((await admin.put(`/projects/${pid}/channels/stable`, { release_id: v1.id })).status).toBe(201);
    const before = lastId();
    expect((await admin.post(`/projects/${pid}/rotate-slug`)).status).toBe(200);
    const [row] = recorded(before);
    const change = row!.change as Extract<PathChange, { kind: "slug_rotated"; of: "project" }>;
    expect(change.from).toBe(old);
    expect(change.project_slug).toBe(await projectSlug(admin, pid));
    expect(change.releases.map((r) => r.id)).toEqual([v1.id, v2.id]);
    expect(change.latest!.id).toBe(v2.id);
    expect(change.channels.map((c) => [c.name, c.release.id])).toEqual([["stable", v1.id]]);
  });

  test("deleting latest records the deletion, then latest moving back; deleting a draft records nothing", async () => {
    const draft = await admin.post(`/projects/${pid}/releases`, { name: "draft", tag: "d1" });
    const before = lastId();
    expect((await admin.delete(`/projects/${pid}/releases/${draft.body.id}`)).status).toBe(204);
    expect(recorded(before)).toEqual([]);

    expect((await admin.delete(`/projects/${pid}/releases/${v2.id}`)).status).toBe(204);
    const rows = recorded(before);
    expect(rows.map((r) => r.kind)).toEqual(["release_deleted", "latest_moved"]);
    expect((rows[0]!.change as any).release.id).toBe(v2.id);
    expect((rows[1]!.change as any).release.id).toBe(v1.id);
    expect((rows[1]!.change as any).previous.id).toBe(v2.id);
  });

  test("the sequence of a project grows by one with every action, never reused; an action's changes share it", () => {
    const rows = recorded(0);
    const distinct = [...new Set(rows.map((r) => r.sequence))];
    expect(distinct).toEqual(distinct.map((_, i) => i + 1));
    // Only latest_moved follows its action's first change under the same sequence.
    rows.forEach((r, i) => {
      if (i > 0 && r.sequence === rows[i - 1]!.sequence) expect(r.kind).toBe("latest_moved");
    });
  });

  test("a change that fails records nothing: a refused deletion (a channel points at it) leaves the record as it was", async () => {
    const before = lastId();
    expect((await admin.delete(`/projects/${pid}/releases/${v1.id}`)).status).toBe(409);
    expect(recorded(before)).toEqual([]);
  });
});

describe("a key rotation (docs/delivery.md \"Object storage\")", () => {
  test("before the first publish it names no key file, as a copy holds none yet; after it, the new key's files, key.pub, and latest's and channels' manifests signed again", async () => {
    const p = await admin.project("Rotated", "en", ["de"]);
    await admin.key(p, "k", { en: "K", de: "K-de" });
    const slug = await projectSlug(admin, p);
    const rowsOf = (after: number) => f.t.query<{ change: string }>("SELECT change FROM path_changes WHERE id > ? ORDER BY id", after).map((r) => JSON.parse(r.change) as PathChange);
    let before = lastId();
    expect((await admin.post(`/projects/${p}/signing-key/rotate`)).status).toBe(200);
    let [rotated] = rowsOf(before);
    expect(rotated).toEqual({ kind: "key_rotated", project_slug: slug, manifests: [] });
    expect(pathOps(rotated!)).toEqual([]);

    const v1 = await publish(admin, p, "v1");
    await admin.put(`/projects/${p}/channels/beta`, { release_id: v1.id });
    const channelSlug = f.t.query<{ slug: string }>("SELECT slug FROM channels WHERE name = 'beta' AND project_id = (SELECT id FROM projects WHERE public_id = ?)", p)[0]!.slug;
    before = lastId();
    expect((await admin.post(`/projects/${p}/signing-key/rotate`)).status).toBe(200);
    [rotated] = rowsOf(before);
    expect(pathOps(rotated!).map((op) => [op.op, op.path, op.op === "put" && op.moving])).toEqual([
      ["put", `p/${slug}/keys/3.pub`, false],
      ["put", `p/${slug}/keys/3.pub.minisig`, false],
      ["put", `p/${slug}/key.pub`, true],
      ["put", `p/${slug}/r/latest/manifest.json`, true],
      ["put", `p/${slug}/r/latest/manifest.json.minisig`, true],
      ["put", `p/${slug}/c/${channelSlug}/manifest.json`, true],
      ["put", `p/${slug}/c/${channelSlug}/manifest.json.minisig`, true],
    ]);
  });
});

describe("a database made before the record", () => {
  test("gets a record of what it serves at the next start: each release oldest first, latest, each channel", async () => {
    const dataDir = testDir();
    try {
      const clock = new ManualClock();
      const old = await testApp({ dataDir, clock });
      const a0 = await old.login();
      const p = await a0.project("Old", "en", ["de"]);
      await a0.key(p, "a", { en: "A", de: "A-de" });
      const a = await publish(a0, p, "a");
      clock.advance(1000);
      const b = await publish(a0, p, "b");
      await a0.put(`/projects/${p}/channels/prod`, { release_id: a.id });
      // As an older version left it: no record at all.
      old.query("DELETE FROM path_changes");
      old.query("DELETE FROM publish_target_cursors");
      await old.close();

      const app = await testApp({ dataDir });
      try {
        const rows = app.query<{ sequence: number; kind: string; change: string }>("SELECT sequence, kind, change FROM path_changes ORDER BY id");
        expect(rows.map((r) => [r.sequence, r.kind])).toEqual([
          [1, "release_published"],
          [2, "release_published"],
          [2, "latest_moved"],
          [3, "channel_moved"],
        ]);
        expect(rows.map((r) => JSON.parse(r.change).release?.id)).toEqual([a.id, b.id, b.id, a.id]);
        // Every target starts after it: nothing is replayed twice.
        const cursors = app.query<{ target: string; last_change_id: number }>("SELECT target, last_change_id FROM publish_target_cursors");
        const newest = app.query<{ id: number }>("SELECT max(id) AS id FROM path_changes")[0]!.id;
        expect(cursors).toEqual([{ target: "data-dir", last_change_id: newest }]);
      } finally {
        await app.close();
      }
      // Opened again, nothing more is written.
      const again = await testApp({ dataDir });
      try {
        expect(again.query<{ n: number }>("SELECT count(*) AS n FROM path_changes")[0]!.n).toBe(4);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
