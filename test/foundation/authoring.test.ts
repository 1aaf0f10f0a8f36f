import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let admin: DashboardClient;
let member: DashboardClient;

beforeAll(async () => {
  server = await startServer();
  admin = await DashboardClient.loggedIn(server.url);
  const created = await admin.post("/users", { email: "member@example.test", name: "Mem", password: "member-password", role: "member" });
  expect(created.status).toBe(201);
  member = await DashboardClient.loggedIn(server.url, "member@example.test", "member-password");
});
afterAll(() => server.stop());

const ID = /^[a-z]{3}_[0-9A-Za-z]{20}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("CONTRACTS 4: users", () => {
  test("admin lists and adds users; duplicates 409; bad fields 400 naming the field", async () => {
    const list = await admin.get("/users");
    expect(list.status).toBe(200);
    expect(list.body.items.map((u: any) => u.email)).toContain("member@example.test");
    const dup = await admin.post("/users", { email: "MEMBER@example.test", name: "Again", password: "password-123", role: "member" });
    expect(dup.status).toBe(409);
    const badRole = await admin.post("/users", { email: "r@example.test", name: "R", password: "password-123", role: "owner" });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error).toContain('"role"');
    const badEmail = await admin.post("/users", { email: "not-an-email", name: "R", password: "password-123", role: "member" });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.error).toContain('"email"');
  });

  test("a member cannot manage users (403)", async () => {
    const r = await member.post("/users", { email: "m2@example.test", name: "M2", password: "password-123", role: "admin" });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: "this needs the admin role" });
  });

  test("change role; the last admin cannot be demoted or deleted", async () => {
    const me = (await admin.get("/me")).body.user;
    expect((await admin.patch(`/users/${me.id}`, { role: "member" })).status).toBe(409);
    expect((await admin.delete(`/users/${me.id}`)).status).toBe(409);
    const u = await admin.post("/users", { email: "promote@example.test", name: "P", password: "password-123", role: "member" });
    const promoted = await admin.patch(`/users/${u.body.id}`, { role: "admin" });
    expect(promoted.status).toBe(200);
    expect(promoted.body.role).toBe("admin");
    expect((await admin.patch("/users/usr_00000000000000000000", { role: "admin" })).status).toBe(404);
  });

  test("spec 4.2 rule 3: deleting a user keeps the releases they created", async () => {
    const author = await admin.post("/users", { email: "author@example.test", name: "Author", password: "password-123", role: "admin" });
    const authorClient = await DashboardClient.loggedIn(server.url, "author@example.test", "password-123");
    const pid = await admin.project("Kept");
    const rel = await authorClient.post(`/projects/${pid}/releases`, { name: "By author", tag: "v1" });
    expect(rel.status).toBe(201);
    expect((await admin.delete(`/users/${author.body.id}`)).status).toBe(204);
    expect((await authorClient.get("/me")).status).toBe(401); // their sessions went with them
    const releases = await admin.get(`/projects/${pid}/releases`);
    expect(releases.body.items.map((r: any) => r.id)).toContain(rel.body.id);
  });
});

