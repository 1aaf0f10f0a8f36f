/**
 * What the key grid needs beyond the key list (product §8, docs/dashboard-api.md "Routes beyond
 * product.md §4"): the counts beside its filters (`GET /projects/:pid/key-counts`), and the
 * languages each user chose to see, remembered per user and project
 * (`GET`/`PUT /projects/:pid/editor-preferences`).
 *
 * The standard world's "Shop" is en (base), de and pt-BR: `checkout.title` (en approved, de
 * translated) and `cart.empty` (en only).
 */
import { describe, expect, test } from "bun:test";
import { openWorld, scenarios, type Scenario, type ScenarioContext } from "../helpers/scenario.ts";
import { coverage } from "./routes.ts";
import { standardWorld } from "./world.ts";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const prefs = (ctx: ScenarioContext, who: "admin" | "member", pid = ctx.ids.pid) => ctx.as(who).get(`/projects/${pid}/editor-preferences`).then((r) => r.body);
const choose = async (ctx: ScenarioContext, who: "admin" | "member", languages: string[]) =>
  expect((await ctx.as(who).put(`/projects/${ctx.ids.pid}/editor-preferences`, { languages })).status).toBe(200);

const counts: Scenario[] = [
  {
    name: "product §8: a member counts each filter's keys in one language; missing, translated and approved partition the total",
    as: "member",
    method: "GET",
    url: "/projects/:pid/key-counts?language=de",
    status: 200,
    after: (_, body) => expect(body).toEqual({ language_code: "de", total: 2, missing: 1, translated: 1, approved: 0, problems: 0 }),
  },
  {
    name: "the base language, its code in any letter case",
    method: "GET",
    url: "/projects/:pid/key-counts?language=EN",
    status: 200,
    after: (_, body) => expect(body).toEqual({ language_code: "en", total: 2, missing: 0, translated: 1, approved: 1, problems: 0 }),
  },
  {
    name: "with a search, only the matching keys are counted (a value in another language matches too)",
    method: "GET",
    url: "/projects/:pid/key-counts?language=pt-BR&search=kasse",
    status: 200,
    after: (_, body) => expect(body).toEqual({ language_code: "pt-BR", total: 1, missing: 1, translated: 0, approved: 0, problems: 0 }),
  },
  {
    name: "a search's wildcards are the characters themselves",
    method: "GET",
    url: "/projects/:listPid/key-counts?language=en&search=100%25_",
    status: 200,
    after: (_, body) => expect(body).toMatchObject({ total: 1, translated: 1 }),
  },
  {
    name: "a search in another script counts the keys it matches",
    method: "GET",
    url: `/projects/:listPid/key-counts?language=en&search=${encodeURIComponent("ключ")}`,
    status: 200,
    after: (_, body) => expect(body).toMatchObject({ total: 1, translated: 1 }),
  },
  {
    name: "a search that matches nothing counts zeros",
    method: "GET",
    url: "/projects/:pid/key-counts?language=de&search=nothing-like-this",
    status: 200,
    after: (_, body) => expect(body).toEqual({ language_code: "de", total: 0, missing: 0, translated: 0, approved: 0, problems: 0 }),
  },
  {
    name: "product §7: a value with a finding counts under problems, in its language only",
    before: async ({ as, ids }) => expect((await as("member").put(`/projects/${ids.pid}/keys/${ids.plainKeyId}/translations/de`, { value: "Leer {x}" })).status).toBe(200),
    method: "GET",
    url: "/projects/:pid/key-counts?language=de",
    status: 200,
    async after(ctx, body) {
      expect(body).toEqual({ language_code: "de", total: 2, missing: 0, translated: 2, approved: 0, problems: 1 });
      // The same numbers the filtered key list pages through.
      for (const status of ["missing", "translated", "approved", "problems"]) {
        const list = await ctx.as("member").get(`/projects/${ctx.ids.pid}/keys?status=${status}&language=de`);
        expect([status, list.body.page_info.total_count]).toEqual([status, body[status]]);
      }
      expect((await ctx.as("member").get(`/projects/${ctx.ids.pid}/key-counts?language=pt-BR`)).body.problems).toBe(0);
    },
  },
  { name: "without a language it is 400 naming the parameter", method: "GET", url: "/projects/:pid/key-counts", status: 400, contains: ['"language"', "required"] },
  { name: "a language the project lacks is 400 naming the parameter", method: "GET", url: "/projects/:pid/key-counts?language=xx", status: 400, contains: ['"language"', "xx is not a language of this project"] },
  { name: "an empty language is 400 naming the parameter", method: "GET", url: "/projects/:pid/key-counts?language=", status: 400, contains: ['"language"'] },
  { name: "a search over 500 characters is 400 naming the parameter", method: "GET", url: `/projects/:pid/key-counts?language=de&search=${"x".repeat(501)}`, status: 400, contains: ["search"] },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/key-counts?language=de", status: 404, contains: ["project not found"] },
  { name: "without a session it is 401", as: "anonymous", method: "GET", url: "/projects/:pid/key-counts?language=de", status: 401 },
];

