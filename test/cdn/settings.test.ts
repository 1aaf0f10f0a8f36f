import { describe, expect, test } from "bun:test";
import { harness, importJson, lang, projectSlug, publish, url } from "../publish/fixtures.ts";

describe("CDN settings (CONTRACTS 1)", () => {
  test("CONTRACTS 1: with PHRASEBOOK_CDN_URL at a host root, files are served at /p/... and the rest of the app still answers", async () => {
    // A separate CDN host that forwards to this server: download URLs name it, paths start at /p/.
    const cdnUrl = "https://cdn.example.test";
    const { server, admin } = await harness({ env: { PHRASEBOOK_CDN_URL: cdnUrl } });
    try {
      const pid = await admin.project("Root CDN", "en");
      await importJson(admin, pid, "en", { a: "A" });
      const r = await publish(admin, pid, "v1");
      const slug = await projectSlug(admin, pid);
      expect(url(lang(r, "en"))).toBe(`${cdnUrl}/p/${slug}/r/${r.slug}/en.json`);
      const local = (u: string) => u.replace(cdnUrl, server.url);
      expect(await (await fetch(local(url(lang(r, "en"))))).json()).toEqual({ a: "A" });
      expect(await (await fetch(`${server.url}/p/${slug}/r/latest/en.json`)).json()).toEqual({ a: "A" });
      expect((await fetch(`${server.url}/cdn/p/${slug}/r/latest/en.json`)).status).toBe(404);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  test("CONTRACTS 1: PHRASEBOOK_CDN_CACHE_MB=0 turns the memory cache off; files are still served and purges still show", async () => {
    const { server, admin } = await harness({ env: { PHRASEBOOK_CDN_CACHE_MB: "0" } });
    try {
      const pid = await admin.project("No cache", "en");
      await importJson(admin, pid, "en", { v: "1" });
      const r = await publish(admin, pid, "v1");
      const latest = `${server.url}/cdn/p/${await projectSlug(admin, pid)}/r/latest/en.json`;
      for (let i = 0; i < 3; i++) expect(await (await fetch(latest)).json()).toEqual({ v: "1" });
      const etag = (await fetch(url(lang(r, "en")))).headers.get("etag")!;
      expect((await fetch(url(lang(r, "en")), { headers: { "if-none-match": etag } })).status).toBe(304);
      await importJson(admin, pid, "en", { v: "2" });
      await publish(admin, pid, "v2");
      expect(await (await fetch(latest)).json()).toEqual({ v: "2" });
    } finally {
      await server.stop();
    }
  });
});
