/**
 * Projects, their settings and CDN slug, progress and languages (product §4, interface §2.7).
 */
import { expect } from "bun:test";
import { scenarios, type Scenario, type ScenarioContext } from "../helpers/scenario.ts";
import { messagesWorld } from "./messages-world.ts";
import { coverage } from "./routes.ts";
import { standardWorld } from "./world.ts";

const ID = /^[a-z]{3}_[0-9A-Za-z]{20}$/;
const SLUG = /^[0-9A-Za-z]{16}$/;
const CREATED = "2026-01-01T00:00:00.000Z";

/** The German JSON file of the published release, by the project's CDN slug. */
const germanFile = ({ t, ids }: ScenarioContext, projectSlug = ids.cdnSlug) => t.fetch(`/cdn/p/${projectSlug}/r/${ids.releaseSlug}/de.json`);

const BAD_CODES = ["", "e", "en_US", "en/../x", "1234", "en-", "a".repeat(40), "ünï"];

const rows: Scenario[] = [
  {
    name: "a member may list projects, sorted by name",
    as: "member",
    method: "GET",
    url: "/projects",
    status: 200,
    after: (_, body) => expect(body.items.map((p: any) => p.name)).toEqual(["Listing", "Other", "Shop"]),
  },

  {
    name: "creates a project with an opaque id, a 16-character CDN slug and its base language",
    method: "POST",
    url: "/projects",
    body: { name: "  Mobile app ", base_language_code: "en" },
    status: 201,
    async after({ as }, body) {
      expect(body).toEqual({ id: expect.stringMatching(ID), name: "Mobile app", base_language_code: "en", cdn_slug: expect.stringMatching(SLUG), created_at: CREATED, message_syntax: "icu", publish_approved_only: false });
      const admin = as("admin");
      expect((await admin.get(`/projects/${body.id}/languages`)).body.items).toEqual([{ code: "en", name: "English", is_base_language: true, created_at: CREATED }]);
      // The creator is the project's admin (docs/dashboard-api.md "Project roles").
      expect((await admin.get(`/projects/${body.id}`)).body).toEqual({ ...body, role: "admin", role_languages: null });
      expect((await admin.get("/projects")).body.items.map((p: any) => p.id)).toContain(body.id);
    },
  },
  { name: "an empty name is 400 naming it", method: "POST", url: "/projects", body: { name: "", base_language_code: "en" }, status: 400, contains: ['"name"'] },
  { name: "a blank name is 400 naming it", method: "POST", url: "/projects", body: { name: "   ", base_language_code: "en" }, status: 400, contains: ['"name"'] },
  { name: "a name over 200 characters is 400 naming it", method: "POST", url: "/projects", body: { name: "x".repeat(201), base_language_code: "en" }, status: 400, contains: ['"name"'] },
  { name: "a base language that is no code is 400 naming it", method: "POST", url: "/projects", body: { name: "X", base_language_code: "../etc" }, status: 400, contains: ['"base_language_code"'] },
  { name: "a missing base language is 400 naming it", method: "POST", url: "/projects", body: { name: "X" }, status: 400, contains: ['"base_language_code"'] },
  { name: "a member may not create projects", as: "member", method: "POST", url: "/projects", body: { name: "X", base_language_code: "en" }, status: 403, contains: ["admin role"] },

  { name: "a member may read a project", as: "member", method: "GET", url: "/projects/:pid", status: 200, contains: ['"id":":pid"', '"name":"Shop"', '"cdn_slug":":cdnSlug"'] },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_nope", status: 404, contains: ['{"error":"project not found"}'] },

  {
    name: "renames and moves the base language to another of its languages",
    method: "PATCH",
    url: "/projects/:pid",
    body: { name: "Renamed", base_language_code: "de" },
    status: 200,
    contains: ['"name":"Renamed"', '"base_language_code":"de"'],
    async after({ as, ids }) {
      const langs = (await as("admin").get(`/projects/${ids.pid}/languages`)).body.items;
      expect(langs.filter((l: any) => l.is_base_language).map((l: any) => l.code)).toEqual(["de"]);
    },
  },
  { name: "the base language code is matched in any letter case", method: "PATCH", url: "/projects/:pid", body: { base_language_code: "PT-br" }, status: 200, contains: ['"base_language_code":"pt-BR"'] },
  { name: "a base language the project lacks is 400 naming it", method: "PATCH", url: "/projects/:pid", body: { base_language_code: "fr" }, status: 400, contains: ['"base_language_code"', "not a language of this project"] },
  { name: "an empty name is 400 naming it", method: "PATCH", url: "/projects/:pid", body: { name: "" }, status: 400, contains: ['"name"'] },
  { name: "an unknown project is 404", method: "PATCH", url: "/projects/prj_00000000000000000000", body: { name: "X" }, status: 404, contains: ["project not found"] },
  { name: "a member may not change project settings", as: "member", method: "PATCH", url: "/projects/:pid", body: { name: "X" }, status: 403, contains: ["admin role"] },

  {
    name: "a new random slug; every URL under the old one is 404 at once (interface §2.7)",
    before: async (ctx) => expect((await germanFile(ctx)).status).toBe(200),
    method: "POST",
    url: "/projects/:pid/rotate-slug",
    status: 200,
    notContains: [":cdnSlug"],
    async after(ctx, body) {
      expect(Object.keys(body)).toEqual(["cdn_slug"]);
      expect(body.cdn_slug).toMatch(SLUG);
      expect((await germanFile(ctx)).status).toBe(404);
      const moved = await germanFile(ctx, body.cdn_slug);
      expect(moved.status).toBe(200);
      expect(await moved.json()).toEqual({ "checkout.title": "Kasse" });
    },
  },
  { name: "an unknown project is 404", method: "POST", url: "/projects/prj_00000000000000000000/rotate-slug", status: 404, contains: ["project not found"] },
  { name: "a member may not rotate the slug", as: "member", method: "POST", url: "/projects/:pid/rotate-slug", status: 403, contains: ["admin role"] },

  {
    name: "a member may read per-language progress",
    as: "member",
    method: "GET",
    url: "/projects/:pid/progress",
    status: 200,
    after: (_, body) =>
      expect(body).toEqual({
        total_keys: 2,
        languages: [
          { code: "de", name: "German", is_base_language: false, total_keys: 2, translated: 1, approved: 0, errors: 0, warnings: 0 },
          { code: "en", name: "English", is_base_language: true, total_keys: 2, translated: 2, approved: 1, errors: 0, warnings: 0 },
          { code: "pt-BR", name: "Brazilian Portuguese", is_base_language: false, total_keys: 2, translated: 0, approved: 0, errors: 0, warnings: 0 },
        ],
      }),
  },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/progress", status: 404 },

  {
    name: "a member may list languages, sorted by code",
    as: "member",
    method: "GET",
    url: "/projects/:pid/languages",
    status: 200,
    after: (_, body) =>
      expect(body.items.map((l: any) => [l.code, l.name, l.is_base_language])).toEqual([
        ["de", "German", false],
        ["en", "English", true],
        ["pt-BR", "Brazilian Portuguese", false],
      ]),
  },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/languages", status: 404 },

  { name: "adds a language in its canonical case with its English name", method: "POST", url: "/projects/:otherPid/languages", body: { code: "pt-br" }, status: 201, after: (_, body) => expect(body).toEqual({ code: "pt-BR", name: "Brazilian Portuguese", is_base_language: false, created_at: CREATED }) },
  { name: "takes a script and region subtag and a given name", method: "POST", url: "/projects/:pid/languages", body: { code: "zh-Hant-TW", name: "Traditional Chinese (Taiwan)" }, status: 201, contains: ['"code":"zh-Hant-TW"', '"name":"Traditional Chinese (Taiwan)"'] },
  { name: "takes a numeric region", method: "POST", url: "/projects/:pid/languages", body: { code: "es-419" }, status: 201, contains: ['"code":"es-419"'] },
  { name: "a language already there, in any letter case, is 409", method: "POST", url: "/projects/:pid/languages", body: { code: "PT-br" }, status: 409, contains: ["already in this project"] },
  ...BAD_CODES.map((code): Scenario => ({ name: `the code ${JSON.stringify(code.slice(0, 12))} is 400 naming the field`, method: "POST", url: "/projects/:pid/languages", body: { code }, status: 400, contains: ['"code"'] })),
  { name: "a name over 100 characters is 400 naming it", method: "POST", url: "/projects/:pid/languages", body: { code: "fr", name: "x".repeat(101) }, status: 400, contains: ['"name"'] },
  // docs/delivery.md "Manifests": `manifest.json` is the release's manifest, beside its language files.
  { name: "`manifest` is no language code (400), in any letter case", method: "POST", url: "/projects/:pid/languages", body: { code: "Manifest" }, status: 400, contains: ['"code"', "reserved"] },
  { name: "an unknown project is 404", method: "POST", url: "/projects/prj_00000000000000000000/languages", body: { code: "fr" }, status: 404 },
  { name: "a member may not add a language", as: "member", method: "POST", url: "/projects/:pid/languages", body: { code: "fr" }, status: 403, contains: ["publisher role"] },

  {
    name: "removes a language and its translations",
    method: "DELETE",
    url: "/projects/:pid/languages/de",
    status: 204,
    async after({ as, ids }) {
      const admin = as("admin");
      expect((await admin.get(`/projects/${ids.pid}/languages`)).body.items.map((l: any) => l.code)).toEqual(["en", "pt-BR"]);
      expect(Object.keys((await admin.get(`/projects/${ids.pid}/keys/${ids.keyId}`)).body.translations)).toEqual(["en"]);
      expect((await admin.delete(`/projects/${ids.pid}/languages/de`)).status).toBe(404);
    },
  },
  { name: "the code is matched in any letter case", method: "DELETE", url: "/projects/:pid/languages/PT-br", status: 204 },
  { name: "the base language cannot be removed (409)", method: "DELETE", url: "/projects/:pid/languages/en", status: 409, contains: ["base language"] },
  { name: "a language the project lacks is 404", method: "DELETE", url: "/projects/:pid/languages/fr", status: 404, contains: ["not in this project"] },
  { name: "a member may not remove a language", as: "member", method: "DELETE", url: "/projects/:pid/languages/de", status: 403, contains: ["admin role"] },
];

