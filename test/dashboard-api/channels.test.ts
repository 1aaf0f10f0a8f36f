/**
 * Channels (docs/releases.md "Channels"): named pointers at published releases, each with its own
 * random slug and CDN path serving the release it points at with `latest`'s cache headers; moved,
 * rotated and deleted by admins (publish-scope tokens), read by members.
 */
import { expect } from "bun:test";
import { scenarios, type Scenario, type ScenarioContext } from "../helpers/scenario.ts";
import { coverage } from "./routes.ts";
import { standardWorld } from "./world.ts";

const SLUG = /^[0-9A-Za-z]{16}$/;
const CREATED = "2026-01-01T00:00:00.000Z";

async function makeStaging({ as, ids }: ScenarioContext): Promise<any> {
  const made = await as("admin").put(`/projects/${ids.pid}/channels/staging`, { release_id: ids.releaseId });
  expect(made.status).toBe(201);
  return made.body;
}

const channelFile = ({ t, ids }: ScenarioContext, slug: string, code = "de", ext = "json") => t.fetch(`/cdn/p/${ids.cdnSlug}/c/${slug}/${code}.${ext}`);

/**
 * A channel whose German file the CDN has just served (so it sits in the CDN's cache): a row that
 * changes the channel then proves the change purges it. Its slug is kept as `ids.oldChannelSlug`.
 */
async function makeStagingServed(ctx: ScenarioContext): Promise<void> {
  const channel = await makeStaging(ctx);
  expect((await channelFile(ctx, channel.slug)).status).toBe(200);
  ctx.ids.oldChannelSlug = channel.slug;
}