describe("CONTRACTS 4: projects and languages", () => {
  test("create a project: opaque id, 16-char CDN slug, base language added", async () => {
    const r = await admin.post("/projects", { name: "Mobile app", base_language_code: "en" });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(["base_language_code", "cdn_slug", "created_at", "id", "name"]);
    expect(r.body.id).toMatch(ID);
    expect(r.body.cdn_slug).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(r.body.created_at).toMatch(ISO);
    const langs = await admin.get(`/projects/${r.body.id}/languages`);
    expect(langs.body.items).toEqual([{ code: "en", name: "English", is_base_language: true, created_at: expect.stringMatching(ISO) }]);
    expect((await admin.get(`/projects/${r.body.id}`)).body).toEqual(r.body);
    expect((await admin.get("/projects")).body.items.map((p: any) => p.id)).toContain(r.body.id);
  });

  test("bad project input is 400 naming the field; members cannot create projects", async () => {
    expect((await admin.post("/projects", { name: "", base_language_code: "en" })).body.error).toContain('"name"');
    expect((await admin.post("/projects", { name: "   ", base_language_code: "en" })).body.error).toContain('"name"');
    const badCode = await admin.post("/projects", { name: "X", base_language_code: "../etc" });
    expect(badCode.status).toBe(400);
    expect(badCode.body.error).toContain('"base_language_code"');
    expect((await admin.post("/projects", { name: "X" })).status).toBe(400);
    expect((await admin.post("/projects", { name: "x".repeat(201), base_language_code: "en" })).status).toBe(400);
    expect((await member.post("/projects", { name: "X", base_language_code: "en" })).status).toBe(403);
    expect((await admin.get("/projects/prj_nope")).status).toBe(404);
  });

  test("languages: BCP 47 codes, canonical case, duplicates 409, base cannot be removed", async () => {
    const pid = await admin.project("Langs", "en");
    const pt = await admin.post(`/projects/${pid}/languages`, { code: "pt-br" });
    expect(pt.status).toBe(201);
    expect(pt.body).toMatchObject({ code: "pt-BR", name: "Brazilian Portuguese", is_base_language: false });
    expect((await admin.post(`/projects/${pid}/languages`, { code: "PT-BR" })).status).toBe(409);
    expect((await admin.post(`/projects/${pid}/languages`, { code: "zh-Hant-TW", name: "Traditional Chinese (Taiwan)" })).status).toBe(201);
    expect((await admin.post(`/projects/${pid}/languages`, { code: "es-419" })).status).toBe(201);
    for (const bad of ["", "e", "en_US", "en/../x", "1234", "en-", "a".repeat(40), "ünï"]) {
      const r = await admin.post(`/projects/${pid}/languages`, { code: bad });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain("code");
    }
    expect((await admin.delete(`/projects/${pid}/languages/en`)).status).toBe(409);
    expect((await member.post(`/projects/${pid}/languages`, { code: "de" })).status).toBe(403);
    expect((await admin.delete(`/projects/${pid}/languages/es-419`)).status).toBe(204);
    expect((await admin.delete(`/projects/${pid}/languages/es-419`)).status).toBe(404);
    const codes = (await admin.get(`/projects/${pid}/languages`)).body.items.map((l: any) => l.code);
    expect(codes).toEqual(["en", "pt-BR", "zh-Hant-TW"]);
  });

  test("patch: rename and change the base language to one of the project's languages only", async () => {
    const pid = await admin.project("Rename me", "en", ["de"]);
    const r = await admin.patch(`/projects/${pid}`, { name: "Renamed", base_language_code: "de" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "Renamed", base_language_code: "de" });
    const bad = await admin.patch(`/projects/${pid}`, { base_language_code: "fr" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("not a language of this project");
    const langs = (await admin.get(`/projects/${pid}/languages`)).body.items;
    expect(langs.find((l: any) => l.code === "de").is_base_language).toBe(true);
  });

  test("spec 2.7: rotating the project slug gives a new random 16-char slug", async () => {
    const p = await admin.post("/projects", { name: "Rotate", base_language_code: "en" });
    const r = await admin.post(`/projects/${p.body.id}/rotate-slug`);
    expect(r.status).toBe(200);
    expect(r.body.cdn_slug).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(r.body.cdn_slug).not.toBe(p.body.cdn_slug);
    expect((await member.post(`/projects/${p.body.id}/rotate-slug`)).status).toBe(403);
  });
});

describe("CONTRACTS 4: keys and translations", () => {
  test("create, search, page; keys kept exactly as authored; duplicates 409", async () => {
    const pid = await admin.project("Keys", "en", ["fr"]);
    const keys = ["home.title", "home.subtitle", "cart.items_count", "Checkout-Button", "ünïcode.ключ", "100%_done"];
    for (const key of keys) await member.key(pid, key, { en: `EN ${key}` });
    expect((await member.post(`/projects/${pid}/keys`, { key: "home.title" })).status).toBe(409);
    const all = await member.get(`/projects/${pid}/keys`);
    expect(all.body.page_info).toEqual({ total_count: 6, page: 1, page_size: 50, total_pages: 1 });
    expect(all.body.items.map((k: any) => k.key)).toEqual([...keys].sort());
    const search = await member.get(`/projects/${pid}/keys?search=HOME`);
    expect(search.body.items.map((k: any) => k.key)).toEqual(["home.subtitle", "home.title"]);
    const pct = await member.get(`/projects/${pid}/keys?search=${encodeURIComponent("100%")}`);
    expect(pct.body.items.map((k: any) => k.key)).toEqual(["100%_done"]);
    const byValue = await member.get(`/projects/${pid}/keys?search=${encodeURIComponent("EN cart")}`);
    expect(byValue.body.items.map((k: any) => k.key)).toEqual(["cart.items_count"]);
    const page2 = await member.get(`/projects/${pid}/keys?page=2&page_size=4`);
    expect(page2.body.page_info).toEqual({ total_count: 6, page: 2, page_size: 4, total_pages: 2 });
    expect(page2.body.items).toHaveLength(2);
    for (const bad of ["page=0", "page=-1", "page=abc", "page_size=0", "page_size=1.5"]) {
      const r = await member.get(`/projects/${pid}/keys?${bad}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(bad.split("=")[0]);
    }
    const item = all.body.items.find((k: any) => k.key === "home.title");
    expect(item).toEqual({ id: expect.stringMatching(ID), key: "home.title", context: null, translations: { en: { value: "EN home.title", status: "translated" } } });
  });

  test("bad keys are 400 naming the field", async () => {
    const pid = await admin.project("Bad keys");
    for (const body of [{ key: "" }, { key: " padded" }, { key: "tab\there" }, { key: "x".repeat(513) }, { key: 5 }, {}, { key: "ok", context: 5 }]) {
      const r = await member.post(`/projects/${pid}/keys`, body);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/"(key|context)"/);
    }
  });

  test("translation lifecycle: created, updated, approved, an edit resets approval", async () => {
    const pid = await admin.project("Lifecycle", "en", ["de"]);
    const kid = await member.key(pid, "greeting");
    const put = (value: unknown) => member.put(`/projects/${pid}/keys/${kid}/translations/de`, { value });
    const first = await put("Hallo");
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ key: "greeting", language_code: "de", value: "Hallo", status: "translated" });
    const approve = await member.post(`/projects/${pid}/keys/${kid}/translations/de/approve`);
    expect(approve.body.status).toBe("approved");
    expect((await put("Hallo")).body.status).toBe("approved"); // same value: nothing changes
    expect((await put("Hallo!")).body.status).toBe("translated");
    expect((await put(5)).status).toBe(400);
    expect((await member.put(`/projects/${pid}/keys/${kid}/translations/fr`, { value: "x" })).status).toBe(404);
    expect((await member.post(`/projects/${pid}/keys/${kid}/translations/en/approve`)).status).toBe(404);
    const events = server
      .query<{ event: string; payload: string }>("SELECT event, payload FROM outbox_events WHERE payload LIKE ? ORDER BY id", '%"greeting"%')
      .map((r) => r.event);
    expect(events).toEqual(["key_created", "translation_created", "translation_approved", "translation_updated"]);
  });

  test("rename, context, delete; a renamed key may not take another key's name", async () => {
    const pid = await admin.project("Edit keys");
    const a = await member.key(pid, "a.key", {}, "Shown on the home screen");
    await member.key(pid, "b.key");
    expect((await member.patch(`/projects/${pid}/keys/${a}`, { key: "b.key" })).status).toBe(409);
    const r = await member.patch(`/projects/${pid}/keys/${a}`, { key: "a.renamed", context: null });
    expect(r.body).toMatchObject({ key: "a.renamed", context: null });
    expect((await member.delete(`/projects/${pid}/keys/${a}`)).status).toBe(204);
    expect((await member.delete(`/projects/${pid}/keys/${a}`)).status).toBe(404);
  });

  test("unicode and huge values: stored exactly, over the limit rejected", async () => {
    const pid = await admin.project("Values", "ja");
    const kid = await member.key(pid, "emoji");
    const value = "こんにちは 👋🏽 {name}\n\"quoted\" \\ back";
    expect((await member.put(`/projects/${pid}/keys/${kid}/translations/ja`, { value })).body.value).toBe(value);
    const huge = await member.put(`/projects/${pid}/keys/${kid}/translations/ja`, { value: "x".repeat(100_001) });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toContain('"value"');
    const list = await member.get(`/projects/${pid}/keys`);
    expect(list.body.items[0].translations.ja.value).toBe(value);
  });

  test("concurrent writes to different keys all land, none is lost", async () => {
    const pid = await admin.project("Concurrent", "en");
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => member.post(`/projects/${pid}/keys`, { key: `k.${i}` })));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect((await member.get(`/projects/${pid}/keys`)).body.page_info.total_count).toBe(40);
    const same = await Promise.all(Array.from({ length: 10 }, () => member.post(`/projects/${pid}/keys`, { key: "same" })));
    expect(same.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
  });
});

describe("CONTRACTS 4: release drafts", () => {
  test("create a draft, rename, delete; drafts have no slug; tags are unique per project", async () => {
    const pid = await admin.project("Releases");
    const r = await admin.post(`/projects/${pid}/releases`, { name: "First", tag: "v1.0.0" });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: expect.stringMatching(/^rel_/), name: "First", tag: "v1.0.0", status: "draft", created_at: expect.stringMatching(ISO), published_at: null });
    expect((await admin.post(`/projects/${pid}/releases`, { name: "Again", tag: "v1.0.0" })).status).toBe(409);
    expect((await admin.post(`/projects/${pid}/releases`, { name: "", tag: "v2" })).body.error).toContain('"name"');
    expect((await admin.post(`/projects/${pid}/releases`, { name: "x" })).body.error).toContain('"tag"');
    const detail = await admin.get(`/projects/${pid}/releases/${r.body.id}`);
    expect(detail.body).toEqual(r.body);
    const renamed = await admin.patch(`/projects/${pid}/releases/${r.body.id}`, { name: "First (renamed)" });
    expect(renamed.body.name).toBe("First (renamed)");
    expect((await member.post(`/projects/${pid}/releases`, { name: "M", tag: "m" })).status).toBe(403);
    expect((await member.delete(`/projects/${pid}/releases/${r.body.id}`)).status).toBe(403);
    expect((await admin.delete(`/projects/${pid}/releases/${r.body.id}`)).status).toBe(204);
    expect((await admin.get(`/projects/${pid}/releases/${r.body.id}`)).status).toBe(404);
    const other = await admin.project("Other");
    expect((await admin.get(`/projects/${other}/releases/${r.body.id}`)).status).toBe(404);
  });
});

describe("CONTRACTS 2, 4: API tokens", () => {
  test("created once with a pb_ prefix, stored only as a hash, listed by name, deleted", async () => {
    const pid = await admin.project("Tokens");
    const r = await admin.post(`/projects/${pid}/tokens`, { name: "CI deploy" });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: expect.stringMatching(/^tok_/), name: "CI deploy", token: expect.stringMatching(/^pb_[0-9A-Za-z]{43}$/), created_at: expect.stringMatching(ISO), last_used_at: null });
    const list = await admin.get(`/projects/${pid}/tokens`);
    expect(list.body.items).toEqual([{ id: r.body.id, name: "CI deploy", created_at: r.body.created_at, last_used_at: null }]);
    const stored = server.query<{ token_hash: string }>("SELECT token_hash FROM api_tokens");
    expect(stored.some((s) => s.token_hash === r.body.token)).toBe(false);
    expect(stored.some((s) => s.token_hash === new Bun.CryptoHasher("sha256").update(r.body.token).digest("hex"))).toBe(true);
    expect((await member.post(`/projects/${pid}/tokens`, { name: "x" })).status).toBe(403);
    expect((await admin.post(`/projects/${pid}/tokens`, { name: "" })).status).toBe(400);
    expect((await admin.delete(`/projects/${pid}/tokens/${r.body.id}`)).status).toBe(204);
    expect((await admin.delete(`/projects/${pid}/tokens/${r.body.id}`)).status).toBe(404);
  });
});
