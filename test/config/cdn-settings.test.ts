/** CDN settings (product §1), against the app in-process. */
import { describe, expect, test } from "bun:test";
import { ORIGIN } from "../helpers/app.ts";
import { cdnFixture, importJson, lang, projectSlug, publish, url } from "../helpers/releases.ts";

describe("CDN settings (product §1)", () => {
  test("product §1: with PHRASEBOOK_CDN_URL at a host root, files are served at /p/... and the rest of the app still answers", async () => {
    // A separate CDN host that forwards to this server: download URLs name it, paths start at /p/.
    const cdnUrl = "https://cdn.example.test";
    const { t, admin } = await cdnFixture({ env: { PHRASEBOOK_CDN_URL: cdnUrl } });
    try {
      const pid = await admin.project("Root CDN", "en");
      await importJson(admin, pid, "en", { a: "A" });
      const r = await publish(admin, pid, "v1");
      const slug = await projectSlug(admin, pid);
      expect(url(lang(r, "en"))).toBe(`${cdnUrl}/p/${slug}/r/${r.slug}/en.json`);
      const local = (u: string) => u.replace(cdnUrl, ORIGIN);
      expect(await (await t.fetch(local(url(lang(r, "en"))))).json()).toEqual({ a: "A" });
      expect(await (await t.fetch(`/p/${slug}/r/latest/en.json`)).json()).toEqual({ a: "A" });
      expect((await t.fetch(`/cdn/p/${slug}/r/latest/en.json`)).status).toBe(404);
      expect((await t.fetch("/healthz")).status).toBe(200);
      expect((await admin.get(`/projects/${pid}`)).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  test("product §1: PHRASEBOOK_CDN_CACHE_MB=0 turns the memory cache off; files are still served and purges still show", async () => {
    const { t, admin, clock } = await cdnFixture({ env: { PHRASEBOOK_CDN_CACHE_MB: "0" } });
    try {
      const pid = await admin.project("No cache", "en");
      await importJson(admin, pid, "en", { v: "1" });
      const r = await publish(admin, pid, "v1");
      const latest = `/cdn/p/${await projectSlug(admin, pid)}/r/latest/en.json`;
      for (let i = 0; i < 3; i++) expect(await (await t.fetch(latest)).json()).toEqual({ v: "1" });
      const metrics = await (await t.fetch("/metrics")).text();
      expect(metrics).toContain('phrasebook_cdn_cache_total{result="hit"} 0'); // nothing was kept
      expect(metrics).toContain("phrasebook_cdn_cache_bytes 0");
      const etag = (await t.fetch(url(lang(r, "en")))).headers.get("etag")!;
      expect((await t.fetch(url(lang(r, "en")), { headers: { "if-none-match": etag } })).status).toBe(304);
      await importJson(admin, pid, "en", { v: "2" });
      clock.advance(1_000);
      await publish(admin, pid, "v2");
      expect(await (await t.fetch(latest)).json()).toEqual({ v: "2" });
    } finally {
      await t.close();
    }
  });
});
