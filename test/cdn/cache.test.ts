/** The CDN's pure parts: the bounded memory cache, and content negotiation (src/common/http.ts). */
import { describe, expect, test } from "bun:test";
import { cachedSize, CdnCache, FILE_OVERHEAD_BYTES, type CachedFile, type Route } from "../../src/cdn/cache.ts";
import { EncodingChooser, etagMatches, preferredEncoding } from "../../src/common/http.ts";

function blob(key: string, projectId: number, bytes: number): CachedFile {
  const identity = new Blob([new Uint8Array(bytes)]);
  return { key, projectId, diskPath: `/nowhere/${key}`, identity, gzip: null, br: null, etag: `"${key}"`, size: cachedSize(bytes, 0, 0), hot: false, routes: new Set() };
}

function route(f: CachedFile): Route {
  const ok = new Response(f.identity);
  return { file: f, contentType: "application/json; charset=utf-8", cacheControl: "no-store", identity: { etag: f.etag, bytes: f.identity.size, ok, notModified: new Response(null, { status: 304 }) }, gzip: null, br: null };
}

const KB = 1024;

describe("CDN cache (bounded by PHRASEBOOK_CDN_CACHE_MB)", () => {
  test("the cache never holds more bytes than its budget and evicts the coldest file first", () => {
    const budget = 100 * KB;
    const cache = new CdnCache(budget);
    const files = Array.from({ length: 10 }, (_, i) => blob(`f${i}`, 1, 30 * KB - FILE_OVERHEAD_BYTES));
    cache.add("/f0", route(files[0]!), 0);
    cache.add("/f1", route(files[1]!), 0);
    cache.add("/f2", route(files[2]!), 0);
    expect(cache.usedBytes).toBe(90 * KB);
    cache.route("/f0"); // f0 is hot: gets a second chance
    cache.add("/f3", route(files[3]!), 0);
    expect(cache.usedBytes).toBeLessThanOrEqual(budget);
    expect(cache.route("/f0")).toBeDefined();
    expect(cache.route("/f1")).toBeUndefined();
    for (let i = 4; i < 10; i++) {
      cache.add(`/f${i}`, route(files[i]!), 0);
      expect(cache.usedBytes).toBeLessThanOrEqual(budget);
    }
    expect(cache.fileCount).toBe(3);
  });

  test("a file larger than the whole budget, or a budget of 0, is served but not kept", () => {
    const cache = new CdnCache(10 * KB);
    expect(cache.add("/big", route(blob("big", 1, 20 * KB)), 0)).toBe(false);
    expect(cache.route("/big")).toBeUndefined();
    const none = new CdnCache(0);
    expect(none.add("/a", route(blob("a", 1, 1)), 0)).toBe(false);
    expect(none.usedBytes).toBe(0);
  });

  test("purging a project drops its routes and files at once and refuses fills started before the purge", () => {
    const cache = new CdnCache(1024 * KB);
    const shared = blob("r1/en.json", 1, 100);
    cache.add("/pinned", route(shared), 0);
    cache.add("/latest", route(shared), 0); // pinned and latest share the bytes
    cache.add("/other", route(blob("r9/en.json", 2, 100)), 0);
    expect(cache.fileCount).toBe(2);
    const before = cache.generation(1);
    cache.purgeProject(1);
    expect(cache.route("/pinned")).toBeUndefined();
    expect(cache.route("/latest")).toBeUndefined();
    expect(cache.route("/other")).toBeDefined();
    expect(cache.usedBytes).toBe(cachedSize(100, 0, 0));
    expect(cache.add("/pinned", route(blob("r1/en.json", 1, 100)), before)).toBe(false); // a fill from before the purge
    expect(cache.add("/pinned", route(blob("r1/en.json", 1, 100)), cache.generation(1))).toBe(true);
  });
});

describe("content negotiation (product §3)", () => {
  test("product §3: Accept-Encoding picks br, then gzip, honours q-values, q=0 and *", () => {
    expect(preferredEncoding(null)).toBe("identity");
    expect(preferredEncoding("")).toBe("identity");
    expect(preferredEncoding("gzip, deflate, br")).toBe("br");
    expect(preferredEncoding("gzip")).toBe("gzip");
    expect(preferredEncoding("x-gzip")).toBe("gzip");
    expect(preferredEncoding("br;q=0.5, gzip;q=0.8")).toBe("gzip");
    expect(preferredEncoding("br;q=0, gzip;q=0")).toBe("identity");
    expect(preferredEncoding("*")).toBe("br");
    expect(preferredEncoding("gzip;q=0, *")).toBe("br");
    expect(preferredEncoding("identity")).toBe("identity");
    expect(preferredEncoding("deflate, zstd")).toBe("identity");
    expect(preferredEncoding("GZIP ; Q=1")).toBe("gzip");
  });

  test("product §3: the CDN's remembering chooser gives the same answers, also past its bound of remembered headers", () => {
    const chooser = new EncodingChooser();
    const headers = [null, "", "gzip, deflate, br", "gzip", "br;q=0, gzip;q=0", "gzip;q=0, *", "identity", "GZIP ; Q=1"];
    for (let round = 0; round < 3; round++) {
      for (const h of headers) expect(chooser.choose(h), String(h)).toBe(preferredEncoding(h));
      // Many distinct values (as a scanner would send): the memo is cleared, answers stay right.
      for (let i = 0; i < 300; i++) expect(chooser.choose(`gzip;q=0.${i % 10}, br;q=0, x-${i}`)).toBe(i % 10 === 0 ? "identity" : "gzip");
    }
  });

  test("product §3: If-None-Match matches by weak comparison, in lists and with *", () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(etagMatches("*", '"abc"')).toBe(true);
    expect(etagMatches('"abcd"', '"abc"')).toBe(false);
    expect(etagMatches("abc", '"abc"')).toBe(false);
  });
});
