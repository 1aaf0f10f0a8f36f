/**
 * Releases (product §3, §4, interface §2.3, §3): drafts, publishing, slugs and deletion; admins
 * only, members read them.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { releaseDir } from "../../src/bundles/layout.ts";
import { openWorld, scenarios, type Scenario, type ScenarioContext } from "../helpers/scenario.ts";
import { messagesWorld } from "./messages-world.ts";
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

  // The export (docs/formats.md "Export"): a published release's strings in any format, as an attachment.
  {
    name: "a member may export a published release as a PO file",
    as: "member",
    method: "GET",
    url: "/projects/:pid/releases/:releaseId/export?format=po&language=de",
    status: 200,
    after: (_, body, reply) => {
      expect(reply.headers.get("content-disposition")).toMatch(/^attachment; filename="Shop-v1-de\.po"$/);
      expect(reply.headers.get("content-type")).toBe("text/x-gettext-translation; charset=utf-8");
      expect(body).toContain('"Language: de\\n"');
    },
  },
  { name: "an unknown format is 400 naming the field", method: "GET", url: "/projects/:pid/releases/:releaseId/export?format=docx&language=de", status: 400, contains: ['"format"'] },
  { name: "a language the release lacks is 400 naming it", method: "GET", url: "/projects/:pid/releases/:releaseId/export?format=po&language=ja", status: 400, contains: ['"language"', "ja"] },
  { name: "a draft has no files to export (409)", method: "GET", url: "/projects/:pid/releases/:draftId/export?format=po&language=de", status: 409, contains: ["draft"] },
  { name: "an unknown release is 404", method: "GET", url: "/projects/:pid/releases/rel_00000000000000000000/export?format=po&language=de", status: 404 },

  {
    name: "creates a draft, which writes release_created",
    method: "POST",
    url: "/projects/:pid/releases",
    body: { name: " Spring ", tag: "2026.03" },
    status: 201,
    events: ["release_created"],
    after: (_, body) => expect(body).toEqual({ id: expect.stringMatching(/^rel_[0-9A-Za-z]{20}$/), name: "Spring", tag: "2026.03", status: "draft", created_at: CREATED, published_at: null, forced: false }),
  },
  { name: "a tag taken in the project is 409", method: "POST", url: "/projects/:pid/releases", body: { name: "Again", tag: "v1" }, status: 409, contains: ['tagged "v1"'], events: [] },
  { name: "a tag taken in another project is free", method: "POST", url: "/projects/:otherPid/releases", body: { name: "Launch", tag: "v1" }, status: 201 },
  { name: "an empty name is 400 naming it", method: "POST", url: "/projects/:pid/releases", body: { name: "", tag: "v3" }, status: 400, contains: ['"name"'] },
  { name: "a missing tag is 400 naming it", method: "POST", url: "/projects/:pid/releases", body: { name: "x" }, status: 400, contains: ['"tag"'] },
  { name: "a tag with a control character is 400 naming it", method: "POST", url: "/projects/:pid/releases", body: { name: "x", tag: "v\u00073" }, status: 400, contains: ['"tag"'] },
  { name: "an unknown project is 404", method: "POST", url: "/projects/prj_00000000000000000000/releases", body: { name: "x", tag: "y" }, status: 404 },
  { name: "a member may not create a release", as: "member", method: "POST", url: "/projects/:pid/releases", body: { name: "M", tag: "m" }, status: 403, contains: ["publisher role"], events: [] },

  {
    name: "a member may read a draft: no slug, no languages",
    as: "member",
    method: "GET",
    url: "/projects/:pid/releases/:draftId",
    status: 200,
    after: (_, body) => expect(body).toEqual({ id: expect.any(String), name: "Next", tag: "v2", status: "draft", created_at: CREATED, published_at: null, forced: false }),
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
  { name: "a member may not rename a release", as: "member", method: "PATCH", url: "/projects/:pid/releases/:draftId", body: { name: "x" }, status: 403, contains: ["publisher role"] },

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
  { name: "a member may not publish", as: "member", method: "POST", url: "/projects/:pid/releases/:draftId/publish", status: 403, contains: ["publisher role"], events: [] },

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
  { name: "a member may not delete a release", as: "member", method: "DELETE", url: "/projects/:pid/releases/:releaseId", status: 403, contains: ["publisher role"], events: [] },
];

const publishIntl = "/projects/:pid/releases/:draftId/publish";
const INTL_ERRORS = [
  { key_id: ":filesKeyId", key: "files.count", language_code: "fr", code: "icu_syntax", severity: "error", message: "The `{` at character 9 is never closed: a `}` is missing" },
  { key_id: ":greetingKeyId", key: "greeting", language_code: "ja", code: "placeholder_unknown", severity: "error", message: "`{cnt}` is not in the English text; use `{name}`" },
];
const withIds = (ids: Record<string, string>) => INTL_ERRORS.map((p) => ({ ...p, key_id: ids[p.key_id.slice(1)] }));
const fileOf = ({ t }: ScenarioContext, body: any, code: string, ext: string) => t.fetch(body.languages.find((l: any) => l.code === code).download_urls[ext]);

/** product §7: publishing refuses errors unless an admin forces it, and the release records that. */
const checkRows: Scenario[] = [
  {
    name: "product §7: while a message has an error, publishing is 409 with the errors and writes nothing",
    method: "POST",
    url: publishIntl,
    status: 409,
    contains: ["2 errors in messages block publishing", "allow_errors"],
    events: [],
    async after({ as, ids }, body) {
      expect(body.error_count).toBe(2);
      expect(body.problems).toEqual(withIds(ids));
      expect((await as("admin").get(`/projects/${ids.pid}/releases/${ids.draftId}`)).body).toMatchObject({ status: "draft", forced: false });
    },
  },
  { name: "product §7: allow_errors false is the same refusal", method: "POST", url: publishIntl, body: { allow_errors: false }, status: 409, events: [] },
  {
    name: "product §7: an admin publishes anyway; the release records it was forced, the files hold what was checked",
    method: "POST",
    url: publishIntl,
    body: { allow_errors: true },
    status: 200,
    contains: ['"status":"published"', '"forced":true'],
    events: ["release_published"],
    async after(ctx, body) {
      const { as, ids, t } = ctx;
      expect((await as("member").get(`/projects/${ids.pid}/releases/${ids.draftId}`)).body.forced).toBe(true);
      expect(t.query("SELECT forced FROM releases WHERE public_id = ?", ids.draftId!)).toEqual([{ forced: 1 }]);
      expect((await (await fileOf(ctx, body, "fr", "json")).json())["files.count"]).toBe("Message {count, plural, one {# truc} other {# trucs}");
      // publishing §3: ARB placeholders are the checked parse's: ja's {cnt}, none for fr's value that does not parse.
      const ja = await (await fileOf(ctx, body, "ja", "arb")).json();
      expect(ja["@greeting"]).toEqual({ placeholders: { cnt: {} } });
      expect(ja["@filesCount"]).toEqual({ placeholders: { count: { type: "num" } } });
      const fr = await (await fileOf(ctx, body, "fr", "arb")).json();
      expect(fr["@filesCount"]).toBeUndefined();
      const [event] = t.query<{ payload: string }>("SELECT payload FROM outbox_events WHERE event = 'release_published' ORDER BY id DESC LIMIT 1");
      expect(Object.keys(JSON.parse(event!.payload).data)).toEqual(["release_id", "name", "tag", "status"]);
    },
  },
  {
    name: "product §7: warnings never block; once the errors are fixed the release is not forced",
    async before({ as, ids }) {
      const admin = as("admin");
      expect((await admin.put(`/projects/${ids.pid}/keys/${ids.filesKeyId}/translations/fr`, { value: "{count, plural, one {# truc} other {# trucs}}" })).status).toBe(200);
      expect((await admin.put(`/projects/${ids.pid}/keys/${ids.greetingKeyId}/translations/ja`, { value: "こんにちは {name}" })).status).toBe(200);
    },
    method: "POST",
    url: publishIntl,
    status: 200,
    contains: ['"forced":false'],
    events: ["release_published"],
  },
  { name: "product §7: allow_errors without errors publishes, not forced", method: "POST", url: "/projects/:cleanPid/releases/:cleanDraftId/publish", body: { allow_errors: true }, status: 200, contains: ['"forced":false'] },
  { name: "allow_errors that is no boolean is 400 naming it", method: "POST", url: publishIntl, body: { allow_errors: "yes" }, status: 400, contains: ['"allow_errors"'], events: [] },
  { name: "a member may not publish, with or without allow_errors", as: "member", method: "POST", url: publishIntl, body: { allow_errors: true }, status: 403, contains: ["publisher role"], events: [] },
];

