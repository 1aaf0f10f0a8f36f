/**
 * Where the mirror meets signed delivery (docs/deploy.md "Object storage and CDN purge",
 * docs/delivery.md "Object storage"): `PHRASEBOOK_CDN_URL` names the bucket, read through
 * s3rver's own GET as a CDN in front of a bucket reads it, so apps and the client read nothing of
 * the server's. A project publishes, moves a channel and rotates its signing key; after each, the
 * bucket is walked side by side with the server's CDN (bytes, Content-Type, Cache-Control),
 * manifests, signatures and key files included. `minisign -V` accepts the bucket's manifests with
 * the bucket's key.pub; the web loader (`/client/ota.mjs`), trusting the first key and reading the
 * bucket only, follows the rotation and loads checked strings; `phrasebook verify --cdn-url` of
 * the bucket exits 0. A file swapped in the bucket is refused by both (verify: exit 3), and
 * `phrasebook mirror sync` puts it back. (Purges after a key rotation: test/targets/purge.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cdnRenderer } from "../../src/delivery/cdn-renderer.ts";
import { mirrorLocation } from "../../src/targets/mirror/location.ts";
import { syncMirror } from "../../src/targets/mirror/sync.ts";
import { phrasebook } from "../cli/client.ts";
import { ManualClock, TEST_DIR_ROOT, testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { BUCKET, bucketObject, expectBucketIsCdn, mirrored, mirrorEnv, servedPaths } from "../helpers/mirror.ts";
import { importJson, projectSlug, publish } from "../helpers/releases.ts";
import { startS3, type S3Server } from "../helpers/s3.ts";
import { freePort } from "../helpers/server.ts";

let s3: S3Server;
let t: TestApp;
let server: ReturnType<typeof Bun.serve>;
let admin: DashboardClient;
let clock: ManualClock;
let work: string;
/** The CDN in front of the bucket: the bucket's objects under the prefix, by s3rver's anonymous GET. */
let bucketCdn: string;
const prefix = `signed-${crypto.randomUUID().slice(0, 8)}`;
let pid: string;
let slug: string;
/** The key line of key 1, as an app built before the rotation trusts it. */
let firstKey: string;
let env: Record<string, string>;
let ota: { createLoader(options: Record<string, unknown>): { load(language: string): Promise<any> } };