const preferences: Scenario[] = [
  {
    name: "product §8: until a user chooses, the grid shows the base language and the next three in code order",
    as: "member",
    method: "GET",
    url: "/projects/:pid/editor-preferences",
    status: 200,
    after: (_, body) => expect(body).toEqual({ languages: ["en", "de", "pt-BR"], updated_at: null }),
  },
  {
    name: "a member's choice is remembered for them in this project: base first, codes as the project spells them; nothing is announced",
    as: "member",
    method: "PUT",
    url: "/projects/:pid/editor-preferences",
    body: { languages: ["pt-br"] },
    status: 200,
    events: [],
    async after(ctx, body) {
      expect(body.languages).toEqual(["en", "pt-BR"]);
      expect(body.updated_at).toMatch(ISO);
      expect(await prefs(ctx, "member")).toEqual(body);
      // Another user, and another project, keep their own.
      expect((await prefs(ctx, "admin")).languages).toEqual(["en", "de", "pt-BR"]);
      expect(await prefs(ctx, "member", ctx.ids.listPid)).toEqual({ languages: ["en"], updated_at: null });
    },
  },
  {
    name: "the base language is always shown, repeats count once, the project's order wins",
    method: "PUT",
    url: "/projects/:pid/editor-preferences",
    body: { languages: ["pt-BR", "de", "EN", "de"] },
    status: 200,
    after: (_, body) => expect(body.languages).toEqual(["en", "de", "pt-BR"]),
  },
  {
    name: "an empty choice is the base language alone",
    method: "PUT",
    url: "/projects/:pid/editor-preferences",
    body: { languages: [] },
    status: 200,
    after: (_, body) => expect(body.languages).toEqual(["en"]),
  },
  {
    name: "a new choice replaces the last one",
    before: (ctx) => choose(ctx, "admin", ["de"]),
    method: "PUT",
    url: "/projects/:pid/editor-preferences",
    body: { languages: ["pt-BR"] },
    status: 200,
    async after(ctx) {
      expect((await prefs(ctx, "admin")).languages).toEqual(["en", "pt-BR"]);
      expect(ctx.t.query("SELECT count(*) AS n FROM editor_preferences")).toEqual([{ n: 1 }]);
    },
  },
  {
    name: "a language deleted since the choice is no longer shown",
    async before(ctx) {
      await choose(ctx, "member", ["de", "pt-BR"]);
      expect((await ctx.as("admin").delete(`/projects/${ctx.ids.pid}/languages/de`)).status).toBe(204);
    },
    as: "member",
    method: "GET",
    url: "/projects/:pid/editor-preferences",
    status: 200,
    after: (_, body) => expect(body.languages).toEqual(["en", "pt-BR"]),
  },
  {
    name: "deleting the user deletes their choices",
    before: (ctx) => choose(ctx, "member", ["de"]),
    method: "DELETE",
    url: "/users/:memberId",
    status: 204,
    after: (ctx) => expect(ctx.t.query("SELECT count(*) AS n FROM editor_preferences")).toEqual([{ n: 0 }]),
  },
  { name: "a language the project lacks is 400 naming the field and the code", method: "PUT", url: "/projects/:pid/editor-preferences", body: { languages: ["de", "fr"] }, status: 400, contains: ['"languages"', '"fr" is not a language of this project'], events: [] },
  { name: "an empty code is 400 naming the field", method: "PUT", url: "/projects/:pid/editor-preferences", body: { languages: [""] }, status: 400, contains: ['"languages"', "an empty code"] },
  { name: "a code in another script is 400 naming it", method: "PUT", url: "/projects/:pid/editor-preferences", body: { languages: ["дe"] }, status: 400, contains: ['"languages"', '"дe" is not a language of this project'] },
  { name: "a code with a path in it is 400 naming it", method: "PUT", url: "/projects/:pid/editor-preferences", body: { languages: ["../de"] }, status: 400, contains: ['"languages"', '"../de"'] },
  { name: "an undecodable project id is 404", method: "GET", url: "/projects/%ZZ/editor-preferences", status: 404 },
  { name: "a string instead of a list is 400 naming the field", method: "PUT", url: "/projects/:pid/editor-preferences", body: { languages: "de" }, status: 400, contains: ["languages"] },
  { name: "a code that is no string is 400 naming the field", method: "PUT", url: "/projects/:pid/editor-preferences", body: { languages: [42] }, status: 400, contains: ["languages"] },
  { name: "no body field is 400 naming it", method: "PUT", url: "/projects/:pid/editor-preferences", body: {}, status: 400, contains: ["languages"] },
  { name: "more than 1,000 codes is 400 naming the field", method: "PUT", url: "/projects/:pid/editor-preferences", body: { languages: Array.from({ length: 1001 }, () => "de") }, status: 400, contains: ["languages"] },
  { name: "a code over 35 characters is 400 naming the field", method: "PUT", url: "/projects/:pid/editor-preferences", body: { languages: ["x".repeat(36)] }, status: 400, contains: ["languages"] },
  { name: "a change without the CSRF header is 403", as: "admin-without-csrf", method: "PUT", url: "/projects/:pid/editor-preferences", body: { languages: ["de"] }, status: 403, contains: ["X-CSRF-Token"] },
  { name: "an unknown project is 404 (GET)", method: "GET", url: "/projects/prj_00000000000000000000/editor-preferences", status: 404, contains: ["project not found"] },
  { name: "an unknown project is 404 (PUT)", method: "PUT", url: "/projects/prj_00000000000000000000/editor-preferences", body: { languages: [] }, status: 404, contains: ["project not found"] },
  { name: "without a session it is 401 (GET)", as: "anonymous", method: "GET", url: "/projects/:pid/editor-preferences", status: 401 },
  { name: "without a session it is 401 (PUT)", as: "anonymous", method: "PUT", url: "/projects/:pid/editor-preferences", body: { languages: [] }, status: 401 },
];

