/**
 * The CDN file endpoints (interface §4.5, product §3) against the app in-process: download URLs
 * name the app's own CDN, so they are fetched from it directly. HEAD alone is asked over a socket
 * (test/helpers/listen.ts): dropping the body of a HEAD answer is the HTTP server's part.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { ORIGIN } from "../helpers/app.ts";
import { listen } from "../helpers/listen.ts";
import { cdnFixture, fetchRaw, importJson, lang, latestUrl, projectSlug, publish, url, type CdnFixture } from "../helpers/releases.ts";

let h: CdnFixture;
/** Shadows the global: every `fetch` below asks the app in-process (the HEAD test uses `globalThis.fetch`). */
let fetch: (target: string, init?: RequestInit) => Promise<Response>;
let pid: string;
let slug: string;
let release: any;
const BIG = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`screen.${i}.title`, `The title of screen number ${i}, shown at the top`]));

beforeAll(async () => {
  h = await cdnFixture();
  fetch = (target, init) => h.t.fetch(target, init);
  pid = await h.admin.project("CDN", "en", ["de", "pt-BR"]);
  await importJson(h.admin, pid, "en", { ...BIG, hello: "Hello" });
  await importJson(h.admin, pid, "de", { hello: "Hallo" });
  release = await publish(h.admin, pid, "v1");
  slug = await projectSlug(h.admin, pid);
});
afterAll(async () => {
  await h.t.close();
});