const rows: Scenario[] = [
  {
    name: "creates a channel on a published release: its own slug, its URLs, the release's files with latest's headers",
    method: "PUT",
    url: "/projects/:pid/channels/staging",
    body: { release_id: ":releaseId" },
    status: 201,
    events: [],
    async after(ctx, body) {
      const { ids, t } = ctx;
      expect(body).toMatchObject({ name: "staging", release_id: ids.releaseId, updated_at: CREATED });
      expect(body.slug).toMatch(SLUG);
      expect(body.slug).not.toBe(ids.releaseSlug);
      expect(Object.keys(body.urls)).toEqual(["de", "en", "pt-BR"]);
      expect(body.urls.de.json).toBe(`http://localhost:8080/cdn/p/${ids.cdnSlug}/c/${body.slug}/de.json`);
      const res = await channelFile(ctx, body.slug);
      const pinned = await t.fetch(`/cdn/p/${ids.cdnSlug}/r/${ids.releaseSlug}/de.json`);
      expect(res.status).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(await pinned.arrayBuffer()));
      expect(res.headers.get("cache-control")).toBe("public, max-age=60, must-revalidate");
      expect(res.headers.get("etag")).toBe(pinned.headers.get("etag"));
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      // Compression exactly as latest's (this small file is sent as it is, gzip would not shrink it).
      const latest = await t.fetch(`/cdn/p/${ids.cdnSlug}/r/latest/de.json`, { headers: { "accept-encoding": "gzip, br" } });
      const gz = await t.fetch(body.urls.de.json, { headers: { "accept-encoding": "gzip, br" } });
      expect([...gz.headers.entries()]).toEqual([...latest.headers.entries()]);
      const notModified = await t.fetch(body.urls.de.json, { headers: { "if-none-match": res.headers.get("etag")! } });
      expect(notModified.status).toBe(304);
      const missing = await channelFile(ctx, body.slug, "fr");
      expect(missing.status).toBe(404);
      expect(missing.headers.get("cache-control")).toBe("no-store");
    },
  },
  {
    name: "moving a channel serves the new release at once (the purge)",
    async before(ctx) {
      const channel = await makeStaging(ctx);
      const { as, ids } = ctx;
      const admin = as("admin");
      expect((await admin.put(`/projects/${ids.pid}/keys/${ids.keyId}/translations/de`, { value: "Zur Kasse" })).status).toBe(200);
      expect((await admin.post(`/projects/${ids.pid}/releases/${ids.draftId}/publish`)).status).toBe(200);
      // Served (and cached) after the publish, whose own purge is then behind us: only the move's can help.
      expect(await (await channelFile(ctx, channel.slug)).json()).toEqual({ "checkout.title": "Kasse" });
    },
    method: "PUT",
    url: "/projects/:pid/channels/staging",
    body: { release_id: ":draftId" },
    status: 200,
    async after(ctx, body) {
      expect(body.release_id).toBe(ctx.ids.draftId);
      expect(await (await channelFile(ctx, body.slug)).json()).toEqual({ "checkout.title": "Zur Kasse" });
    },
  },
  { name: "a draft cannot be on a channel (409)", method: "PUT", url: "/projects/:pid/channels/staging", body: { release_id: ":draftId" }, status: 409, contains: ["only a published release"] },
  { name: "an unknown release is 404", method: "PUT", url: "/projects/:pid/channels/staging", body: { release_id: "rel_00000000000000000000" }, status: 404, contains: ["release not found"] },
  { name: "a missing release_id is 400 naming it", method: "PUT", url: "/projects/:pid/channels/staging", body: {}, status: 400, contains: ['"release_id"'] },
  { name: "`latest` is no channel name (400)", method: "PUT", url: "/projects/:pid/channels/latest", body: { release_id: ":releaseId" }, status: 400, contains: ["reserved"] },
  { name: "upper case is no channel name (400)", method: "PUT", url: "/projects/:pid/channels/Staging", body: { release_id: ":releaseId" }, status: 400, contains: ["a-z, 0-9"] },
  { name: "a name over 32 characters is 400", method: "PUT", url: `/projects/:pid/channels/${"a".repeat(33)}`, body: { release_id: ":releaseId" }, status: 400, contains: ["invalid channel name"] },
  { name: "an unknown project is 404", method: "PUT", url: "/projects/prj_00000000000000000000/channels/staging", body: { release_id: ":releaseId" }, status: 404 },
  { name: "a member may not move a channel", as: "member", method: "PUT", url: "/projects/:pid/channels/staging", body: { release_id: ":releaseId" }, status: 403, contains: ["publisher role"] },

  {
    name: "a member lists the channels",
    before: makeStaging,
    as: "member",
    method: "GET",
    url: "/projects/:pid/channels",
    status: 200,
    after: ({ ids }, body) => expect(body.items.map((c: any) => [c.name, c.release_id])).toEqual([["staging", ids.releaseId]]),
  },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/channels", status: 404 },
  { name: "a member reads a channel", before: makeStaging, as: "member", method: "GET", url: "/projects/:pid/channels/staging", status: 200, contains: ['"name":"staging"'] },
  { name: "an unknown channel is 404", method: "GET", url: "/projects/:pid/channels/nope", status: 404, contains: ["channel not found"] },

  {
    name: "a new channel slug: the old URLs 404 at once, the new ones serve",
    before: makeStagingServed,
    method: "POST",
    url: "/projects/:pid/channels/staging/rotate-slug",
    status: 200,
    async after(ctx, body) {
      expect(body.slug).toMatch(SLUG);
      expect(body.slug).not.toBe(ctx.ids.oldChannelSlug);
      const old = await channelFile(ctx, ctx.ids.oldChannelSlug!);
      expect(old.status).toBe(404);
      expect(old.headers.get("cache-control")).toBe("no-store");
      const listed = (await ctx.as("admin").get(`/projects/${ctx.ids.pid}/channels/staging`)).body;
      expect(listed.slug).toBe(body.slug);
      expect((await channelFile(ctx, body.slug)).status).toBe(200);
    },
  },
  { name: "an unknown channel is 404", method: "POST", url: "/projects/:pid/channels/nope/rotate-slug", status: 404 },
  { name: "a member may not rotate a channel slug", before: makeStaging, as: "member", method: "POST", url: "/projects/:pid/channels/staging/rotate-slug", status: 403, contains: ["admin role"] },

  {
    name: "deleting a channel: its URLs 404 at once",
    before: makeStagingServed,
    method: "DELETE",
    url: "/projects/:pid/channels/staging",
    status: 204,
    async after(ctx) {
      expect((await channelFile(ctx, ctx.ids.oldChannelSlug!)).status).toBe(404);
      const slug = ctx.t.query<{ slug: string }>("SELECT slug FROM channels")[0]?.slug;
      expect(slug).toBeUndefined();
      expect((await ctx.as("admin").get(`/projects/${ctx.ids.pid}/channels`)).body.items).toEqual([]);
    },
  },
  { name: "an unknown channel is 404", method: "DELETE", url: "/projects/:pid/channels/nope", status: 404 },
  { name: "a member may not delete a channel", before: makeStaging, as: "member", method: "DELETE", url: "/projects/:pid/channels/staging", status: 403, contains: ["publisher role"] },

  {
    name: "deleting a release a channel points to is 409 naming the channel",
    before: makeStaging,
    method: "DELETE",
    url: "/projects/:pid/releases/:releaseId",
    status: 409,
    contains: ['"staging"'],
    events: [],
  },
  {
    name: "rotating the project slug moves the channel's URLs with it",
    before: makeStagingServed,
    method: "POST",
    url: "/projects/:pid/rotate-slug",
    status: 200,
    async after({ t, as, ids }, body) {
      const channel = (await as("admin").get(`/projects/${ids.pid}/channels/staging`)).body;
      expect(channel.urls.de.json).toContain(`/p/${body.cdn_slug}/c/${channel.slug}/de.json`);
      expect((await t.fetch(channel.urls.de.json)).status).toBe(200);
      expect((await t.fetch(`/cdn/p/${ids.cdnSlug}/c/${channel.slug}/de.json`)).status).toBe(404);
    },
  },
];

scenarios("channels", standardWorld, rows);
coverage("channels", rows);
