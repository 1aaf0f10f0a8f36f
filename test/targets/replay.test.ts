/**
 * Any target can replay the path record (docs/architecture.md "Publish targets"): a copy of the
 * CDN's paths kept in a folder, written only from the record's changes and the release files
 * (`pathOps`), holds exactly what the server's own CDN answers, after every kind of change, and
 * picks up where it stopped after a restart. A copy that cannot be written holds back what comes
 * after, and catches up in order once it can.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { RecordedPathChange } from "../../src/changes/paths.ts";
import { pathOps } from "../../src/targets/cdn-paths.ts";
import { cdnRenderer } from "../../src/delivery/cdn-renderer.ts";
import type { ObjectRenderer } from "../../src/targets/render.ts";
import { objectStore, type ObjectStore } from "../../src/targets/object-store.ts";
import { PublishTargets } from "../../src/targets/registry.ts";
import type { PublishTarget } from "../../src/targets/target.ts";
import { ManualClock, ORIGIN, testApp, testDir, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { publish } from "../helpers/releases.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function dir(prefix: string): string {
  const d = testDir(prefix);
  dirs.push(d);
  return d;
}

/** A copy of the CDN's paths in a folder, kept by replaying the record (what object storage does). */
class FolderCopy implements PublishTarget {
  readonly name = "folder-copy";
  readonly inline = true; // replayed by `settle`, so the test knows when it is done
  readonly replayed: number[] = [];
  readonly store: ObjectStore;
  private readonly renderer: ObjectRenderer;

  /** Objects are made by the server's own renderer: bundle files, manifests, signatures, key files. */
  constructor(t: TestApp, readonly root: string) {
    this.store = objectStore({ kind: "folder", path: root });
    this.renderer = cdnRenderer({ settings: t.deps.settings, db: t.deps.db, paths: t.deps.changes.paths });
  }

  async replay(change: RecordedPathChange): Promise<void> {
    for (const op of pathOps(change.change)) {
      if (op.op === "delete") await this.store.delete(op.path);
      else {
        // A release deleted since is gone from the disk; a later change of the record removes its paths.
        const object = await this.renderer.render(op);
        if (object) await this.store.put(op.path, object.bytes, { contentType: object.contentType });
      }
    }
    this.replayed.push(change.id);
  }
}

function walk(root: string): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) visit(p);
      else if (!name.startsWith(".")) out.push(relative(root, p));
    }
  };
  try {
    visit(root);
  } catch {
    /* not made yet */
  }
  return out.sort();
}

/**
 * Every path the CDN serves now, from the dashboard API: each release's, latest's and each
 * channel's URLs, each of them with its manifest and signature (docs/delivery.md), and once
 * something is published, the project's key files.
 */
