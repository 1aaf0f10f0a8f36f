/**
 * The mirror's and the purge's settings (docs/deploy.md "Object storage and CDN purge"): what
 * each turns on, their defaults, and each bad value stopping the start with one line that names
 * the setting and never echoes a secret. Also the surrogate keys Fastly purges by, and the
 * bucket's addresses in both request styles.
 */
import { describe, expect, test } from "bun:test";
import { surrogateKey } from "../../src/bundles/urls.ts";
import { loadSettings } from "../../src/config/settings.ts";
import { Bucket } from "../../src/targets/mirror/bucket.ts";
import { mirrorLocation } from "../../src/targets/mirror/location.ts";
import { mirror } from "../../src/targets/mirror.ts";
import { cloudflare } from "../../src/targets/purge/cloudflare.ts";
import { fastly } from "../../src/targets/purge/fastly.ts";

const BASE = { PHRASEBOOK_DATA_DIR: "/tmp/phrasebook-settings-test" };
const load = (env: Record<string, string>) => loadSettings({ ...BASE, ...env });

describe("settings", () => {
  test("the mirror is off without a bucket; with one, keys fall back to AWS_*, path style, us-east-1, no prefix", () => {
    expect(mirrorLocation(load({}))).toBeUndefined();
    const settings = load({ PHRASEBOOK_S3_BUCKET: "files", PHRASEBOOK_S3_PREFIX: "/cdn/prod/" });
    expect(mirrorLocation(settings, { AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s" })).toEqual({
      endpoint: undefined,
      bucket: "files",
      region: "us-east-1",
      prefix: "cdn/prod",
      accessKeyId: "a",
      secretAccessKey: "s",
      virtualHosted: false,
    });
    const own = load({ PHRASEBOOK_S3_BUCKET: "files", PHRASEBOOK_S3_ACCESS_KEY_ID: "mine", PHRASEBOOK_S3_SECRET_ACCESS_KEY: "mine-s", PHRASEBOOK_S3_VIRTUAL_HOSTED: "true", PHRASEBOOK_S3_REGION: "auto" });
    expect(mirrorLocation(own, { AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s" })).toMatchObject({ accessKeyId: "mine", secretAccessKey: "mine-s", virtualHosted: true, region: "auto" });
  });

  const bad: [Record<string, string>, string][] = [
    [{ PHRASEBOOK_S3_BUCKET: "Not_A_Bucket" }, "PHRASEBOOK_S3_BUCKET: must be a bucket name"],
    [{ PHRASEBOOK_S3_ENDPOINT: "http://minio:9000" }, "PHRASEBOOK_S3_BUCKET: is required when PHRASEBOOK_S3_ENDPOINT is set"],
    [{ PHRASEBOOK_S3_ENDPOINT: "minio:9000", PHRASEBOOK_S3_BUCKET: "files" }, "PHRASEBOOK_S3_ENDPOINT: must be an absolute http(s) URL"],
    [{ PHRASEBOOK_S3_BUCKET: "files", PHRASEBOOK_S3_PREFIX: "a/../b" }, "PHRASEBOOK_S3_PREFIX: must be folder names"],
    [{ PHRASEBOOK_S3_BUCKET: "files", PHRASEBOOK_S3_PREFIX: "a b" }, "PHRASEBOOK_S3_PREFIX: must be folder names"],
    [{ PHRASEBOOK_S3_BUCKET: "files", PHRASEBOOK_S3_PREFIX: "x".repeat(513) }, "PHRASEBOOK_S3_PREFIX: must be folder names"],
    [{ PHRASEBOOK_S3_BUCKET: "files", PHRASEBOOK_S3_VIRTUAL_HOSTED: "maybe" }, "PHRASEBOOK_S3_VIRTUAL_HOSTED: must be true or false"],
    // The replica in the same bucket: sync would delete it, or the mirror's objects would sit among its files.
    [{ PHRASEBOOK_REPLICA_URL: "s3://files/replica", PHRASEBOOK_S3_BUCKET: "files" }, "PHRASEBOOK_S3_PREFIX: the mirror would share its prefix with the replica"],
    [{ PHRASEBOOK_REPLICA_URL: "s3://files/cdn/replica", PHRASEBOOK_S3_BUCKET: "files", PHRASEBOOK_S3_PREFIX: "cdn" }, "PHRASEBOOK_S3_PREFIX: the mirror would share"],
    [{ PHRASEBOOK_REPLICA_URL: "s3://files", PHRASEBOOK_S3_BUCKET: "files", PHRASEBOOK_S3_PREFIX: "cdn" }, "PHRASEBOOK_S3_PREFIX: the mirror would share"],
    [{ PHRASEBOOK_PURGE: "akamai" }, "PHRASEBOOK_PURGE: must be one of cloudflare, fastly, http"],
    [{ PHRASEBOOK_PURGE: "cloudflare", PHRASEBOOK_PURGE_TOKEN: "t" }, "PHRASEBOOK_PURGE_ZONE: is required when PHRASEBOOK_PURGE is cloudflare"],
    [{ PHRASEBOOK_PURGE: "cloudflare", PHRASEBOOK_PURGE_ZONE: "z" }, 'PHRASEBOOK_PURGE_TOKEN: is required when PHRASEBOOK_PURGE is cloudflare (got "[hidden]")'],
    [{ PHRASEBOOK_PURGE: "fastly", PHRASEBOOK_PURGE_TOKEN: "t" }, "PHRASEBOOK_PURGE_SERVICE: is required when PHRASEBOOK_PURGE is fastly"],
    [{ PHRASEBOOK_PURGE: "http" }, "PHRASEBOOK_PURGE_URL: is required when PHRASEBOOK_PURGE is http"],
    [{ PHRASEBOOK_PURGE: "http", PHRASEBOOK_PURGE_URL: "ftp://purge?token=abc" }, 'PHRASEBOOK_PURGE_URL: must be an absolute http(s) URL (got "[hidden]")'],
    [{ PHRASEBOOK_PURGE: "fastly", PHRASEBOOK_PURGE_SERVICE: "s", PHRASEBOOK_PURGE_TOKEN: "t", PHRASEBOOK_PURGE_API: "api.fastly.com" }, "PHRASEBOOK_PURGE_API: must be an absolute http(s) URL"],
  ];
  for (const [env, message] of bad) {
    test(`${JSON.stringify(env).slice(0, 90)}: ${message}`, () => {
      expect(() => load(env)).toThrow(message);
    });
  }

  test("the replica and the mirror in one bucket, each in a folder of its own, are fine", () => {
    expect(load({ PHRASEBOOK_REPLICA_URL: "s3://files/replica", PHRASEBOOK_S3_BUCKET: "files", PHRASEBOOK_S3_PREFIX: "cdn" }).s3Prefix).toBe("cdn");
    expect(load({ PHRASEBOOK_REPLICA_URL: "s3://files/cdnreplica", PHRASEBOOK_S3_BUCKET: "files", PHRASEBOOK_S3_PREFIX: "cdn" }).s3Prefix).toBe("cdn");
  });

  test("a bucket without keys stops the start with one line", () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    try {
      const settings = load({ PHRASEBOOK_S3_BUCKET: "files" });
      expect(() => mirror.make({ settings, db: undefined as never, clock: undefined as never, fetch: fetch, renderer: undefined as never })).toThrow(
        "PHRASEBOOK_S3_ACCESS_KEY_ID and PHRASEBOOK_S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) are required with PHRASEBOOK_S3_BUCKET",
      );
    } finally {
      if (saved.id !== undefined) process.env.AWS_ACCESS_KEY_ID = saved.id;
      if (saved.secret !== undefined) process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    }
  });
});

describe("addresses", () => {
  test("objects are {prefix}/{path}; requests path style by default, virtual-hosted when asked, AWS when no endpoint", async () => {
    const urls: string[] = [];
    const record = (input: string | URL | Request) => {
      urls.push(String(input));
      return Promise.resolve(new Response(null, { status: 200 }));
    };
    const base = { bucket: "files", region: "eu-central-1", accessKeyId: "a", secretAccessKey: "s" };
    const paths = new Bucket({ ...base, endpoint: "http://minio.internal:9000", prefix: "cdn", virtualHosted: false }, record);
    await paths.put(paths.key("p/x/r/latest/de.json"), new Uint8Array([1]), {});
    const hosts = new Bucket({ ...base, endpoint: "https://acc.r2.cloudflarestorage.com", prefix: "", virtualHosted: true }, record);
    await hosts.put(hosts.key("p/x/r/latest/de.json"), new Uint8Array([1]), {});
    const aws = new Bucket({ ...base, endpoint: undefined, prefix: "a/b", virtualHosted: true }, record);
    await aws.delete(aws.key("p/x/c/y/pt-BR.yaml"));
    expect(urls).toEqual([
      "http://minio.internal:9000/files/cdn/p/x/r/latest/de.json",
      "https://files.acc.r2.cloudflarestorage.com/p/x/r/latest/de.json",
      "https://files.s3.eu-central-1.amazonaws.com/a/b/p/x/c/y/pt-BR.yaml",
    ]);
  });

  test("surrogate keys: latest's and each channel's, none for pinned files or anything else", () => {
    expect(surrogateKey("p/AbC/r/latest/de.json")).toBe("AbC/latest");
    expect(surrogateKey("p/AbC/r/latest/manifest.json")).toBe("AbC/latest");
    expect(surrogateKey("p/AbC/c/XyZ/de.arb")).toBe("AbC/c/XyZ");
    expect(surrogateKey("p/AbC/r/0123456789abcdef/de.json")).toBeNull();
    // key.pub changes with a rotation, which re-signs latest's manifest: purged with latest.
    expect(surrogateKey("p/AbC/key.pub")).toBe("AbC/latest");
    expect(surrogateKey("p/AbC/keys/2.pub")).toBeNull();
    // Fastly: one call per key, whatever the number of paths under it; pinned paths none.
    const settings = load({});
    expect(fastly.calls(["p/A/r/latest/de.json", "p/A/r/latest/fr.json", "p/A/c/B/de.json", "p/A/r/0123456789abcdef/de.json"], settings)).toEqual([{ key: "A/latest" }, { key: "A/c/B" }]);
    // Cloudflare: 30 URLs a call at most, under the CDN's address.
    const many = Array.from({ length: 61 }, (_, i) => `p/A/r/latest/l${i}.json`);
    expect(cloudflare.calls(many, settings).map((c) => ("urls" in c ? c.urls.length : 0))).toEqual([30, 30, 1]);
    expect(cloudflare.calls(["p/A/r/latest/de.json"], settings)).toEqual([{ urls: [`${settings.cdnUrl}/p/A/r/latest/de.json`] }]);
  });
});
