/**
 * The mirror in object storage (docs/deploy.md "Object storage and CDN purge"), in-process against
 * a real S3-compatible server (s3rver on loopback): every CDN path is an object `{prefix}/{path}`
 * with the CDN's bytes, Content-Type and Cache-Control, walked side by side with the CDN after
 * publishes, a rollback, channel moves, slug rotations and deletions; pinned objects arrive before
 * the `latest` and channel objects that serve the same release; a store that is down (s3rver
 * stopped, then started again on the same port and folder) during three publishes holds up no
 * publish and loses nothing; an object the store refuses holds back only what waits for it; a
 * mirror turned on later fills the bucket, writing only what is missing or differs.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { RETRY_FIRST_MS, RETRY_MAX_MS } from "../../src/targets/follower.ts";
import type { HttpFetch } from "../../src/deps.ts";
import { ManualClock, testApp, testDir, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { BUCKET, bucketObject, bucketPaths, expectBucketIsCdn, mirrored, mirrorEnv, servedPaths } from "../helpers/mirror.ts";
import { projectSlug, publish } from "../helpers/releases.ts";
import { startS3, type S3Server } from "../helpers/s3.ts";
import { eventually } from "../helpers/wait.ts";

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3([BUCKET]);
});
afterAll(async () => {
  await s3.close();
});

interface Mirrored {
  t: TestApp;
  admin: DashboardClient;
  clock: ManualClock;
  prefix: string;
  cdn: (path: string) => Promise<Response>;
  settle: () => Promise<unknown>;
  /** The bucket holds exactly what the CDN serves for these projects. */
  walk: (...pids: string[]) => Promise<void>;
}

async function mirroredApp(options: { prefix?: string; fetch?: HttpFetch; dataDir?: string; clock?: ManualClock } = {}): Promise<Mirrored> {
  const prefix = options.prefix ?? `m-${crypto.randomUUID().slice(0, 8)}`;
  const clock = options.clock ?? new ManualClock();
  const t = await testApp({ clock, env: mirrorEnv(s3, prefix), fetch: options.fetch, dataDir: options.dataDir });
  t.deps.targets.start();
  const admin = await t.login();
  const cdn = (path: string) => t.fetch(`/cdn/${path}`, { headers: { "accept-encoding": "identity" } });
  const settle = () => mirrored((sql) => t.query(sql), clock);
  const walk = async (...pids: string[]) => {
    await settle();
    const paths = (await Promise.all(pids.map((pid) => servedPaths(admin, pid, cdn)))).flat();
    await expectBucketIsCdn(s3, prefix, paths, cdn);
  };
  return { t, admin, clock, prefix, cdn, settle, walk };
}

/** Where in `s3.events` (from `from` on) each key of the prefix was first put. */
function putOrder(prefix: string, from = 0): Map<string, number> {
  const order = new Map<string, number>();
  s3.events.slice(from).forEach((e, i) => {
    if (e.op === "put" && e.key.startsWith(`${prefix}/`) && !order.has(e.key.slice(prefix.length + 1))) order.set(e.key.slice(prefix.length + 1), i);
  });
  return order;
}

/** Every `latest` object of the slice was put after every pinned object of `releaseSlug`. */
function expectPinnedFirst(order: Map<string, number>, projectSlug: string, releaseSlug: string): void {
  const pinned = [...order].filter(([p]) => p.startsWith(`p/${projectSlug}/r/${releaseSlug}/`)).map(([, i]) => i);
  const latest = [...order].filter(([p]) => p.startsWith(`p/${projectSlug}/r/latest/`)).map(([, i]) => i);
  expect(pinned.length).toBeGreaterThan(0);
  expect(latest.length).toBeGreaterThan(0);
  expect(Math.max(...pinned)).toBeLessThan(Math.min(...latest));
}

const slugOf = (release: any) => new URL(release.languages[0].download_urls.json).pathname.split("/")[5]!;