const problemsOf = async ({ as, ids }: ScenarioContext) =>
  (await as("member").get(`/projects/${ids.pid}/problems`)).body.items.map((p: any) => [p.key, p.language_code, p.severity, p.message]);

/** product §7: the project's message syntax, what it changes, and the counts of findings. */
const checkRows: Scenario[] = [
  {
    name: "product §7: progress counts each language's errors and warnings",
    as: "member",
    method: "GET",
    url: "/projects/:pid/progress",
    status: 200,
    after: (_, body) =>
      expect(body.languages.map((l: any) => [l.code, l.translated, l.errors, l.warnings])).toEqual([
        ["de", 3, 0, 1],
        ["en", 4, 0, 0],
        ["fr", 2, 1, 0],
        ["ja", 2, 1, 1],
      ]),
  },
  { name: "product §7: a project's messages are ICU unless said otherwise", method: "GET", url: "/projects/:pid", status: 200, contains: ['"message_syntax":"icu"'] },
  {
    name: "product §7: text syntax: no ICU errors, an unknown placeholder only warns; every value is rechecked before the answer",
    method: "PATCH",
    url: "/projects/:pid",
    body: { message_syntax: "text" },
    status: 200,
    contains: ['"message_syntax":"text"'],
    async after(ctx) {
      expect(await problemsOf(ctx)).toEqual([
        ["greeting", "ja", "warning", "`cnt` is not in the English text; use `name`"],
        ["greeting", "ja", "warning", "`name` from the English text is missing"],
      ]);
      expect(ctx.t.query("SELECT count(*) AS n FROM translations WHERE checked_at IS NULL")).toEqual([{ n: 0 }]);
    },
  },
  {
    name: "product §7: back to ICU, the errors are back",
    before: async ({ as, ids }) => expect((await as("admin").patch(`/projects/${ids.pid}`, { message_syntax: "text" })).status).toBe(200),
    method: "PATCH",
    url: "/projects/:pid",
    body: { message_syntax: "icu" },
    status: 200,
    async after(ctx) {
      expect((await problemsOf(ctx)).map((p: string[]) => p.slice(0, 3))).toEqual([
        ["files.count", "de", "warning"],
        ["files.count", "fr", "error"],
        ["greeting", "ja", "error"],
        ["greeting", "ja", "warning"],
      ]);
    },
  },
  {
    name: "product §7: a new base language: every value is checked against its values",
    method: "PATCH",
    url: "/projects/:pid",
    body: { base_language_code: "ja" },
    status: 200,
    async after(ctx) {
      expect(await problemsOf(ctx)).toEqual([
        ["files.count", "de", "warning", "`{count}` has no `one` case, which German uses for 1; those numbers get the `other` text"],
        ["files.count", "fr", "error", "The `{` at character 9 is never closed: a `}` is missing"],
        ["greeting", "de", "error", "`{name}` is not in the Japanese text; use `{cnt}`"],
        ["greeting", "de", "warning", "`{cnt}` from the Japanese text is missing"],
        ["greeting", "en", "error", "`{name}` is not in the Japanese text; use `{cnt}`"],
        ["greeting", "en", "warning", "`{cnt}` from the Japanese text is missing"],
      ]);
    },
  },
  { name: "product §7: the same syntax again changes nothing", method: "PATCH", url: "/projects/:pid", body: { message_syntax: "icu" }, status: 200, contains: ['"message_syntax":"icu"'] },
  { name: "product §7: an unknown message syntax is 400 naming it", method: "PATCH", url: "/projects/:pid", body: { message_syntax: "markdown" }, status: 400, contains: ['"message_syntax"'] },
  { name: "product §7: a member may not change the message syntax", as: "member", method: "PATCH", url: "/projects/:pid", body: { message_syntax: "text" }, status: 403, contains: ["admin role"] },
];

scenarios("projects and languages", standardWorld, rows);
scenarios("message checks in project settings", messagesWorld, checkRows);
coverage("projects-languages", [...rows, ...checkRows]);