/** docs/releases.md: republish, diff and schedules, on the standard world (Launch v1 published, Next v2 a draft). */
const operationRows: Scenario[] = [
  {
    name: "releases §Roll back: republishing makes a new published release with the same files, a new slug, republished_from",
    method: "POST",
    url: "/projects/:pid/releases/:releaseId/republish",
    body: { name: "Launch again", tag: "v1-again" },
    status: 201,
    events: ["release_created", "release_published"],
    async after(ctx, body) {
      const { t, ids } = ctx;
      expect(body).toMatchObject({ name: "Launch again", tag: "v1-again", status: "published", republished_from: ids.releaseId, forced: false });
      expect(body.slug).toMatch(SLUG);
      expect(body.slug).not.toBe(ids.releaseSlug);
      expect(body.languages.map((l: any) => l.code)).toEqual(["de", "en", "pt-BR"]);
      for (const code of ["de", "en", "pt-BR"]) {
        for (const ext of ["json", "yaml", "arb"]) {
          const pinned = new Uint8Array(await (await t.fetch(`/cdn/p/${ids.cdnSlug}/r/${ids.releaseSlug}/${code}.${ext}`)).arrayBuffer());
          const copy = new Uint8Array(await (await fileOf(ctx, body, code, ext)).arrayBuffer());
          const latest = new Uint8Array(await (await t.fetch(`/cdn/p/${ids.cdnSlug}/r/latest/${code}.${ext}`)).arrayBuffer());
          expect(copy).toEqual(pinned);
          expect(latest).toEqual(pinned);
        }
      }
      const [event] = t.query<{ payload: string }>("SELECT payload FROM outbox_events WHERE event = 'release_published' ORDER BY id DESC LIMIT 1");
      expect(JSON.parse(event!.payload).data).toEqual({ release_id: body.id, name: "Launch again", tag: "v1-again", status: "published" });
    },
  },
  { name: "a draft cannot be republished (409)", method: "POST", url: "/projects/:pid/releases/:draftId/republish", body: { name: "x", tag: "x" }, status: 409, contains: ["only a published release"], events: [] },
  { name: "a taken tag is 409", method: "POST", url: "/projects/:pid/releases/:releaseId/republish", body: { name: "x", tag: "v2" }, status: 409, contains: ['tagged "v2"'], events: [] },
  { name: "a missing tag is 400 naming it", method: "POST", url: "/projects/:pid/releases/:releaseId/republish", body: { name: "x" }, status: 400, contains: ['"tag"'] },
  { name: "an unknown release is 404", method: "POST", url: "/projects/:pid/releases/rel_00000000000000000000/republish", body: { name: "x", tag: "y" }, status: 404 },
  { name: "a member may not republish", as: "member", method: "POST", url: "/projects/:pid/releases/:releaseId/republish", body: { name: "x", tag: "y" }, status: 403, contains: ["publisher role"], events: [] },

  {
    name: "releases §Diff: a draft against latest shows what publishing now would change",
    async before({ as, ids }) {
      const admin = as("admin");
      expect((await admin.put(`/projects/${ids.pid}/keys/${ids.keyId}/translations/de`, { value: "Zur Kasse" })).status).toBe(200);
      expect((await admin.put(`/projects/${ids.pid}/keys/${ids.plainKeyId}/translations/de`, { value: "Leer" })).status).toBe(200);
      await admin.key(ids.pid!, "new.key", { en: "New" });
    },
    as: "member",
    method: "GET",
    url: "/projects/:pid/releases/:draftId/diff",
    status: 200,
    after: (_, body) =>
      expect(body).toEqual({
        added: ["new.key"],
        removed: [],
        changed: [
          { key: "cart.empty", language_code: "de", before: null, after: "Leer" },
          { key: "checkout.title", language_code: "de", before: "Kasse", after: "Zur Kasse" },
        ],
        languages_added: [],
        languages_removed: [],
        truncated: false,
        counts: { added: 1, removed: 0, changed: 2 },
      }),
  },
  {
    name: "releases §Diff: against latest itself nothing changed",
    method: "GET",
    url: "/projects/:pid/releases/:releaseId/diff?against=latest",
    status: 200,
    contains: ['"counts":{"added":0,"removed":0,"changed":0}'],
  },
  { name: "against a draft is 409", method: "GET", url: "/projects/:pid/releases/:releaseId/diff?against=:draftId", status: 409, contains: ["draft"] },
  { name: "against an unknown release is 404", method: "GET", url: "/projects/:pid/releases/:releaseId/diff?against=rel_00000000000000000000", status: 404 },
  { name: "an overlong against is 400 naming it", method: "GET", url: `/projects/:pid/releases/:releaseId/diff?against=${"x".repeat(65)}`, status: 400, contains: ['"against"'] },
  { name: "an unknown release is 404", method: "GET", url: "/projects/:pid/releases/rel_00000000000000000000/diff", status: 404 },

  {
    name: "releases §Scheduled publish: a draft shows scheduled_at",
    method: "PUT",
    url: "/projects/:pid/releases/:draftId/schedule",
    body: { at: "2026-06-01T09:00:00+02:00" },
    status: 200,
    contains: ['"scheduled_at":"2026-06-01T07:00:00.000Z"', '"status":"draft"'],
  },
  { name: "a time in the past is 400 naming it", method: "PUT", url: "/projects/:pid/releases/:draftId/schedule", body: { at: "2025-12-31T23:59:59Z" }, status: 400, contains: ['"at"', "future"] },
  { name: "a day the month lacks is 400 naming it, not rolled over into the next month", method: "PUT", url: "/projects/:pid/releases/:draftId/schedule", body: { at: "2027-02-30T09:00:00Z" }, status: 400, contains: ['"at"', "no such day"] },
  { name: "the 31st of a 30-day month is 400 naming it", method: "PUT", url: "/projects/:pid/releases/:draftId/schedule", body: { at: "2027-04-31T09:00:00+02:00" }, status: 400, contains: ['"at"', "no such day"] },
  { name: "29 February of a leap year is a day", method: "PUT", url: "/projects/:pid/releases/:draftId/schedule", body: { at: "2028-02-29T09:00:00Z" }, status: 200, contains: ['"scheduled_at":"2028-02-29T09:00:00.000Z"'] },
  { name: "a time without a zone is 400 naming it", method: "PUT", url: "/projects/:pid/releases/:draftId/schedule", body: { at: "2026-06-01 09:00" }, status: 400, contains: ['"at"'] },
  { name: "a published release cannot be scheduled (409)", method: "PUT", url: "/projects/:pid/releases/:releaseId/schedule", body: { at: "2026-06-01T09:00:00Z" }, status: 409, contains: ["only a draft"] },
  { name: "an unknown release is 404", method: "PUT", url: "/projects/:pid/releases/rel_00000000000000000000/schedule", body: { at: "2026-06-01T09:00:00Z" }, status: 404 },
  { name: "a member may not schedule", as: "member", method: "PUT", url: "/projects/:pid/releases/:draftId/schedule", body: { at: "2026-06-01T09:00:00Z" }, status: 403, contains: ["publisher role"] },
  {
    name: "cancelling a schedule clears it",
    before: async ({ as, ids }) => expect((await as("admin").put(`/projects/${ids.pid}/releases/${ids.draftId}/schedule`, { at: "2026-06-01T09:00:00Z" })).status).toBe(200),
    method: "DELETE",
    url: "/projects/:pid/releases/:draftId/schedule",
    status: 204,
    after: async ({ as, ids }) => expect((await as("admin").get(`/projects/${ids.pid}/releases/${ids.draftId}`)).body.scheduled_at).toBeUndefined(),
  },
  { name: "an unknown release is 404", method: "DELETE", url: "/projects/:pid/releases/rel_00000000000000000000/schedule", status: 404 },
  { name: "a member may not cancel a schedule", as: "member", method: "DELETE", url: "/projects/:pid/releases/:draftId/schedule", status: 403, contains: ["publisher role"] },
];

