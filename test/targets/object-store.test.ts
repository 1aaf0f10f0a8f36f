/**
 * The object store below the publish targets (docs/architecture.md "Publish targets"), in its two
 * kinds, a folder and S3-compatible storage, held to the same contract; the S3 kind against a real
 * S3-compatible server (s3rver on loopback), through Bun's own S3 client. Then the replica's
 * release copies on that server: a publish copies its files to the bucket before it is published.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { objectStore, type ObjectLocation } from "../../src/targets/object-store.ts";
import { replicaLocation } from "../../src/targets/replica.ts";
import { testApp, testDir } from "../helpers/app.ts";
import { publish } from "../helpers/releases.ts";
import { S3_ACCESS_KEY_ID, S3_REGION, S3_SECRET_ACCESS_KEY, startS3, type S3Server } from "../helpers/s3.ts";

let s3: S3Server;
const folders: string[] = [];
beforeAll(async () => {
  s3 = await startS3(["objects", "replica"]);
});
afterAll(async () => {
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