describe("CDN file endpoints (interface §4.5, product §3)", () => {
  test("interface §4.5 rule 3: pinned files carry Cache-Control public, max-age=31536000, immutable", async () => {
    const res = await fetch(url(lang(release, "de")));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await res.json()).toEqual({ hello: "Hallo" });
  });

  test("interface §4.5 rule 3: latest files carry Cache-Control public, max-age=60, must-revalidate", async () => {
    const res = await fetch(latestUrl(slug, "de"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, must-revalidate");
    expect(await res.json()).toEqual({ hello: "Hallo" });
  });

  test("product §3: Content-Type is JSON for json and arb, YAML for yaml, all UTF-8", async () => {
    const de = lang(release, "de");
    expect((await fetch(url(de, "json"))).headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect((await fetch(url(de, "arb"))).headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect((await fetch(url(de, "yaml"))).headers.get("content-type")).toBe("application/yaml; charset=utf-8");
    expect(await (await fetch(url(lang(release, "pt-BR"), "arb"))).json()).toEqual({ "@@locale": "pt_BR" });
  });

  test("interface §4.5 rule 1 / interface §7: a language the release did not ship is 404 with no-store and a JSON error", async () => {
    for (const target of [`${ORIGIN}/cdn/p/${slug}/r/${release.slug}/fr.json`, latestUrl(slug, "fr", "yaml"), `${ORIGIN}/cdn/p/${slug}/r/${release.slug}/DE.json`]) {
      const res = await fetch(target);
      expect(res.status).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await res.json()).toEqual({ error: "not found" });
    }
  });

  test("interface §3: a draft has no files; unknown slugs are 404", async () => {
    const draft = await h.admin.post(`/projects/${pid}/releases`, { name: "Draft", tag: "draft-cdn" });
    expect(draft.status).toBe(201);
    expect((await fetch(`${ORIGIN}/cdn/p/${slug}/r/AAAAAAAAAAAAAAAA/en.json`)).status).toBe(404);
    expect((await fetch(`${ORIGIN}/cdn/p/AAAAAAAAAAAAAAAA/r/latest/en.json`)).status).toBe(404);
    expect((await fetch(`${ORIGIN}/cdn/p/AAAAAAAAAAAAAAAA/r/${release.slug}/en.json`)).status).toBe(404); // slug of another project
    expect(await (await fetch(latestUrl(slug, "de"))).json()).toEqual({ hello: "Hallo" }); // the draft is not latest
  });

  test("product §3: strong ETag, If-None-Match answers 304 (weak form, lists and * too) and a stale tag gets the file", async () => {
    const target = url(lang(release, "de"));
    const first = await fetch(target);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const res = await fetch(target, { headers: { "if-none-match": inm } });
      expect(res.status).toBe(304);
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(await res.text()).toBe("");
    }
    const stale = await fetch(target, { headers: { "if-none-match": '"stale"' } });
    expect(stale.status).toBe(200);
    // The same bytes under latest have the same tag (only Cache-Control differs).
    expect((await fetch(latestUrl(slug, "de"))).headers.get("etag")).toBe(etag);
  });

  test("product §3: HEAD answers the GET headers without a body", async () => {
    const server = listen(h.t);
    try {
      const target = url(lang(release, "en")).replace(ORIGIN, server.url);
      const over = (method: string) => globalThis.fetch(target, { method, decompress: false } as RequestInit);
      const get = await over("GET");
      const getBody = new Uint8Array(await get.arrayBuffer());
      const head = await over("HEAD");
      expect(head.status).toBe(200);
      expect((await head.arrayBuffer()).byteLength).toBe(0);
      expect(getBody.length).toBeGreaterThan(0);
      expect(head.headers.get("content-length")).toBe(String(getBody.length));
      expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
      expect(head.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(head.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    } finally {
      await server.stop();
    }
  });

  test("product §3: CORS allows any origin, and a preflight is answered", async () => {
    const res = await fetch(url(lang(release, "en")), { headers: { origin: "https://app.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const missing = await fetch(latestUrl(slug, "fr"), { headers: { origin: "https://app.example" } });
    expect(missing.headers.get("access-control-allow-origin")).toBe("*");
    const pre = await fetch(url(lang(release, "en")), { method: "OPTIONS", headers: { origin: "https://app.example", "access-control-request-method": "GET" } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-methods")).toContain("GET");
  });

  test("product §3: gzip and brotli when accepted, precompressed and identical once decoded, with Vary: Accept-Encoding", async () => {
    const target = url(lang(release, "en"));
    const plain = await fetchRaw(h.t, target, { "accept-encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    const br = await fetchRaw(h.t, target, { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toBe("Accept-Encoding");
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(Buffer.from(brotliDecompressSync(br.body)).equals(Buffer.from(plain.body))).toBe(true);
    const gz = await fetchRaw(h.t, target, { "accept-encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(Buffer.from(gunzipSync(gz.body)).equals(Buffer.from(plain.body))).toBe(true);
    const preferGzip = await fetchRaw(h.t, target, { "accept-encoding": "br;q=0.5, gzip" });
    expect(preferGzip.headers.get("content-encoding")).toBe("gzip");
    const refused = await fetchRaw(h.t, target, { "accept-encoding": "br;q=0, gzip;q=0" });
    expect(refused.headers.get("content-encoding")).toBeNull();
    // Each encoding is its own representation with its own strong tag, and revalidates on it.
    const tags = new Set([plain, br, gz].map((r) => r.headers.get("etag")));
    expect(tags.size).toBe(3);
    const again = await fetchRaw(h.t, target, { "accept-encoding": "br", "if-none-match": br.headers.get("etag")! });
    expect(again.status).toBe(304);
    // Compressed once, kept beside the file (product §3: not per request).
    const dir = `${h.t.dataDir}/releases/${release.id}`;
    expect(await Bun.file(`${dir}/en.json.br`).exists()).toBe(true);
    expect(await Bun.file(`${dir}/en.json.gz`).exists()).toBe(true);
  });

  test("docs/cdn.md Headers: each encoding is made on the first request that wants it, once, and then serves every URL of the file", async () => {
    const second = await publish(h.admin, pid, "v-encodings");
    const pinned = url(lang(second, "en"));
    const latest = latestUrl(slug, "en");
    const dir = `${h.t.dataDir}/releases/${second.id}`;
    const plain = await fetchRaw(h.t, pinned, { "accept-encoding": "identity" });
    expect(await Bun.file(`${dir}/en.json.br`).exists()).toBe(false);
    expect(await Bun.file(`${dir}/en.json.gz`).exists()).toBe(false);
    const br = await fetchRaw(h.t, pinned, { "accept-encoding": "br" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(Buffer.from(brotliDecompressSync(br.body)).equals(Buffer.from(plain.body))).toBe(true);
    expect(await Bun.file(`${dir}/en.json.br`).exists()).toBe(true);
    expect(await Bun.file(`${dir}/en.json.gz`).exists()).toBe(false);
    // Ten clients want gzip at once, by the pinned and the latest URL (already cached without it).
    const gz = await Promise.all(Array.from({ length: 10 }, (_, i) => fetchRaw(h.t, i % 2 ? pinned : latest, { "accept-encoding": "gzip" })));
    for (const r of gz) {
      expect(r.headers.get("content-encoding")).toBe("gzip");
      expect(Buffer.from(gunzipSync(r.body)).equals(Buffer.from(plain.body))).toBe(true);
    }
    expect(gz[1]!.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(gz[0]!.headers.get("cache-control")).toBe("public, max-age=60, must-revalidate");
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(dir).filter((f) => f.startsWith("en.json")).sort()).toEqual(["en.json", "en.json.br", "en.json.gz"]);
    expect(readdirSync(dir).filter((f) => f.startsWith(".tmp-"))).toEqual([]);
  });

  test("interface §4.5 rule 2: latest tracks the newest release's languages and drops one it did not ship", async () => {
    const c = h.admin;
    const p = await c.project("Latest languages", "en", ["de"]);
    await importJson(c, p, "en", { a: "one" });
    await importJson(c, p, "de", { a: "eins" });
    await publish(c, p, "v1");
    const s = await projectSlug(c, p);
    expect(await (await fetch(latestUrl(s, "de"))).json()).toEqual({ a: "eins" });
    expect((await c.delete(`/projects/${p}/languages/de`)).status).toBe(204);
    await importJson(c, p, "en", { a: "two" });
    h.clock.advance(1_000);
    await publish(c, p, "v2");
    expect(await (await fetch(latestUrl(s, "en"))).json()).toEqual({ a: "two" });
    const de = await fetch(latestUrl(s, "de"));
    expect(de.status).toBe(404);
    expect(de.headers.get("cache-control")).toBe("no-store");
  });

  test("product §3: latest is the most recently published release, not the most recently created", async () => {
    const c = h.admin;
    const p = await c.project("Latest order", "en");
    const older = await c.post(`/projects/${p}/releases`, { name: "Cut first", tag: "a" });
    const newer = await c.post(`/projects/${p}/releases`, { name: "Cut second", tag: "b" });
    await importJson(c, p, "en", { which: "newer" });
    h.clock.advance(1_000);
    await c.post(`/projects/${p}/releases/${newer.body.id}/publish`);
    await importJson(c, p, "en", { which: "older" });
    h.clock.advance(1_000);
    await c.post(`/projects/${p}/releases/${older.body.id}/publish`);
    expect(await (await fetch(latestUrl(await projectSlug(c, p), "en"))).json()).toEqual({ which: "older" });
  });

  test("a publish is visible on latest at once, although latest was just cached", async () => {
    const c = h.admin;
    const p = await c.project("Purge", "en");
    await importJson(c, p, "en", { v: "1" });
    await publish(c, p, "v1");
    const target = latestUrl(await projectSlug(c, p), "en");
    for (let i = 0; i < 3; i++) expect(await (await fetch(target)).json()).toEqual({ v: "1" });
    await importJson(c, p, "en", { v: "2" });
    h.clock.advance(1_000);
    await publish(c, p, "v2");
    expect(await (await fetch(target)).json()).toEqual({ v: "2" });
  });

  test("product §3: other methods are refused with 405, never 5xx", async () => {
    const res = await fetch(url(lang(release, "en")), { method: "POST", body: "x" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await fetch(url(lang(release, "en")), { method: "DELETE" })).status).toBe(405);
    expect((await fetch(url(lang(release, "en")))).status).toBe(200);
  });
});