beforeAll(async () => {
  s3 = await startS3([BUCKET]);
  bucketCdn = `${s3.endpoint}/${BUCKET}/${prefix}`;
  const origin = `http://127.0.0.1:${await freePort()}`;
  clock = new ManualClock();
  t = await testApp({ clock, env: { ...mirrorEnv(s3, prefix), PHRASEBOOK_CDN_URL: bucketCdn, PHRASEBOOK_PUBLIC_URL: origin } });
  t.deps.targets.start();
  server = Bun.serve({ hostname: "127.0.0.1", port: Number(new URL(origin).port), fetch: (request) => t.app.handle(request) });
  admin = await t.login();
  pid = (await admin.post("/projects", { name: "Signed app", base_language_code: "en", message_syntax: "icu" })).body.id;
  await admin.post(`/projects/${pid}/languages`, { code: "de" });
  await importJson(admin, pid, "en", { title: "Title", hello: "Hello {name}" });
  await importJson(admin, pid, "de", { title: "Titel", hello: "Hallo {name}" });
  slug = await projectSlug(admin, pid);
  firstKey = (await admin.get(`/projects/${pid}/signing-key`)).body.public_key;
  const token = (await admin.post(`/projects/${pid}/tokens`, { name: "verify", scopes: ["read"] })).body.token;
  env = { PHRASEBOOK_SERVER: origin, PHRASEBOOK_TOKEN: token };
  work = mkdtempSync(join(TEST_DIR_ROOT, "phrasebook-signed-mirror-"));
  const otaPath = join(work, "ota.mjs");
  writeFileSync(otaPath, new Uint8Array(await (await t.fetch("/client/ota.mjs")).arrayBuffer()));
  ota = await import(otaPath);
});
afterAll(async () => {
  server?.stop(true);
  await t?.close();
  await s3?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The server's own CDN, under the path of `PHRASEBOOK_CDN_URL`. */
const cdn = (path: string) => t.fetch(`/${BUCKET}/${prefix}/${path}`, { headers: { "accept-encoding": "identity" } });

async function walk(): Promise<string[]> {
  await mirrored((sql) => t.query(sql), clock);
  const paths = await servedPaths(admin, pid, cdn);
  await expectBucketIsCdn(s3, prefix, paths, cdn);
  return paths;
}

const fromBucket = async (path: string) => new TextDecoder().decode((await bucketObject(s3, `${prefix}/${path}`)).body);

/** `minisign -V` of a manifest in the bucket, with the bucket's key.pub: its exit code and output. */
async function minisignOfBucket(dir: string): Promise<{ code: number; out: string }> {
  const at = mkdtempSync(join(work, "minisign-"));
  writeFileSync(join(at, "manifest.json"), await fromBucket(`${dir}/manifest.json`));
  writeFileSync(join(at, "manifest.json.minisig"), await fromBucket(`${dir}/manifest.json.minisig`));
  writeFileSync(join(at, "key.pub"), await fromBucket(`p/${slug}/key.pub`));
  const proc = Bun.spawn(["minisign", "-V", "-p", join(at, "key.pub"), "-m", join(at, "manifest.json")], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out: out + err };
}

const verify = (args: string[] = []) => phrasebook(["verify", "--public-key", firstKey, "--cdn-url", s3.endpoint, ...args], { cwd: work, env });

let channelSlug: string;
let v1: any;

describe("signed manifests in the bucket", () => {
  test("a publish, a channel, a key rotation and moves reach the bucket as the CDN serves them; minisign -V takes the bucket's manifests with its key.pub", async () => {
    v1 = await publish(admin, pid, "v1");
    // download_urls name the bucket's CDN, and so do the manifests.
    expect(v1.languages[0].download_urls.json.startsWith(`${bucketCdn}/p/${slug}/r/`)).toBe(true);
    const channel = await admin.put(`/projects/${pid}/channels/beta`, { release_id: v1.id });
    channelSlug = new URL(channel.body.urls.de.json).pathname.split("/").at(-2)!;
    let paths = await walk();
    const v1Slug = new URL(v1.languages[0].download_urls.json).pathname.split("/").at(-2);
    const signed = (dir: string) => [`${dir}/manifest.json`, `${dir}/manifest.json.minisig`];
    expect(paths.filter((p) => /manifest\.json|key/.test(p))).toEqual(
      [...signed(`p/${slug}/c/${channelSlug}`), `p/${slug}/key.pub`, `p/${slug}/keys/1.pub`, ...signed(`p/${slug}/r/latest`), ...signed(`p/${slug}/r/${v1Slug}`)].sort(),
    );

    expect((await admin.post(`/projects/${pid}/signing-key/rotate`)).status).toBe(200);
    paths = await walk(); // key 2 and its signature by key 1; latest and beta signed again
    expect(paths).toEqual(expect.arrayContaining([`p/${slug}/keys/2.pub`, `p/${slug}/keys/2.pub.minisig`]));
    expect(await fromBucket(`p/${slug}/key.pub`)).not.toContain(firstKey);

    await importJson(admin, pid, "de", { title: "Titel 2", hello: "Hallo {name}" });
    clock.advance(1000);
    const v2 = await publish(admin, pid, "v2");
    await admin.put(`/projects/${pid}/channels/beta`, { release_id: v2.id });
    await walk();

    for (const dir of [`p/${slug}/r/latest`, `p/${slug}/c/${channelSlug}`]) {
      const run = await minisignOfBucket(dir);
      expect({ dir, code: run.code }).toEqual({ dir, code: 0 });
      expect(run.out).toContain("Signature and comment signature verified");
      expect(run.out).toContain(`path=${dir}/manifest.json`); // the trusted comment names where it belongs
    }
  });

  test("the web loader, reading the bucket only and trusting key 1, follows the rotation and loads checked strings; verify --cdn-url of the bucket exits 0", async () => {
    const loader = ota.createLoader({ cdnUrl: bucketCdn, projectSlug: slug, publicKey: firstKey, format: "json" });
    const loaded = await loader.load("de");
    expect(loaded).toMatchObject({ messages: { title: "Titel 2", hello: "Hallo {name}" }, release: { tag: "v2" }, from: "network", error: null });
    const beta = await ota.createLoader({ cdnUrl: bucketCdn, projectSlug: slug, channelSlug, publicKey: firstKey }).load("en");
    expect(beta).toMatchObject({ messages: { title: "Title" }, release: { tag: "v2" }, error: null });

    const run = await verify();
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`ok p/${slug}/r/latest/manifest.json: signed by key `);
    expect(run.stdout).toContain("verified 6 file(s)");
    expect((await verify(["--release", "v1"])).code).toBe(0); // v1's pinned manifest, signed by key 1
  });

  test("a file swapped in the bucket is refused by the loader (it keeps the last good strings) and by verify (exit 3); mirror sync puts it back", async () => {
    const loader = ota.createLoader({ cdnUrl: bucketCdn, projectSlug: slug, publicKey: firstKey });
    expect((await loader.load("de")).messages.title).toBe("Titel 2");
    await importJson(admin, pid, "de", { title: "Titel 3", hello: "Hallo {name}" });
    clock.advance(1000);
    const v3 = await publish(admin, pid, "v3");
    await walk();
    // The bucket's copy of v3's pinned de.json is replaced (a compromised bucket, a bad hand copy).
    const pinned = new URL(v3.languages.find((l: any) => l.code === "de").download_urls.json).pathname.slice(`/${BUCKET}/`.length);
    await s3.client(BUCKET).write(pinned, JSON.stringify({ title: "Evil", hello: "Hallo {name}" }), { type: "application/json; charset=utf-8" });

    const refused = await loader.load("de");
    expect(refused).toMatchObject({ messages: { title: "Titel 2" }, release: { tag: "v2" }, from: "cache" });
    expect(refused.error).toContain("de.json");
    const run = await verify();
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/^FAILED de\.json: /m);
    expect(run.stdout).toContain("1 of 6 file(s) failed");

    // The operator's remedy: the sync finds the object that differs and writes the CDN's.
    const renderer = cdnRenderer({ settings: t.deps.settings, db: t.deps.db, paths: t.deps.changes.paths });
    const synced = await syncMirror({ db: t.deps.db, clock, settings: t.deps.settings, renderer, fetch }, mirrorLocation(t.deps.settings)!, { keepStray: false });
    expect(synced).toMatchObject({ copied: 1, deleted: 0, failures: [], settled: true });
    expect((await verify()).code).toBe(0);
    expect(await loader.load("de")).toMatchObject({ messages: { title: "Titel 3" }, release: { tag: "v3" }, error: null });
  });
});