scenarios("key counts", standardWorld, counts);
scenarios("editor preferences", standardWorld, preferences);
coverage("editor", [...counts, ...preferences]);

describe("editor preferences under concurrency", () => {
  test("choices sent at once leave one row per user and project, holding one of them whole", async () => {
    const w = await openWorld(standardWorld);
    try {
      const choices = [["de"], ["pt-BR"], ["de", "pt-BR"], []];
      const sent = Array.from({ length: 40 }, (_, i) => [i % 2 === 0 ? "member" : "admin", choices[i % choices.length]!] as const);
      const replies = await Promise.all(sent.map(([who, languages]) => w.as(who).put(`/projects/${w.ids.pid}/editor-preferences`, { languages })));
      expect(replies.map((r) => r.status)).toEqual(sent.map(() => 200));
      expect(w.t.query("SELECT count(*) AS n FROM editor_preferences")).toEqual([{ n: 2 }]);
      const possible = choices.map((c) => JSON.stringify(["en", ...["de", "pt-BR"].filter((code) => c.includes(code))]));
      for (const who of ["member", "admin"] as const) {
        const now = (await w.as(who).get(`/projects/${w.ids.pid}/editor-preferences`)).body.languages;
        expect(possible).toContain(JSON.stringify(now));
      }
    } finally {
      await w.close();
    }
  });
});
