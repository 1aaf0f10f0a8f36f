/**
 * Releases (product §3, §4, interface §2.3, §3): drafts, publishing, slugs and deletion; admins
 * only, members read them.
 */
import { expect } from "bun:test";
import { existsSync } from "node:fs";
import { releaseDir } from "../../src/bundles/layout.ts";
import { scenarios, type Scenario, type ScenarioContext } from "../helpers/scenario.ts";
import { coverage } from "./routes.ts";
import { standardWorld } from "./world.ts";

const CREATED = "2026-01-01T00:00:00.000Z";
const SLUG = /^[0-9A-Za-z]{16}$/;

/** The German JSON file of a published release of the world's project "Shop", on the CDN. */
const germanFile = ({ t, ids }: ScenarioContext, releaseSlug: string) => t.fetch(`/cdn/p/${ids.cdnSlug}/r/${releaseSlug}/de.json`);

const rows: Scenario[] = [
  {
    name: "a member may list releases, drafts too, newest first",
    as: "member",
    method: "GET",
    url: "/projects/:pid/releases",
    status: 200,
    after: (_, body) => expect(body.items.map((r: any) => [r.name, r.status])).toEqual([["Next", "draft"], ["Launch", "published"]]),
  },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/releases", status: 404 },

  {
    name: "creates a draft, which writes release_created",
    method: "POST",
    url: "/projects/:pid/releases",
    body: { name: " Spring ", tag: "2026.03" },
    status: 201,
    events: ["release_created"],
    after: (_, body) => expect(body).toEqual({ id: expect.stringMatching(/^rel_[0-9A-Za-z]{20}$/), name: "Spring", tag: "2026.03", status: "draft", created_at: CREATED, published_at: null }),
  },
  { name: "a tag taken in the project is 409", method: "POST", url: "/projects/:pid/releases", body: { name: "Again", tag: "v1" }, status: 409, contains: ['tagged "v1"'], events: [] },
  { name: "a tag taken in another project is free", method: "POST", url: "/projects/:otherPid/releases", body: { name: "Launch", tag: "v1" }, status: 201 },
  { name: "an empty name is 400 naming it", method: "POST", url: "/projects/:pid/releases", body: { name: "", tag: "v3" }, status: 400, contains: ['"name"'] },
  { name: "a missing tag is 400 naming it", method: "POST", url: "/projects/:pid/releases", body: { name: "x" }, status: 400, contains: ['"tag"'] },
  { name: "a tag with a control character is 400 naming it", method: "POST", url: "/projects/:pid/releases", body: { name: "x", tag: "v\u00073" }, status: 400, contains: ['"tag"'] },
  { name: "an unknown project is 404", method: "POST", url: "/projects/prj_00000000000000000000/releases", body: { name: "x", tag: "y" }, status: 404 },
  { name: "a member may not create a release", as: "member", method: "POST", url: "/projects/:pid/releases", body: { name: "M", tag: "m" }, status: 403, contains: ["admin role"], events: [] },

  {
    name: "a member may read a draft: no slug, no languages",
    as: "member",
    method: "GET",
    url: "/projects/:pid/releases/:draftId",
    status: 200,
    after: (_, body) => expect(body).toEqual({ id: expect.any(String), name: "Next", tag: "v2", status: "draft", created_at: CREATED, published_at: null }),
  },
  {
    name: "a published release has its slug and the languages it shipped with their download URLs",
    method: "GET",
    url: "/projects/:pid/releases/:releaseId",
    status: 200,
    after({ ids }, body) {
      expect(body).toMatchObject({ name: "Launch", tag: "v1", status: "published", published_at: CREATED, slug: ids.releaseSlug });
      expect(body.languages.map((l: any) => [l.code, l.is_base_language])).toEqual([["de", false], ["en", true], ["pt-BR", false]]);
      const base = `http://localhost:8080/cdn/p/${ids.cdnSlug}/r/${ids.releaseSlug}`;
      expect(body.languages[0].download_urls).toEqual({ json: `${base}/de.json`, yaml: `${base}/de.yaml`, arb: `${base}/de.arb` });
    },
  },
  { name: "an unknown release is 404", method: "GET", url: "/projects/:pid/releases/rel_00000000000000000000", status: 404, contains: ["release not found"] },
  { name: "a release of another project is 404", method: "GET", url: "/projects/:otherPid/releases/:releaseId", status: 404, contains: ["release not found"] },

  { name: "renames a draft, which writes release_updated", method: "PATCH", url: "/projects/:pid/releases/:draftId", body: { name: "Next (renamed)" }, status: 200, contains: ['"name":"Next (renamed)"', '"tag":"v2"'], events: ["release_updated"] },
  { name: "retags a published release, keeping its slug", method: "PATCH", url: "/projects/:pid/releases/:releaseId", body: { tag: "v1.0.0" }, status: 200, contains: ['"tag":"v1.0.0"', '"slug":":releaseSlug"'], events: ["release_updated"] },
  { name: "the same name and tag write no event", method: "PATCH", url: "/projects/:pid/releases/:draftId", body: { name: "Next", tag: "v2" }, status: 200, events: [] },
  { name: "another release's tag is 409", method: "PATCH", url: "/projects/:pid/releases/:draftId", body: { tag: "v1" }, status: 409, events: [] },
  { name: "a blank name is 400 naming it", method: "PATCH", url: "/projects/:pid/releases/:draftId", body: { name: "  " }, status: 400, contains: ['"name"'] },
  { name: "an unknown release is 404", method: "PATCH", url: "/projects/:pid/releases/rel_00000000000000000000", body: { name: "x" }, status: 404 },
  { name: "a member may not rename a release", as: "member", method: "PATCH", url: "/projects/:pid/releases/:draftId", body: { name: "x" }, status: 403, contains: ["admin role"] },

  {
    name: "publishes a draft: files on the CDN, release_published written",
    method: "POST",
    url: "/projects/:pid/releases/:draftId/publish",
    status: 200,
    contains: ['"status":"published"', "download_urls"],
    events: ["release_published"],
    async after(ctx, body) {
      expect(body.slug).toMatch(SLUG);
      expect(body.published_at).toBe("2026-01-01T00:00:00.001Z"); // after Launch's, in the same millisecond
      const file = await germanFile(ctx, body.slug);
      expect(file.status).toBe(200);
      expect(await file.json()).toEqual({ "checkout.title": "Kasse" });
    },
  },
  { name: "publishing a published release is 409 and writes nothing", method: "POST", url: "/projects/:pid/releases/:releaseId/publish", status: 409, contains: ["already published"], events: [] },
  { name: "an unknown release is 404", method: "POST", url: "/projects/:pid/releases/rel_00000000000000000000/publish", status: 404 },
  { name: "a member may not publish", as: "member", method: "POST", url: "/projects/:pid/releases/:draftId/publish", status: 403, contains: ["admin role"], events: [] },

  {
    name: "a new release slug: the old URLs are 404 at once, the new ones serve the same files",
    before: async (ctx) => expect((await germanFile(ctx, ctx.ids.releaseSlug!)).status).toBe(200),
    method: "POST",
    url: "/projects/:pid/releases/:releaseId/rotate-slug",
    status: 200,
    notContains: [":releaseSlug"],
    async after(ctx, body) {
      expect(Object.keys(body)).toEqual(["slug"]);
      expect(body.slug).toMatch(SLUG);
      expect((await germanFile(ctx, ctx.ids.releaseSlug!)).status).toBe(404);
      expect((await germanFile(ctx, body.slug)).status).toBe(200);
    },
  },
  { name: "a draft has no slug to rotate (409)", method: "POST", url: "/projects/:pid/releases/:draftId/rotate-slug", status: 409, contains: ["only a published release"] },
  { name: "an unknown release is 404", method: "POST", url: "/projects/:pid/releases/rel_00000000000000000000/rotate-slug", status: 404 },
  { name: "a member may not rotate a release slug", as: "member", method: "POST", url: "/projects/:pid/releases/:releaseId/rotate-slug", status: 403, contains: ["admin role"] },

  {
    name: "deletes a published release: release_deleted written, its files gone from the CDN and the disk",
    before: ({ t, ids }) => expect(existsSync(releaseDir(t.dataDir, ids.releaseId!))).toBe(true),
    method: "DELETE",
    url: "/projects/:pid/releases/:releaseId",
    status: 204,
    events: ["release_deleted"],
    async after(ctx) {
      const { t, ids, as } = ctx;
      expect((await as("admin").get(`/projects/${ids.pid}/releases/${ids.releaseId}`)).status).toBe(404);
      expect((await germanFile(ctx, ids.releaseSlug!)).status).toBe(404);
      expect(existsSync(releaseDir(t.dataDir, ids.releaseId!))).toBe(false);
    },
  },
  { name: "deletes a draft", method: "DELETE", url: "/projects/:pid/releases/:draftId", status: 204, events: ["release_deleted"] },
  { name: "an unknown release is 404", method: "DELETE", url: "/projects/:pid/releases/rel_00000000000000000000", status: 404, events: [] },
  { name: "a member may not delete a release", as: "member", method: "DELETE", url: "/projects/:pid/releases/:releaseId", status: 403, contains: ["admin role"], events: [] },
];

scenarios("releases", standardWorld, rows);
coverage("releases", rows);