// Rows read the outbox, where an event is written only for a subscriber (docs/webhooks.md "Events nobody subscribes to").
scenarios("releases", standardWorld, rows, { subscribeAll: true });
scenarios("release operations", standardWorld, operationRows, { subscribeAll: true });
scenarios("message checks when publishing", messagesWorld, checkRows, { subscribeAll: true });
coverage("releases", [...rows, ...checkRows, ...operationRows]);

// Token rows are tests of their own: using a token records when it was last used, which the
// tables count as a write.
test("product §6, §7: a publish-scope token is refused while errors exist and cannot force", async () => {
  const w = await openWorld(messagesWorld, { subscribeAll: true });
  try {
    const token = w.as("token:publish");
    const url = `/projects/${w.ids.pid}/releases/${w.ids.draftId}/publish`;
    const refused = await token.post(url);
    expect(refused.status).toBe(409);
    expect(refused.body.problems.length).toBe(2);
    const forcing = await token.post(url, { allow_errors: true });
    expect(forcing.status).toBe(403);
    expect(forcing.body).toEqual({ error: "only an admin may publish with errors (allow_errors)" });
    expect(w.t.query("SELECT status, forced FROM releases WHERE public_id = ?", w.ids.draftId!)).toEqual([{ status: "draft", forced: 0 }]);
    expect(w.t.query("SELECT count(*) AS n FROM outbox_events WHERE event = 'release_published'")).toEqual([{ n: 0 }]);
  } finally {
    await w.close();
  }
});

test("product §7, publishing §2: parallel publishes of one draft, forced or not, publish it once", async () => {
  const w = await openWorld(messagesWorld, { subscribeAll: true });
  try {
    const admin = w.as("admin");
    const url = (pid: string, rid: string) => `/projects/${pid}/releases/${rid}/publish`;
    const clean = await Promise.all(Array.from({ length: 6 }, () => admin.post(url(w.ids.cleanPid!, w.ids.cleanDraftId!))));
    expect(clean.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const forced = await Promise.all(Array.from({ length: 6 }, (_, i) => admin.post(url(w.ids.pid!, w.ids.draftId!), { allow_errors: i % 2 === 0 })));
    const statuses = forced.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toEqual([200]);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 409)).toBe(true);
    expect(w.t.query("SELECT count(*) AS n FROM outbox_events WHERE event = 'release_published'")).toEqual([{ n: 2 }]);
  } finally {
    await w.close();
  }
});
