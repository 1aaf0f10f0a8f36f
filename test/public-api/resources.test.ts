/**
 * interface §2.1, §2.3, §2.4, §3, §4.1, §4.3, §4.4: projects, release detail and project languages,
 * against the app in-process; download URLs are fetched from the same app (they name its CDN).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ORIGIN } from "../helpers/app.ts";
import { appFixture, draft, newToken, published, type AppFixture } from "./api-client.ts";

let f: AppFixture;
let pid: string;
let token: string;
let otherPid: string;
let otherToken: string;

beforeAll(async () => {
  f = await appFixture();
  pid = await f.dash.project("Shop", "en", ["de", "pt-BR"]);
  await f.dash.key(pid, "greeting", { en: "Hello", de: "Hallo", "pt-BR": "Olá" });
  token = await newToken(f.dash, pid);
  otherPid = await f.dash.project("Other", "fr");
  await f.dash.key(otherPid, "greeting", { fr: "Bonjour" });
  otherToken = await newToken(f.dash, otherPid);
});

afterAll(async () => {
  await f?.t.close();
  expect(f.api.checked).toBeGreaterThan(0);
});

describe("interface §4.1: GET /v1/projects", () => {
  test("interface §4.1: items holds exactly the token's project, with the fields of interface §2.1", async () => {
    const r = await f.api.get("/v1/projects", token);
    expect(r.status).toBe(200);
    expect(r.body.items).toHaveLength(1);
    const [p] = r.body.items;
    const dashboard = (await f.dash.get(`/projects/${pid}`)).body;
    expect(p).toEqual({ id: pid, name: "Shop", base_language_code: "en", created_at: dashboard.created_at });
    expect(p.created_at).toMatch(/Z$/);
    // product §2: the id is the dashboard's id; the CDN slug is not exposed (interface §2.7).
    expect(JSON.stringify(r.body)).not.toContain(dashboard.cdn_slug);
    const other = await f.api.get("/v1/projects", otherToken);
    expect(other.body.items.map((x: any) => x.id)).toEqual([otherPid]);
  });
});

describe("interface §4.4: GET /v1/project-languages", () => {
  test("product §2: every language as {code, name, is_base_language, created_at}, never paginated", async () => {
    const pid2 = await f.dash.project("Many", "en");
    const codes = ["af", "ar", "bg", "bn", "ca", "cs", "da", "de", "el", "es", "et", "fa", "fi", "fr", "he", "hi", "hr", "hu", "id", "it", "ja", "ko", "lt", "lv", "nb", "nl", "pl", "pt-BR", "ro", "ru"];
    for (const code of codes) expect((await f.dash.post(`/projects/${pid2}/languages`, { code })).status).toBe(201);
    const t2 = await newToken(f.dash, pid2);
    const r = await f.api.get("/v1/project-languages", t2);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["items"]);
    expect(r.body.items).toHaveLength(codes.length + 1);
    expect(r.body.items.map((l: any) => l.code).sort()).toEqual([...codes, "en"].sort());
    expect(r.body.items.filter((l: any) => l.is_base_language).map((l: any) => l.code)).toEqual(["en"]);
    const de = r.body.items.find((l: any) => l.code === "de");
    expect(Object.keys(de).sort()).toEqual(["code", "created_at", "is_base_language", "name"]);
    expect(de.name).toBe("German");
  });

  test("interface §4.4: is_base_language follows the project's current base language", async () => {
    const pid3 = await f.dash.project("Switch", "en", ["de"]);
    const t3 = await newToken(f.dash, pid3);
    expect((await f.dash.patch(`/projects/${pid3}`, { base_language_code: "de" })).status).toBe(200);
    const r = await f.api.get("/v1/project-languages", t3);
    expect(r.body.items.map((l: any) => [l.code, l.is_base_language])).toEqual([["de", true], ["en", false]]);
  });
});

describe("interface §4.3: GET /v1/releases/{release_id}", () => {
  test("interface §2.3: the summary fields plus the shipped languages with absolute download_urls that resolve", async () => {
    const rid = await published(f.dash, pid, "Spring", "v1");
    const r = await f.api.get(`/v1/releases/${rid}`, token);
    expect(r.status).toBe(200);
    const summary = (await f.api.get("/v1/releases", token)).body.items.find((i: any) => i.id === rid);
    const { languages, ...rest } = r.body;
    expect(rest).toEqual(summary);
    expect(languages.map((l: any) => l.code)).toEqual(["de", "en", "pt-BR"]);
    const dash = (await f.dash.get(`/projects/${pid}/releases/${rid}`)).body;
    const project = (await f.dash.get(`/projects/${pid}`)).body;
    for (const l of languages) {
      expect(l.is_base_language).toBe(l.code === "en");
      expect(Object.keys(l.download_urls).sort()).toEqual(["arb", "json", "yaml"]);
      for (const ext of ["json", "yaml", "arb"]) {
        const url = l.download_urls[ext];
        expect(url).toBe(`${ORIGIN}/cdn/p/${project.cdn_slug}/r/${dash.slug}/${l.code}.${ext}`);
        const file = await f.t.fetch(url); // interface §4.5 rule 1: a URL read from a release always resolves
        expect(file.status, url).toBe(200);
        expect(await file.text()).toContain(l.code === "de" ? "Hallo" : l.code === "en" ? "Hello" : "Olá");
      }
    }
  });

  test("interface §4.3: a draft answers exactly like a release that does not exist", async () => {
    const did = await draft(f.dash, pid, "Not yet", "v-draft");
    const forDraft = await f.api.get(`/v1/releases/${did}`, token);
    const forNothing = await f.api.get("/v1/releases/rel_AAAAAAAAAAAAAAAAAAAA", token);
    expect(forDraft.status).toBe(404);
    expect(forNothing.status).toBe(404);
    expect(forDraft.text).toBe(forNothing.text);
    expect(forDraft.body).toEqual({ error: "release not found" });
    const names = (h: Headers) => [...h.keys()].filter((k) => k !== "date" && k !== "x-ratelimit-remaining").sort();
    expect(names(forDraft.headers)).toEqual(names(forNothing.headers));
    for (const odd of ["x", "%20", "rel_" + "a".repeat(500), "..%2F..%2Fetc", "%F0%9F%98%80", "%ZZ", "%C3%28"]) {
      expect((await f.api.get(`/v1/releases/${odd}`, token)).status).toBe(404);
    }
  });

  test("interface §5 rule 3: a token sees only its own project's releases", async () => {
    const rid = await published(f.dash, otherPid, "Other's", "o1");
    expect((await f.api.get(`/v1/releases/${rid}`, token)).status).toBe(404);
    expect((await f.api.get(`/v1/releases/${rid}`, otherToken)).status).toBe(200);
    const mine = (await f.api.get("/v1/releases?page_size=100", token)).body.items.map((i: any) => i.id);
    expect(mine).not.toContain(rid);
  });

  test("interface §3: a published release keeps its languages; is_base_language is as of publish", async () => {
    const pid4 = await f.dash.project("Frozen", "en", ["de", "it"]);
    await f.dash.key(pid4, "k", { en: "one", de: "eins", it: "uno" });
    const t4 = await newToken(f.dash, pid4);
    const first = await published(f.dash, pid4, "First", "r1");
    // Add a language, remove one, and move the base language: none of it touches the first release.
    expect((await f.dash.post(`/projects/${pid4}/languages`, { code: "fr" })).status).toBe(201);
    expect((await f.dash.delete(`/projects/${pid4}/languages/it`)).status).toBe(204);
    expect((await f.dash.patch(`/projects/${pid4}`, { base_language_code: "de" })).status).toBe(200);
    const second = await published(f.dash, pid4, "Second", "r2");

    const one = (await f.api.get(`/v1/releases/${first}`, t4)).body;
    expect(one.languages.map((l: any) => [l.code, l.is_base_language])).toEqual([["de", false], ["en", true], ["it", false]]);
    const two = (await f.api.get(`/v1/releases/${second}`, t4)).body;
    expect(two.languages.map((l: any) => [l.code, l.is_base_language])).toEqual([["de", true], ["en", false], ["fr", false]]);
    // The removed language's files of the first release still resolve.
    expect((await f.t.fetch(one.languages.find((l: any) => l.code === "it").download_urls.json)).status).toBe(200);
  });

  test("interface §5 rule 7: after a project slug rotation the detail shows the new URLs and the old ones 404", async () => {
    const pid5 = await f.dash.project("Rotate", "en");
    await f.dash.key(pid5, "k", { en: "v" });
    const t5 = await newToken(f.dash, pid5);
    const rid = await published(f.dash, pid5, "R", "r");
    const before = (await f.api.get(`/v1/releases/${rid}`, t5)).body.languages[0].download_urls.json;
    const rotated = await f.dash.post(`/projects/${pid5}/rotate-slug`);
    expect(rotated.status).toBe(200);
    const after = (await f.api.get(`/v1/releases/${rid}`, t5)).body.languages[0].download_urls.json;
    expect(after).not.toBe(before);
    expect(after).toContain(`/p/${rotated.body.cdn_slug}/`);
    expect((await f.t.fetch(after)).status).toBe(200);
    expect((await f.t.fetch(before)).status).toBe(404);
  });
});
