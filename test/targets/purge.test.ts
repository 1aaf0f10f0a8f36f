/**
 * Purging the CDN in front (docs/deploy.md "Object storage and CDN purge"), against loopback
 * stand-ins of Cloudflare's, Fastly's and the operator's http purge (test/helpers/purge-standins.ts):
 * a change purges exactly the `latest` and channel URLs (or surrogate keys) whose content changed,
 * their manifests and signatures and `key.pub` included (a key rotation: `key.pub` and the moving
 * manifests' signatures), never a pinned one nor a numbered key file; with a mirror only once the
 * bucket holds the new objects; Cloudflare in calls
 * of at most 30 URLs; each call retried while the stand-in answers 5xx, or late, the http one with
 * the same delivery id and a fresh signature.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PurgeQueue } from "../../src/targets/purge/queue.ts";
import { http } from "../../src/targets/purge/http.ts";
import { RETRY_MAX_MS } from "../../src/targets/follower.ts";
import { ManualClock, ORIGIN, testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { BUCKET, bucketObject, mirrored, mirrorEnv } from "../helpers/mirror.ts";
import { cloudflareStandIn, fastlyStandIn, httpPurgeStandIn } from "../helpers/purge-standins.ts";
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

const CDN = `${ORIGIN}/cdn`;
const LANGUAGES = ["de", "fr", "es", "it", "nl", "pl", "pt", "sv", "da", "fi"];

interface Running {
  t: TestApp;
  admin: DashboardClient;
  clock: ManualClock;
}

async function running(env: Record<string, string>): Promise<Running> {
  const clock = new ManualClock();
  const t = await testApp({ clock, env });
  t.deps.targets.start();
  return { t, admin: await t.login(), clock };
}

/** Purges arrive after the change: wait until `n` calls were accepted, and no more come for a moment. */
async function calls<T>(standIn: { calls: T[] }, n: number): Promise<T[]> {
  await eventually(() => standIn.calls.length >= n, { what: () => `${n} purge calls (got ${standIn.calls.length})` });
  return standIn.calls.splice(0, standIn.calls.length);
}

/** Waits until a queued purge has failed `attempts` times (its retry is then timed from the clock). */
function failedOnce(t: TestApp, attempts = 1): Promise<unknown> {
  return eventually(() => t.query<{ n: number }>("SELECT count(*) AS n FROM purge_queue WHERE attempts >= ?", attempts)[0]!.n > 0, { what: `a purge failed ${attempts} time(s)` });
}

const pinned = (url: string) => /\/r\/[0-9A-Za-z]{16}\//.test(url);