async function servedPaths(t: TestApp, admin: DashboardClient, pid: string): Promise<string[]> {
  const cdn = `${ORIGIN}/cdn/`;
  const out = new Set<string>();
  const releases = (await admin.get(`/projects/${pid}/releases`)).body.items.filter((r: any) => r.status === "published");
  const slug = (await admin.get(`/projects/${pid}`)).body.cdn_slug;
  const newest = [...releases].sort((a: any, b: any) => b.published_at.localeCompare(a.published_at))[0];
  const withManifest = (dir: string) => [`${dir}/manifest.json`, `${dir}/manifest.json.minisig`].forEach((p) => out.add(p));
  for (const r of releases) {
    const detail = (await admin.get(`/projects/${pid}/releases/${r.id}`)).body;
    for (const l of detail.languages) {
      for (const u of Object.values(l.download_urls) as string[]) {
        out.add(u.slice(cdn.length));
        if (r.id === newest?.id) out.add(u.slice(cdn.length).replace(/\/r\/[0-9A-Za-z]{16}\//, "/r/latest/"));
      }
    }
    withManifest(`p/${slug}/r/${detail.slug}`);
  }
  if (newest) withManifest(`p/${slug}/r/latest`);
  for (const c of (await admin.get(`/projects/${pid}/channels`)).body.items) {
    for (const byFormat of Object.values(c.urls) as Record<string, string>[]) for (const u of Object.values(byFormat)) out.add(u.slice(cdn.length));
    withManifest(`p/${slug}/c/${c.slug}`);
  }
  // The CDN serves the key files always; a copy gets them with the first publish and keeps them.
  if (t.query("SELECT 1 FROM path_changes WHERE kind = 'release_published'").length > 0) {
    const key = (await admin.get(`/projects/${pid}/signing-key`)).body;
    out.add(`p/${slug}/key.pub`);
    for (let n = 1; n <= key.n; n++) {
      out.add(`p/${slug}/keys/${n}.pub`);
      if (n >= 2) out.add(`p/${slug}/keys/${n}.pub.minisig`);
    }
  }
  return [...out].sort();
}

/** The copy holds exactly the CDN's paths, each with the bytes the CDN answers. */
async function expectSameAsCdn(t: TestApp, admin: DashboardClient, pid: string, copy: FolderCopy): Promise<void> {
  const served = await servedPaths(t, admin, pid);
  expect(walk(copy.root)).toEqual(served);
  for (const path of served) {
    const res = await t.fetch(`/cdn/${path}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(copy.root, path)))).toBe(true);
  }
}

describe("a folder copy of the CDN replayed from the path record", () => {
  test("holds what the CDN serves after publishes, a dropped language, channels, rotations, a rollback and deletions; resumes after a restart", async () => {
    const dataDir = dir("phrasebook-data-");
    const root = dir("phrasebook-copy-");
    const clock = new ManualClock();
    let t = await testApp({ dataDir, clock });
    let copy = new FolderCopy(t, root);
    let targets = new PublishTargets([copy], t.deps.changes, t.deps, t.clock);
    let admin = await t.login();
    const step = async () => {
      await targets.settle();
      await expectSameAsCdn(t, admin, pid, copy);
    };

    const pid = await admin.project("Copied", "en", ["de", "fr"]);
    await admin.key(pid, "hello", { en: "Hello", de: "Hallo", fr: "Bonjour" });
    const v1 = await publish(admin, pid, "v1");
    await step();
    expect(walk(root).length).toBe(24); // 3 languages x 3 formats, pinned and latest; their manifests and signatures; key.pub and keys/1.pub

    await admin.delete(`/projects/${pid}/languages/fr`);
    await admin.put(`/projects/${pid}/keys/${(await admin.get(`/projects/${pid}/keys`)).body.items[0].id}/translations/de`, { value: "Hallo!" });
    clock.advance(1000);
    const v2 = await publish(admin, pid, "v2");
    await step(); // latest's fr files are gone from the copy, v1's stay

    await admin.put(`/projects/${pid}/channels/beta`, { release_id: v1.id });
    await step();
    await admin.put(`/projects/${pid}/channels/beta`, { release_id: v2.id });
    await step();
    await admin.post(`/projects/${pid}/channels/beta/rotate-slug`);
    await step();
    await admin.post(`/projects/${pid}/releases/${v1.id}/rotate-slug`);
    await step();
    await admin.post(`/projects/${pid}/releases/${v2.id}/rotate-slug`); // latest's and beta's manifests name its files
    await step();
    await admin.post(`/projects/${pid}/signing-key/rotate`); // key 2; latest and beta signed again
    await step();

    // A restart: a new app and a new copy target on the same folders pick up from the cursor.
    await targets.stop();
    await t.close();
    t = await testApp({ dataDir, clock });
    admin = await t.login();
    copy = new FolderCopy(t, root);
    targets = new PublishTargets([copy], t.deps.changes, t.deps, t.clock);
    await targets.settle();
    expect(copy.replayed).toEqual([]); // nothing replayed twice

    await admin.post(`/projects/${pid}/rotate-slug`);
    await step();
    clock.advance(1000);
    const rb = await admin.post(`/projects/${pid}/releases/${v1.id}/republish`, { name: "rollback", tag: "v1-rb" });
    expect(rb.status).toBe(201);
    await step(); // latest serves v1's files again, fr included
    await admin.delete(`/projects/${pid}/channels/beta`);
    await step();
    expect((await admin.delete(`/projects/${pid}/releases/${rb.body.id}`)).status).toBe(204);
    await step(); // latest back to v2
    expect((await admin.delete(`/projects/${pid}/releases/${v2.id}`)).status).toBe(204);
    expect((await admin.delete(`/projects/${pid}/releases/${v1.id}`)).status).toBe(204);
    await step();
    // Nothing published: nothing served but the project's key files, and nothing else kept.
    expect(walk(root).every((p) => /\/keys?[/.]/.test(p))).toBe(true);
    await targets.stop();
    await t.close();
  });

  test("a copy that cannot be written holds back every later change, then replays them in order", async () => {
    const root = dir("phrasebook-copy-");
    const clock = new ManualClock();
    const t = await testApp({ clock });
    try {
      const copy = new FolderCopy(t, root);
      // Not inline: it follows in the background like object storage, with the record's retries.
      Object.defineProperty(copy, "inline", { value: false });
      const targets = new PublishTargets([copy], t.deps.changes, t.deps, t.clock);
      targets.start();
      const admin = await t.login();
      const pid = await admin.project("Blocked", "en", ["de"]);
      await admin.key(pid, "k", { en: "K", de: "K-de" });
      writeFileSync(join(root, "p"), "a file where the copy's folder goes"); // every write fails
      const v1 = await publish(admin, pid, "v1");
      clock.advance(1000);
      await publish(admin, pid, "v2");
      await Bun.sleep(300);
      expect(copy.replayed).toEqual([]);
      rmSync(join(root, "p"));
      mkdirSync(join(root, "p"));
      // The retry comes after the backoff (1 s, then 2 s): wait for every change, in order.
      const { eventually } = await import("../helpers/wait.ts");
      const ids = t.query<{ id: number }>("SELECT id FROM path_changes ORDER BY id").map((r) => r.id);
      await eventually(() => copy.replayed.length >= ids.length, { timeoutMs: 15_000, what: () => `replayed ${JSON.stringify(copy.replayed)}` });
      expect(copy.replayed).toEqual(ids);
      await expectSameAsCdn(t, admin, pid, copy);
      void v1;
      await targets.stop();
    } finally {
      await t.close();
    }
  });
});