describe("the mirror (docs/deploy.md \"Object storage and CDN purge\")", () => {
  test("a publish is mirrored in order, each object with the CDN's bytes, Content-Type and Cache-Control", { timeout: 30_000 }, async () => {
    const m = await mirroredApp();
    try {
      const pid = await m.admin.project("Mirrored", "en", ["de", "fr"]);
      await m.admin.key(pid, "hello", { en: "Hello", de: "Hallo", fr: "Bonjour" });
      const slug = await projectSlug(m.admin, pid);
      const from = s3.events.length;
      const v1 = await publish(m.admin, pid, "v1");
      await m.walk(pid);
      // 3 languages x 3 formats, pinned and latest; each place's manifest and signature; key.pub and keys/1.pub
      expect((await bucketPaths(s3, m.prefix)).length).toBe(24);
      expectPinnedFirst(putOrder(m.prefix, from), slug, slugOf(v1));
      // The objects are what a CDN in front serves: the CDN's headers, named exactly.
      const pinnedJson = await bucketObject(s3, `${m.prefix}/p/${slug}/r/${slugOf(v1)}/de.json`);
      expect(pinnedJson.cacheControl).toBe("public, max-age=31536000, immutable");
      expect(pinnedJson.contentType).toBe("application/json; charset=utf-8");
      const latestYaml = await bucketObject(s3, `${m.prefix}/p/${slug}/r/latest/de.yaml`);
      expect(latestYaml.cacheControl).toBe("public, max-age=60, must-revalidate");
      expect(latestYaml.contentType).toBe("application/yaml; charset=utf-8");

      await m.admin.put(`/projects/${pid}/keys/${(await m.admin.get(`/projects/${pid}/keys`)).body.items[0].id}/translations/de`, { value: "Hallo!" });
      m.clock.advance(1000);
      const at = s3.events.length;
      const v2 = await publish(m.admin, pid, "v2");
      await m.walk(pid);
      expectPinnedFirst(putOrder(m.prefix, at), slug, slugOf(v2));
      expect(new TextDecoder().decode((await bucketObject(s3, `${m.prefix}/p/${slug}/r/latest/de.json`)).body)).toContain("Hallo!");
      const status = (await m.admin.get("/mirror")).body;
      expect(status).toEqual({ pending: 0, failed: [], last_copied_at: new Date(m.clock.now()).toISOString() });
    } finally {
      await m.t.close();
    }
  });

  test("a dropped language, channels, rotations of a release's, a channel's and the project's slug, a rollback and deletions are mirrored", { timeout: 60_000 }, async () => {
    const m = await mirroredApp();
    try {
      const pid = await m.admin.project("Moving", "en", ["de", "fr"]);
      await m.admin.key(pid, "k", { en: "K", de: "K-de", fr: "K-fr" });
      const v1 = await publish(m.admin, pid, "v1");
      await m.walk(pid);
      await m.admin.delete(`/projects/${pid}/languages/fr`);
      m.clock.advance(1000);
      const v2 = await publish(m.admin, pid, "v2");
      await m.walk(pid); // latest's fr objects are gone, v1's stay
      expect((await bucketPaths(s3, m.prefix)).filter((p) => p.includes("/r/latest/fr."))).toEqual([]);

      expect((await m.admin.put(`/projects/${pid}/channels/beta`, { release_id: v1.id })).status).toBe(201);
      await m.walk(pid);
      await m.admin.put(`/projects/${pid}/channels/beta`, { release_id: v2.id }); // a channel move
      await m.walk(pid);
      await m.admin.post(`/projects/${pid}/channels/beta/rotate-slug`);
      await m.walk(pid);
      await m.admin.post(`/projects/${pid}/releases/${v1.id}/rotate-slug`);
      await m.walk(pid);
      await m.admin.post(`/projects/${pid}/rotate-slug`);
      await m.walk(pid); // nothing is left under the old project slug
      m.clock.advance(1000);
      const rollback = await m.admin.post(`/projects/${pid}/releases/${v1.id}/republish`, { name: "Rollback", tag: "v1-again" });
      expect(rollback.status).toBe(201);
      await m.walk(pid); // latest serves v1's files again, fr included
      await m.admin.delete(`/projects/${pid}/channels/beta`);
      await m.walk(pid);
      expect((await m.admin.delete(`/projects/${pid}/releases/${rollback.body.id}`)).status).toBe(204);
      await m.walk(pid); // latest back on v2
      expect((await m.admin.delete(`/projects/${pid}/releases/${v2.id}`)).status).toBe(204);
      expect((await m.admin.delete(`/projects/${pid}/releases/${v1.id}`)).status).toBe(204);
      await m.settle();
      await expectBucketIsCdn(s3, m.prefix, await servedPaths(m.admin, pid, m.cdn, { everPublished: true }), m.cdn);
      // Nothing published: nothing in the bucket but the project's key files, which the CDN serves still.
      const slug = await projectSlug(m.admin, pid);
      expect(await bucketPaths(s3, m.prefix)).toEqual([`p/${slug}/key.pub`, `p/${slug}/keys/1.pub`]);
    } finally {
      await m.t.close();
    }
  });

  test("the store down during three publishes: each publish answers at once, copies are retried after 1 s doubling to 60 s, then everything arrives in order", { timeout: 60_000 }, async () => {
    const m = await mirroredApp();
    try {
      const pid = await m.admin.project("Outage", "en", ["de"]);
      const keyId = await m.admin.key(pid, "k", { en: "K", de: "K-0" });
      const slug = await projectSlug(m.admin, pid);
      await m.walk(pid);
      await s3.stop(); // connections refused from here on
      const from = s3.events.length;
      const released = [];
      for (let i = 1; i <= 3; i++) {
        await m.admin.put(`/projects/${pid}/keys/${keyId}/translations/de`, { value: `K-${i}` });
        m.clock.advance(1000);
        released.push(await publish(m.admin, pid, `v${i}`)); // answered while the store is down
        expect((await m.cdn(`p/${slug}/r/latest/de.json`)).status).toBe(200); // the CDN serves it
      }
      // Each copy fails and waits: 1 s, 2 s, 4 s, ... 60 s at most, by the clock of the app.
      const status = await eventually(async () => (await m.admin.get("/mirror")).body.failed.length > 0 && (await m.admin.get("/mirror")).body, { what: "a failed copy" });
      // Three releases' pinned files and latest's: none copied (latest's older moves give way to the newest).
      expect(status.pending).toBeGreaterThanOrEqual(3 * 6 + 6);
      expect(status.failed[0].error).toContain("the store did not answer");
      expect(s3.events.length).toBe(from);
      const path = status.failed[0].path;
      const tried = (attempts: number) =>
        eventually(
          async () => {
            const failed = (await m.admin.get("/mirror")).body.failed.find((f: any) => f.path === path);
            return failed?.attempts >= attempts && failed;
          },
          { what: `${path} tried ${attempts} times` },
        );
      let failed = await tried(1);
      const gaps: [attempts: number, seconds: number][] = [];
      while (failed.attempts < 8) {
        const at = Math.max(Date.parse(failed.next_attempt_at), m.clock.now());
        m.clock.set(at); // the retry comes when it is due, not before
        failed = await tried(failed.attempts + 1);
        gaps.push([failed.attempts, (Date.parse(failed.next_attempt_at) - at) / 1000]);
      }
      // After the n-th failure the next try is 2^(n-1) s later, at most a minute.
      expect(gaps).toEqual(gaps.map(([n]) => [n, Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (n - 1)) / 1000]));
      expect(gaps.at(-1)).toEqual([8, 60]);
      const last = (await m.admin.get("/mirror")).body;
      // Only the pinned objects were tried: the latest objects wait for them.
      expect(last.failed.length).toBeGreaterThan(0);
      expect(last.failed.every((f: any) => !f.path.includes("/r/latest/"))).toBe(true);

      await s3.start(); // back, on the same port, with the same objects
      m.clock.advance(RETRY_MAX_MS);
      await m.walk(pid);
      const order = putOrder(m.prefix, from);
      for (const r of released) for (const file of ["de.json", "de.yaml", "de.arb", "en.json"]) expect(order.has(`p/${slug}/r/${slugOf(r)}/${file}`)).toBe(true);
      // latest was written after every pinned object it serves; it ends on v3's files.
      expectPinnedFirst(order, slug, slugOf(released[2]));
      expect(new TextDecoder().decode((await bucketObject(s3, `${m.prefix}/p/${slug}/r/latest/de.json`)).body)).toContain("K-3");
      expect((await m.admin.get("/mirror")).body).toMatchObject({ pending: 0, failed: [] });
    } finally {
      if (!(await fetch(s3.endpoint).catch(() => null))) await s3.start();
      await m.t.close();
    }
  });

  test("an object the store refuses holds back only the objects waiting for it", { timeout: 30_000 }, async () => {
    let refusing = false;
    // The store refuses one object (a policy, a quota): v2's pinned de.json, known by its content.
    // Every other request reaches s3rver.
    const storeRefusingOne: HttpFetch = (input, init) => {
      const url = String(input);
      const refused = refusing && init?.method === "PUT" && url.endsWith("/de.json") && !url.includes("/r/latest/") && new TextDecoder().decode(init.body as Uint8Array).includes("K-2");
      return refused ? Promise.resolve(new Response("<Error><Code>AccessDenied</Code><Message>Access Denied</Message><AWSAccessKeyId>S3RVER</AWSAccessKeyId></Error>", { status: 403 })) : fetch(input, init);
    };
    const m = await mirroredApp({ fetch: storeRefusingOne });
    try {
      const pid = await m.admin.project("Held", "en", ["de"]);
      const keyId = await m.admin.key(pid, "k", { en: "K", de: "K-1" });
      const other = await m.admin.project("Other", "en", []);
      await m.admin.key(other, "k", { en: "Other" });
      const slug = await projectSlug(m.admin, pid);
      const otherSlug = await projectSlug(m.admin, other);
      await publish(m.admin, pid, "v1");
      await m.walk(pid);
      refusing = true;
      await m.admin.put(`/projects/${pid}/keys/${keyId}/translations/de`, { value: "K-2" });
      m.clock.advance(1000);
      const v2 = await publish(m.admin, pid, "v2");
      await publish(m.admin, other, "o1");
      const refusedPath = `p/${slug}/r/${slugOf(v2)}/de.json`;
      const status = await eventually(
        async () => {
          const s = (await m.admin.get("/mirror")).body;
          return s.failed.some((f: any) => f.path === refusedPath) && s;
        },
        { what: "the refused object failing" },
      );
      expect(status.failed).toEqual([{ path: refusedPath, error: "PUT answered 403 AccessDenied: Access Denied", attempts: 1, next_attempt_at: new Date(m.clock.now() + RETRY_FIRST_MS).toISOString() }]);
      // v2's other pinned files and the other project arrive; v2's manifest and latest objects wait for it.
      const paths = () => bucketPaths(s3, m.prefix);
      await eventually(async () => (await paths()).filter((p) => p.startsWith(`p/${slug}/r/${slugOf(v2)}/`)).length === 5, { what: "v2's other pinned files" });
      // 3 files pinned and latest, both manifests with their signatures, key.pub and keys/1.pub.
      await eventually(async () => (await paths()).filter((p) => p.startsWith(`p/${otherSlug}/`)).length === 12, { what: "the other project's objects" });
      expect(new TextDecoder().decode((await bucketObject(s3, `${m.prefix}/p/${slug}/r/latest/de.json`)).body)).toContain("K-1");
      // The refused object; v2's manifest and signature, which name it; latest's six files, manifest and
      // signature. The key files name no file: they do not wait.
      expect((await m.admin.get("/mirror")).body.pending).toBe(1 + 2 + 6 + 2);
      expect(await paths()).toContain(`p/${slug}/key.pub`);

      refusing = false; // the store takes it now
      m.clock.advance(RETRY_MAX_MS);
      await m.walk(pid, other);
      expect(new TextDecoder().decode((await bucketObject(s3, `${m.prefix}/p/${slug}/r/latest/de.json`)).body)).toContain("K-2");
    } finally {
      await m.t.close();
    }
  });

  test("a mirror turned on later, or pointed at another place, fills the bucket at start, writing only what is missing or differs", { timeout: 30_000 }, async () => {
    const clock = new ManualClock();
    const dataDir = testDir("phrasebook-data-");
    const before = await testApp({ clock, dataDir });
    const admin = await before.login();
    const pid = await admin.project("Later", "en", ["de"]);
    await admin.key(pid, "k", { en: "K", de: "K-de" });
    await publish(admin, pid, "v1");
    await before.close();
    try {
      const prefix = `later-${crypto.randomUUID().slice(0, 8)}`;
      let m = await mirroredApp({ dataDir, clock, prefix });
      await m.walk(pid); // the whole CDN, from the pass at start
      const slug = await projectSlug(m.admin, pid);
      await m.t.close();

      // The bucket changed behind the mirror's back, and the queue was filled for another place.
      await s3.client(BUCKET).write(`${prefix}/p/${slug}/r/latest/de.json`, "stale", { type: "application/json; charset=utf-8" });
      const db = new Database(join(dataDir, "phrasebook.db"));
      db.run("UPDATE mirror_state SET location = 'elsewhere'");
      db.close();
      const from = s3.events.length;
      m = await mirroredApp({ dataDir, clock, prefix });
      try {
        await m.walk(pid);
        expect(s3.events.slice(from).map((e) => e.key)).toEqual([`${prefix}/p/${slug}/r/latest/de.json`]);
      } finally {
        await m.t.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