describe("purge (docs/deploy.md \"Object storage and CDN purge\")", () => {
  test("Cloudflare with a mirror: exactly the changed latest and channel URLs, at most 30 a call, once the bucket holds them; a 5xx is retried", { timeout: 60_000 }, async () => {
    const cf = cloudflareStandIn("zone-1", "cf-token");
    const prefix = `cf-${crypto.randomUUID().slice(0, 8)}`;
    const m = await running(mirrorEnv(s3, prefix, { PHRASEBOOK_PURGE: "cloudflare", PHRASEBOOK_PURGE_ZONE: "zone-1", PHRASEBOOK_PURGE_TOKEN: "cf-token", PHRASEBOOK_PURGE_API: cf.api }));
    // At each call, every URL it names is in the bucket with what the CDN serves now.
    const notHeld: string[] = [];
    const purgedAll: string[] = [];
    cf.onCall = async (call) => {
      purgedAll.push(...call.urls!);
      for (const url of call.urls!) {
        const path = url.slice(CDN.length + 1);
        const cdn = await m.t.fetch(`/cdn/${path}`, { headers: { "accept-encoding": "identity" } });
        const stored = await bucketObject(s3, `${prefix}/${path}`);
        const cdnBody = new Uint8Array(await cdn.arrayBuffer());
        const held = cdn.status === 404 ? stored.status === 404 : Buffer.from(stored.body).equals(Buffer.from(cdnBody));
        if (!held) notHeld.push(path);
      }
    };
    try {
      const pid = await m.admin.project("Purged", "en", LANGUAGES);
      const keyId = await m.admin.key(pid, "k", Object.fromEntries(["en", ...LANGUAGES].map((c) => [c, `K-${c}`])));
      const slug = await projectSlug(m.admin, pid);
      cf.failNext(1, 503, '{"success":false,"errors":[{"code":10001,"message":"service temporarily unavailable"}]}');
      await publish(m.admin, pid, "v1");
      await failedOnce(m.t);
      m.clock.advance(RETRY_MAX_MS); // its retry is due
      let got = await calls(cf, 2);
      const latestDoc = [`${CDN}/p/${slug}/r/latest/manifest.json`, `${CDN}/p/${slug}/r/latest/manifest.json.minisig`];
      // The first publish: every latest path (11 languages x 3 formats, the manifest and its
      // signature) and key.pub, which moves with latest: 36 URLs in 30 + 6.
      expect(got.map((c) => c.urls!.length).sort((a, b) => b - a)).toEqual([30, 6]);
      const purged = got.flatMap((c) => c.urls!).sort();
      expect(purged).toEqual([...["en", ...LANGUAGES].flatMap((c) => ["arb", "json", "yaml"].map((e) => `${CDN}/p/${slug}/r/latest/${c}.${e}`)), ...latestDoc, `${CDN}/p/${slug}/key.pub`].sort());
      expect(cf.received).toBe(3); // the 503, its retry, the second call
      expect(got[0]!.headers.authorization).toBe("Bearer cf-token");
      const copied = () => mirrored((sql) => m.t.query(sql), m.clock);
      await copied();

      // A release that changes one language: its three latest URLs and latest's manifest, nothing else.
      await m.admin.put(`/projects/${pid}/keys/${keyId}/translations/de`, { value: "K-de-2" });
      m.clock.advance(1000);
      const v2 = await publish(m.admin, pid, "v2");
      got = await calls(cf, 1);
      expect(got.flatMap((c) => c.urls!).sort()).toEqual([...["arb", "json", "yaml"].map((e) => `${CDN}/p/${slug}/r/latest/de.${e}`), ...latestDoc].sort());

      // A channel: its files and manifest are new URLs; moving it to a release with other content purges those.
      const channel = await m.admin.put(`/projects/${pid}/channels/beta`, { release_id: v2.id });
      const betaDir = `${CDN}/p/${slug}/c/${new URL(channel.body.urls.de.json).pathname.split("/")[5]}`;
      const channelUrls = (await calls(cf, 2)).flatMap((c) => c.urls!);
      expect(channelUrls.length).toBe(35);
      expect(channelUrls.every((u) => u.startsWith(`${betaDir}/`))).toBe(true);

      // A dropped language: latest's fr files are gone, which changes them, and latest's manifest.
      await m.admin.delete(`/projects/${pid}/languages/fr`);
      m.clock.advance(1000);
      await publish(m.admin, pid, "v3");
      await copied(); // removals s3rver now and then fails are retried by the test's clock
      got = await calls(cf, 1);
      expect(got.flatMap((c) => c.urls!).sort()).toEqual([...["arb", "json", "yaml"].map((e) => `${CDN}/p/${slug}/r/latest/fr.${e}`), ...latestDoc].sort());

      // v2's slug rotated: its pinned URLs are not purged; beta serves v2, and its manifest names them.
      await m.admin.post(`/projects/${pid}/releases/${v2.id}/rotate-slug`);
      await copied();
      got = await calls(cf, 1);
      expect(got.flatMap((c) => c.urls!).sort()).toEqual([`${betaDir}/manifest.json`, `${betaDir}/manifest.json.minisig`]);

      // A key rotation: key.pub, and the signatures of latest's and beta's manifests (their bytes
      // stay). keys/2.pub is a new, immutable URL: never purged, like the pinned manifests.
      expect((await m.admin.post(`/projects/${pid}/signing-key/rotate`)).status).toBe(200);
      got = await calls(cf, 1);
      expect(got.flatMap((c) => c.urls!).sort()).toEqual([`${CDN}/p/${slug}/key.pub`, `${betaDir}/manifest.json.minisig`, `${CDN}/p/${slug}/r/latest/manifest.json.minisig`].sort());
      expect((await bucketObject(s3, `${prefix}/p/${slug}/keys/2.pub`)).status).toBe(200);

      await copied();
      await eventually(() => m.t.query<{ n: number }>("SELECT count(*) AS n FROM purge_queue")[0]!.n === 0);
      expect(cf.calls).toEqual([]);
      expect(notHeld).toEqual([]);
      expect(cf.received).toBe(9); // every call made once, but the retry
      expect(purgedAll.some(pinned)).toBe(false);
    } finally {
      await m.t.close();
      await cf.stop();
    }
  });

  test("Fastly without a mirror: the server's answers carry the surrogate keys, one purge per changed key, never for pinned files; a slow answer holds up nothing", { timeout: 30_000 }, async () => {
    const fastly = fastlyStandIn("svc-1", "fastly-key");
    const m = await running({ PHRASEBOOK_PURGE: "fastly", PHRASEBOOK_PURGE_SERVICE: "svc-1", PHRASEBOOK_PURGE_TOKEN: "fastly-key", PHRASEBOOK_PURGE_API: fastly.api });
    try {
      const pid = await m.admin.project("Keys", "en", ["de"]);
      await m.admin.key(pid, "k", { en: "K", de: "K-de" });
      const slug = await projectSlug(m.admin, pid);
      const keysOf = async (n: number) => (await calls(fastly, n)).map((c) => c.key).sort();
      fastly.slowNext(1500);
      const v1 = await publish(m.admin, pid, "v1"); // answered while the purge is still waiting
      expect(fastly.calls).toEqual([]);
      // latest's files and manifest, and key.pub, which moves with latest: one key, one call.
      let got = await calls(fastly, 1);
      expect(got.map((c) => c.key)).toEqual([`${slug}/latest`]);
      expect(got[0]!.headers["fastly-key"]).toBe("fastly-key");

      const header = async (path: string) => (await m.t.fetch(`/cdn/${path}`)).headers.get("surrogate-key");
      const pinnedPath = new URL(v1.languages[0].download_urls.json).pathname.slice("/cdn/".length);
      expect(await header(`p/${slug}/r/latest/de.json`)).toBe(`${slug}/latest`);
      expect(await header(`p/${slug}/r/latest/manifest.json.minisig`)).toBe(`${slug}/latest`);
      expect(await header(`p/${slug}/key.pub`)).toBe(`${slug}/latest`);
      expect(await header(pinnedPath)).toBeNull();
      expect(await header(pinnedPath.replace(/[^/]+$/, "manifest.json"))).toBeNull();
      expect(await header(`p/${slug}/keys/1.pub`)).toBeNull();

      const channel = await m.admin.put(`/projects/${pid}/channels/beta`, { release_id: v1.id });
      const channelSlug = new URL(channel.body.urls.de.json).pathname.split("/")[5];
      expect(await keysOf(1)).toEqual([`${slug}/c/${channelSlug}`]);
      expect(await header(`p/${slug}/c/${channelSlug}/en.yaml`)).toBe(`${slug}/c/${channelSlug}`);

      // v1's slug rotated: latest's and beta's manifests name its pinned URLs, so both keys.
      await m.admin.post(`/projects/${pid}/releases/${v1.id}/rotate-slug`);
      expect(await keysOf(2)).toEqual([`${slug}/c/${channelSlug}`, `${slug}/latest`]);
      // A key rotation: key.pub and latest's signature (latest's key), beta's signature (beta's).
      expect((await m.admin.post(`/projects/${pid}/signing-key/rotate`)).status).toBe(200);
      expect(await keysOf(2)).toEqual([`${slug}/c/${channelSlug}`, `${slug}/latest`]);

      // A 5xx is retried; the key is purged once it succeeds. The same content in v2: latest's files
      // stay, but its manifest names another release.
      fastly.failNext(2, 500);
      m.clock.advance(1000);
      await publish(m.admin, pid, "v2");
      await failedOnce(m.t, 1);
      m.clock.advance(1000);
      await failedOnce(m.t, 2); // a second later
      m.clock.advance(2000);
      got = await calls(fastly, 1);
      expect(got.map((c) => c.key)).toEqual([`${slug}/latest`]);
      expect(fastly.received).toBe(1 + 1 + 2 + 2 + 2 + 1); // each accepted before, two 500s, the retry
    } finally {
      await m.t.close();
      await fastly.stop();
    }
  });

  test("http: the operator's endpoint gets the changed URLs signed as a webhook; retries keep the delivery id, with a fresh signature", { timeout: 30_000 }, async () => {
    const hook = httpPurgeStandIn("purge-secret");
    const m = await running({ PHRASEBOOK_PURGE: "http", PHRASEBOOK_PURGE_URL: hook.api, PHRASEBOOK_PURGE_SECRET: "purge-secret" });
    try {
      const pid = await m.admin.project("Hooked", "en", ["de"]);
      await m.admin.key(pid, "k", { en: "K", de: "K-de" });
      const slug = await projectSlug(m.admin, pid);
      hook.failNext(1, 502);
      await publish(m.admin, pid, "v1");
      await failedOnce(m.t);
      m.clock.advance(1000);
      const [call] = await calls(hook, 1);
      // latest's files, manifest and signature, and key.pub, which moves with latest.
      const latest = `${CDN}/p/${slug}/r/latest`;
      expect(call!.urls!.sort()).toEqual([...["de", "en"].flatMap((c) => ["arb", "json", "yaml"].map((e) => `${latest}/${c}.${e}`)), `${latest}/manifest.json`, `${latest}/manifest.json.minisig`, `${CDN}/p/${slug}/key.pub`].sort());
      expect(call!.urls!.some(pinned)).toBe(false);
      expect(call!.headers["user-agent"]).toBe("Service-Webhooks/1.0");
      expect(call!.headers["x-service-event"]).toBe("cdn_purge");
      expect(call!.headers["content-type"]).toBe("application/json");
      expect(call!.headers["x-service-delivery"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number(call!.headers["x-service-timestamp"])).toBe(Math.floor(m.clock.now() / 1000));

      // A key rotation: key.pub and latest's signature, in one call; keys/2.pub never.
      expect((await m.admin.post(`/projects/${pid}/signing-key/rotate`)).status).toBe(200);
      const [rotated] = await calls(hook, 1);
      expect(rotated!.urls!.sort()).toEqual([`${CDN}/p/${slug}/key.pub`, `${latest}/manifest.json.minisig`]);
    } finally {
      await m.t.close();
      await hook.stop();
    }
  });

  test("a purge the API does not answer in time is tried again: the same delivery id, a new timestamp and signature", async () => {
    const hook = httpPurgeStandIn("s3cret");
    const clock = new ManualClock();
    const t = await testApp({ clock });
    const seen: { delivery: string; timestamp: string; signature: string }[] = [];
    const queue = new PurgeQueue(
      t.deps.db,
      http,
      { ...t.deps.settings, purge: "http", purgeUrl: hook.api, purgeSecret: "s3cret" },
      (input, init) => {
        const h = init!.headers as Record<string, string>;
        seen.push({ delivery: h["x-service-delivery"]!, timestamp: h["x-service-timestamp"]!, signature: h["x-service-signature"]! });
        return fetch(input, init);
      },
      clock,
      200, // a short wait for the answer
    );
    try {
      hook.slowNext(1000);
      t.deps.db.transaction(() => queue.enqueue(["p/abc/r/latest/de.json"]));
      queue.start();
      await eventually(() => t.query<{ last_error: string | null }>("SELECT last_error FROM purge_queue")[0]?.last_error, { what: "the first attempt failing" });
      expect(t.query<{ last_error: string }>("SELECT last_error FROM purge_queue")[0]!.last_error).toBe("no answer within 0.2 s");
      clock.advance(1000);
      await calls(hook, 1);
      expect(seen.length).toBe(2);
      expect(seen[1]!.delivery).toBe(seen[0]!.delivery);
      expect(seen[1]!.timestamp).toBe(String(Math.floor(clock.now() / 1000)));
      expect(seen[1]!.timestamp).not.toBe(seen[0]!.timestamp);
      expect(seen[1]!.signature).not.toBe(seen[0]!.signature);
      await eventually(() => t.query("SELECT * FROM purge_queue").length === 0, { what: "the purge done" });
    } finally {
      await queue.stop();
      await t.close();
      await hook.stop();
    }
  });
});
