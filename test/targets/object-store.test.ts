/**
 * The object store below the publish targets (docs/architecture.md "Publish targets"), in its two
 * kinds, a folder and S3-compatible storage, held to the same contract; the S3 kind against a real
 * S3-compatible server (s3rver on loopback), through Bun's own S3 client. Then the proxy that
 * corrects s3rver's delimited listings (test/helpers/s3.ts `startListingProxy`, which the restore
 * drill's Litestream needs): the store and Bun's client work through it, and list there as they
 * would from S3. Then the replica's release copies on that server: a publish copies its files to
 * the bucket before it is published.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { signRequest, EMPTY_PAYLOAD_SHA256, uriEncode } from "../../src/targets/mirror/sigv4.ts";
import { objectStore, type ObjectLocation } from "../../src/targets/object-store.ts";
import { replicaLocation } from "../../src/targets/replica.ts";
import { testApp, testDir } from "../helpers/app.ts";
import { publish } from "../helpers/releases.ts";
import { S3_ACCESS_KEY_ID, S3_REGION, S3_SECRET_ACCESS_KEY, startListingProxy, startS3, type S3ListingProxy, type S3Server } from "../helpers/s3.ts";

let s3: S3Server;
let proxy: S3ListingProxy;
const folders: string[] = [];
beforeAll(async () => {
  s3 = await startS3(["objects", "replica"]);
  proxy = startListingProxy(s3.endpoint);
});
afterAll(async () => {
  await proxy.stop();
  await s3.close();
  for (const d of folders) rmSync(d, { recursive: true, force: true });
});

const kinds: [string, () => ObjectLocation][] = [
  [
    "a folder",
    () => {
      const path = testDir("phrasebook-objects-");
      folders.push(path);
      return { kind: "folder", path };
    },
  ],
  ["S3 (s3rver), with a prefix", () => ({ kind: "s3", bucket: "objects", path: `pre/${crypto.randomUUID()}`, endpoint: s3.endpoint, region: S3_REGION, accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY })],
];

describe.each(kinds)("the object store in %s", (_, location) => {
  test("put, get, children one level deep, delete and removeAll; absent objects are null, deleting one is no error", async () => {
    const store = objectStore(location());
    const bytes = new TextEncoder().encode('{"a":"ä"}');
    await store.put("p/abc/r/latest/de.json", bytes, { contentType: "application/json; charset=utf-8" });
    await store.put("p/abc/r/latest/en.json", new Uint8Array([1, 2, 3]));
    await store.put("p/abc/c/x/en.json", new Uint8Array([4]));
    expect(await store.get("p/abc/r/latest/de.json")).toEqual(bytes);
    expect(await store.get("p/abc/r/latest/fr.json")).toBeNull();
    // One level deep (s3rver, unlike S3, lists a folder-like prefix only when an object sits right
    // under it, so the names asked for here have one).
    await store.put("p/abc/r/x.json", new Uint8Array([5]));
    await store.put("p/abc/c/y.json", new Uint8Array([6]));
    expect((await store.children("p/abc")).sort()).toEqual(["c", "r"]);
    expect((await store.children("p/abc/r/latest/")).sort()).toEqual(["de.json", "en.json"]);
    expect(await store.children("p/none")).toEqual([]);
    // A put replaces the object whole.
    await store.put("p/abc/r/latest/en.json", new Uint8Array([9]));
    expect(await store.get("p/abc/r/latest/en.json")).toEqual(new Uint8Array([9]));
    await store.delete("p/abc/r/latest/en.json");
    await store.delete("p/abc/r/latest/en.json");
    expect(await store.get("p/abc/r/latest/en.json")).toBeNull();
    await store.removeAll("p/abc/r");
    expect(await store.children("p/abc")).toEqual(["c"]);
  });
});

describe("s3rver's delimited listings, straight and through the proxy that corrects them", () => {
  const at = (endpoint: string, path: string): ObjectLocation => ({ kind: "s3", bucket: "objects", path, endpoint, region: S3_REGION, accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY });

  test("children names a folder whose objects all lie deeper, as S3 and a folder do; s3rver alone misses it", async () => {
    const path = `deep/${crypto.randomUUID()}`;
    const store = objectStore(at(proxy.endpoint, path));
    // Litestream's layout: a generation's folder holds folders only.
    await store.put("generations/0123456789abcdef/snapshots/00000000.snapshot.lz4", new Uint8Array([1]));
    await store.put("generations/0123456789abcdef/wal/00000000_00000000.wal.lz4", new Uint8Array([2]));
    await store.put("generations/fedcba9876543210/wal/00000001_00000000.wal.lz4", new Uint8Array([3]));
    await store.put("generations/top.txt", new Uint8Array([4]));
    const before = proxy.listings();
    expect((await store.children("generations")).sort()).toEqual(["0123456789abcdef", "fedcba9876543210", "top.txt"]);
    expect(proxy.listings()).toBe(before + 1); // answered by the proxy, not passed through
    expect((await store.children("generations/0123456789abcdef")).sort()).toEqual(["snapshots", "wal"]);
    expect(await store.get("generations/top.txt")).toEqual(new Uint8Array([4])); // HEAD, then GET, passed through
    // The bug the proxy corrects: straight from s3rver, only the object right under the prefix.
    expect(await objectStore(at(s3.endpoint, path)).children("generations")).toEqual(["top.txt"]);
  });

  test("every other request passes through as sent, and its answer as s3rver gave it, lengths included", async () => {
    const key = `through/${crypto.randomUUID()}/big.bin`;
    const viaProxy = new Bun.S3Client({ bucket: "objects", endpoint: proxy.endpoint, accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY, region: S3_REGION });
    const big = new Uint8Array(300_000).fill(7);
    const before = proxy.listings();
    await viaProxy.write(key, big, { type: "application/octet-stream" });
    expect(new Uint8Array(await s3.client("objects").file(key).arrayBuffer())).toEqual(big);
    const stat = await viaProxy.file(key).stat(); // HEAD
    expect({ size: stat.size, type: stat.type }).toEqual({ size: big.length, type: "application/octet-stream" });
    const got = await fetch(viaProxy.presign(key));
    expect(got.headers.get("content-length")).toBe(String(big.length)); // Litestream's client needs it
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(big);
    expect((await viaProxy.list({ prefix: key })).contents?.map((c) => c.key)).toEqual([key]); // no delimiter: s3rver's own answer
    await viaProxy.delete(key);
    expect(await s3.client("objects").file(key).exists()).toBe(false);
    expect(proxy.listings()).toBe(before);
  });

  test("pages count keys and common prefixes together, in the keys' byte order, V2 (Bun's client) and V1 (Litestream's) alike", async () => {
    const base = `paged/${crypto.randomUUID()}/`;
    const client = s3.client("objects");
    // Written out of order; "é" sorts after "z" in UTF-8 (and "/" before "0").
    for (const key of ["z", "é/1", "b/2/3", "a", "b/1", "b0", "c/x/y/z", "d", "é"]) await client.write(`${base}${key}`, key);
    const expected = ["a", "b/", "b0", "c/", "d", "z", "é", "é/"];

    const v2 = new Bun.S3Client({ bucket: "objects", endpoint: proxy.endpoint, accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY, region: S3_REGION });
    const seen: string[] = [];
    const pageSizes: number[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await v2.list({ prefix: base, delimiter: "/", maxKeys: 3, continuationToken });
      const names = [...(page.contents ?? []).map((c) => c.key), ...(page.commonPrefixes ?? []).map((p) => p.prefix)].map((n) => n.slice(base.length));
      seen.push(...names.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
      pageSizes.push(names.length);
      continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
    } while (continuationToken);
    expect(seen).toEqual(expected);
    expect(pageSizes).toEqual([3, 3, 2]);

    // V1, as Litestream sends it: resumed from NextMarker, which may be a common prefix.
    const v1Page = async (marker: string) => {
      const url = new URL(`${proxy.endpoint}/objects`);
      url.searchParams.set("delimiter", "/");
      url.searchParams.set("max-keys", "3");
      url.searchParams.set("prefix", base);
      if (marker) url.searchParams.set("marker", marker);
      const signed = new URL(`${url.origin}/objects?${[...url.searchParams].map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`).join("&")}`);
      const headers = signRequest({ method: "GET", url: signed, headers: {}, payloadSha256: EMPTY_PAYLOAD_SHA256 }, { accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY, region: S3_REGION }, Date.now());
      const res = await fetch(signed, { headers });
      expect(res.status).toBe(200);
      const xml = await res.text();
      const all = (tag: string) => [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, "g"))].map((m) => m[1]!);
      return { names: [...all("Key"), ...all("Prefix").filter((p) => p !== base)].map((n) => n.slice(base.length)), next: all("NextMarker")[0], truncated: all("IsTruncated")[0] === "true" };
    };
    const v1: string[] = [];
    const markers: string[] = [];
    let marker = "";
    for (;;) {
      const page = await v1Page(marker);
      v1.push(...page.names.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
      if (!page.truncated) break;
      marker = page.next!;
      markers.push(marker.slice(base.length));
    }
    expect(v1).toEqual(expected);
    expect(markers).toEqual(["b0", "z"]);
    expect((await v1Page(`${base}b/`)).names.sort()).toEqual(["b0", "c/", "d"]); // after a common prefix: nothing under it again

    // Wrong keys: s3rver's own refusal, passed on.
    const stranger = new Bun.S3Client({ bucket: "objects", endpoint: proxy.endpoint, accessKeyId: "nobody", secretAccessKey: "wrong", region: S3_REGION });
    await expect(stranger.list({ prefix: base, delimiter: "/" })).rejects.toThrow();
  });
});

test("S3: the key is the prefix, one slash, then the name; the content type is the object's", async () => {
  const prefix = `typed/${crypto.randomUUID()}`;
  const store = objectStore({ kind: "s3", bucket: "objects", path: prefix, endpoint: s3.endpoint, region: S3_REGION, accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY });
  await store.put("a/b.yaml", new TextEncoder().encode("a: b\n"), { contentType: "application/yaml; charset=utf-8" });
  const stat = await s3.client("objects").file(`${prefix}/a/b.yaml`).stat();
  expect(stat.type).toBe("application/yaml; charset=utf-8");
  expect(stat.size).toBe(5);
});

test("S3: wrong credentials fail the call (a replica that refuses writes is never taken for written)", async () => {
  const store = objectStore({ kind: "s3", bucket: "objects", path: "", endpoint: s3.endpoint, region: S3_REGION, accessKeyId: "nobody", secretAccessKey: "wrong" });
  await expect(store.put("x", new Uint8Array([1]))).rejects.toThrow();
});

test("the replica's release copies on S3: a publish copies every file and the copy's manifest to the bucket before it is published", async () => {
  const path = `replica-${crypto.randomUUID()}`;
  const env = { PHRASEBOOK_REPLICA_URL: `s3://replica/${path}`, PHRASEBOOK_REPLICA_S3_ENDPOINT: s3.endpoint, PHRASEBOOK_REPLICA_S3_REGION: S3_REGION };
  // The replica's keys are Litestream's: LITESTREAM_*, else AWS_*.
  expect(replicaLocation({ replicaUrl: env.PHRASEBOOK_REPLICA_URL, replicaS3Endpoint: s3.endpoint, replicaS3Region: S3_REGION }, { AWS_ACCESS_KEY_ID: "a", LITESTREAM_ACCESS_KEY_ID: "l", AWS_SECRET_ACCESS_KEY: "s" })).toMatchObject({
    kind: "s3",
    bucket: "replica",
    path,
    accessKeyId: "l",
    secretAccessKey: "s",
  });
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  process.env.AWS_ACCESS_KEY_ID = S3_ACCESS_KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY = S3_SECRET_ACCESS_KEY;
  const t = await testApp({ env });
  try {
    const admin = await t.login();
    const pid = await admin.project("Replicated", "en", ["de"]);
    await admin.key(pid, "k", { en: "K", de: "K-de" });
    const v1 = await publish(admin, pid, "v1");
    const bucket = s3.client("replica");
    const listed = await bucket.list({ prefix: `${path}/releases/${v1.id}/` });
    const names = (listed.contents ?? []).map((c) => c.key.slice(`${path}/releases/${v1.id}/`.length)).sort();
    expect(names).toEqual(["_manifest.json", "de.arb", "de.json", "de.yaml", "en.arb", "en.json", "en.yaml"]);
    const local = await Bun.file(`${t.dataDir}/releases/${v1.id}/de.json`).bytes();
    expect(new Uint8Array(await bucket.file(`${path}/releases/${v1.id}/de.json`).arrayBuffer())).toEqual(local);
  } finally {
    await t.close();
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    else process.env.AWS_ACCESS_KEY_ID = saved.id;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
    else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  }
});
