/**
 * `phrasebook mirror sync` (docs/deploy.md "Object storage and CDN purge") in-process, against
 * s3rver: a server publishing in the middle of a sync's pass leaves no object of the older state
 * behind, because passes go on until one changes nothing; a store that refuses a copy makes the
 * sync fail, naming it. (The command itself, its output and exit codes: test/ops/mirror.test.ts.)
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mirrorLocation } from "../../src/targets/mirror/location.ts";
import { syncMirror } from "../../src/targets/mirror/sync.ts";
import type { PutOp } from "../../src/targets/cdn-paths.ts";
import { cdnRenderer } from "../../src/delivery/cdn-renderer.ts";
import { ManualClock, testApp } from "../helpers/app.ts";
import { BUCKET, bucketObject, expectBucketIsCdn, mirrorEnv, servedPaths } from "../helpers/mirror.ts";
import { projectSlug, publish } from "../helpers/releases.ts";
import { startS3, type S3Server } from "../helpers/s3.ts";

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3([BUCKET]);
});
afterAll(async () => {
  await s3.close();
});

test("a publish in the middle of a sync's pass: the next pass writes the new state, and a pass that changes nothing ends it", { timeout: 30_000 }, async () => {
  const prefix = `sync-${crypto.randomUUID().slice(0, 8)}`;
  const clock = new ManualClock();
  // The mirror is configured but its target not started: only the sync writes the bucket.
  const t = await testApp({ clock, env: mirrorEnv(s3, prefix) });
  try {
    const admin = await t.login();
    const pid = await admin.project("Busy", "en", ["de"]);
    const keyId = await admin.key(pid, "k", { en: "K", de: "K-1" });
    await publish(admin, pid, "v1");
    const slug = await projectSlug(admin, pid);
    // The server publishes v2 while the sync's first pass renders latest's de.json from v1.
    // Objects are made as the command makes them: files, manifests, signatures and key files.
    const objects = cdnRenderer({ settings: t.deps.settings, db: t.deps.db, paths: t.deps.changes.paths });
    let published = false;
    const renderer = {
      async render(op: PutOp) {
        const object = await objects.render(op);
        if (!published && op.path === `p/${slug}/r/latest/de.json`) {
          published = true;
          await admin.put(`/projects/${pid}/keys/${keyId}/translations/de`, { value: "K-2" });
          clock.advance(1000);
          await publish(admin, pid, "v2");
        }
        return object;
      },
    };
    const location = mirrorLocation(t.deps.settings)!;
    const outcome = await syncMirror({ db: t.deps.db, clock, settings: t.deps.settings, renderer, fetch }, location, { keepStray: false });
    expect(published).toBe(true);
    expect(outcome.settled).toBe(true);
    expect(outcome.failures).toEqual([]);
    const cdn = (path: string) => t.fetch(`/cdn/${path}`, { headers: { "accept-encoding": "identity" } });
    await expectBucketIsCdn(s3, prefix, await servedPaths(admin, pid, cdn), cdn);
    expect(new TextDecoder().decode((await bucketObject(s3, `${prefix}/p/${slug}/r/latest/de.json`)).body)).toContain("K-2");

    // A store that refuses one object: the sync says which, and does not call the bucket synced.
    const refusing: typeof fetch = ((input: string | URL | Request, init?: RequestInit) =>
      init?.method === "PUT" && String(input).endsWith("/r/latest/en.json")
        ? Promise.resolve(new Response("<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>", { status: 403 }))
        : fetch(input, init)) as typeof fetch;
    await s3.client(BUCKET).delete(`${prefix}/p/${slug}/r/latest/en.json`);
    const refused = await syncMirror({ db: t.deps.db, clock, settings: t.deps.settings, renderer: objects, fetch: refusing }, location, { keepStray: false });
    expect(refused.settled).toBe(false);
    expect(refused.failures).toEqual([`could not copy p/${slug}/r/latest/en.json: PUT answered 403 AccessDenied: Access Denied`]);
  } finally {
    await t.close();
  }
});

test("on an empty bucket it writes every object the CDN serves: files, manifests and signatures of each place, every key file with its signature; none of a project never published", { timeout: 30_000 }, async () => {
  const prefix = `sync-${crypto.randomUUID().slice(0, 8)}`;
  const clock = new ManualClock();
  const t = await testApp({ clock, env: mirrorEnv(s3, prefix) });
  try {
    const admin = await t.login();
    const pid = await admin.project("Signed", "en", ["de"]);
    const keyId = await admin.key(pid, "k", { en: "K", de: "K-1" });
    const v1 = await publish(admin, pid, "v1");
    await admin.put(`/projects/${pid}/channels/beta`, { release_id: v1.id });
    expect((await admin.post(`/projects/${pid}/signing-key/rotate`)).status).toBe(200);
    await admin.put(`/projects/${pid}/keys/${keyId}/translations/de`, { value: "K-2" });
    clock.advance(1000);
    await publish(admin, pid, "v2");
    const draftOnly = await admin.project("Draft only", "en", []);
    const slug = await projectSlug(admin, pid);

    const renderer = cdnRenderer({ settings: t.deps.settings, db: t.deps.db, paths: t.deps.changes.paths });
    const outcome = await syncMirror({ db: t.deps.db, clock, settings: t.deps.settings, renderer, fetch }, mirrorLocation(t.deps.settings)!, { keepStray: false });
    const cdn = (path: string) => t.fetch(`/cdn/${path}`, { headers: { "accept-encoding": "identity" } });
    const served = await servedPaths(admin, pid, cdn);
    expect(await servedPaths(admin, draftOnly, cdn)).toEqual([]);
    expect(served).toEqual(expect.arrayContaining([`p/${slug}/key.pub`, `p/${slug}/keys/1.pub`, `p/${slug}/keys/2.pub`, `p/${slug}/keys/2.pub.minisig`, `p/${slug}/r/latest/manifest.json.minisig`]));
    expect(served.filter((p) => p.endsWith("/manifest.json"))).toHaveLength(4); // v1, v2, latest, beta
    expect(outcome).toEqual({ objects: served.length, copied: served.length, deleted: 0, kept: 0, failures: [], settled: true });
    await expectBucketIsCdn(s3, prefix, served, cdn);
  } finally {
    await t.close();
  }
});
