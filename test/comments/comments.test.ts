/**
 * Comments on keys (docs/translators.md "Comments"): plain text up to 4,000
 * characters, shown as text; translators and up may comment and resolve; the author or a project
 * admin may delete; `?comments=open` and `open_comments` on every key item.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { COMMENT_MAX_LENGTH } from "../../src/comments/limits.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

let t: TestApp;
let admin: DashboardClient;
const as: Record<string, DashboardClient> = {};
let pid: string;
let key: string;
let other: string;

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Shop", "en", ["de", "fr"]);
  key = await admin.key(pid, "checkout", { en: "Checkout" });
  other = await admin.key(pid, "cart", { en: "Cart" });
  for (const [who, role, languages] of [["viewer", "viewer"], ["tr", "translator", ["de"]], ["tr2", "translator", ["de"]], ["padmin", "admin"]] as const) {
    const made = await admin.post("/users", { email: `${who}@example.test`, name: who, password: `${who}-password`, role: "member" });
    await admin.put(`/projects/${pid}/members/${made.body.id}`, { role, ...(languages ? { languages } : {}) });
    as[who] = await t.login(`${who}@example.test`, `${who}-password`);
  }
});
afterAll(() => t.close());

const comments = (who: DashboardClient, k = key) => who.get(`/projects/${pid}/keys/${k}/comments`);

describe("translators.md: comments", () => {
  let first: any;

  test("a translator comments on a key, about their language; the text is kept as written", async () => {
    const body = 'Is this the page or the button? <script>alert(1)</script>\r\nSecond line & "quotes"';
    const r = await as.tr!.post(`/projects/${pid}/keys/${key}/comments`, { body, language_code: "DE" });
    expect(r.status).toBe(201);
    first = r.body;
    expect(r.body).toEqual({
      id: expect.stringMatching(/^cmt_/),
      body: 'Is this the page or the button? <script>alert(1)</script>\nSecond line & "quotes"',
      language_code: "de",
      by: { kind: "user", id: expect.stringMatching(/^usr_/), name: "tr" },
      at: expect.any(String),
      resolved_at: null,
    });
    expect((await comments(as.viewer!)).body.items).toEqual([r.body]);
  });

  test("a viewer may read but not comment; a translator not about a language outside theirs", async () => {
    expect((await as.viewer!.post(`/projects/${pid}/keys/${key}/comments`, { body: "hi" })).status).toBe(403);
    const r = await as.tr!.post(`/projects/${pid}/keys/${key}/comments`, { body: "hi", language_code: "fr" });
    expect(r.status).toBe(403);
  });

  test("the key list carries open_comments, and ?comments=open lists only keys with one", async () => {
    const list = (await admin.get(`/projects/${pid}/keys`)).body.items;
    expect(list.map((k: any) => [k.key, k.open_comments])).toEqual([
      ["cart", 0],
      ["checkout", 1],
    ]);
    expect((await admin.get(`/projects/${pid}/keys?comments=open`)).body.items.map((k: any) => k.key)).toEqual(["checkout"]);
    expect((await admin.get(`/projects/${pid}/keys/${key}`)).body.open_comments).toBe(1);
  });

  test("anyone who may comment resolves it; then it is no longer open", async () => {
    const r = await as.tr2!.post(`/projects/${pid}/keys/${key}/comments/${first.id}/resolve`);
    expect(r.status).toBe(200);
    expect(r.body.resolved_at).toEqual(expect.any(String));
    expect((await admin.get(`/projects/${pid}/keys?comments=open`)).body.items).toEqual([]);
    expect((await admin.get(`/projects/${pid}/keys/${key}`)).body.open_comments).toBe(0);
  });

  test("only its author or a project admin deletes a comment", async () => {
    const mine = (await as.tr2!.post(`/projects/${pid}/keys/${other}/comments`, { body: "mine" })).body;
    expect((await as.tr!.delete(`/projects/${pid}/keys/${other}/comments/${mine.id}`)).status).toBe(403);
    expect((await as.tr2!.delete(`/projects/${pid}/keys/${other}/comments/${mine.id}`)).status).toBe(204);
    const theirs = (await as.tr!.post(`/projects/${pid}/keys/${other}/comments`, { body: "theirs" })).body;
    expect((await as.padmin!.delete(`/projects/${pid}/keys/${other}/comments/${theirs.id}`)).status).toBe(204);
    expect((await comments(admin, other)).body.items).toEqual([]);
  });

  test("plain text up to the limit: longer, blank or with control characters is a 400 naming body", async () => {
    expect((await admin.post(`/projects/${pid}/keys/${key}/comments`, { body: "x".repeat(COMMENT_MAX_LENGTH) })).status).toBe(201);
    for (const body of ["x".repeat(COMMENT_MAX_LENGTH + 1), "   ", "bell\u0007"]) {
      expect((await admin.post(`/projects/${pid}/keys/${key}/comments`, { body })).body.error).toContain('invalid field "body"');
    }
  });

  test("a key's comments go with it", async () => {
    const k = await admin.key(pid, "gone", { en: "Gone" });
    await admin.post(`/projects/${pid}/keys/${k}/comments`, { body: "soon gone" });
    await admin.delete(`/projects/${pid}/keys/${k}`);
    expect(t.query<{ n: number }>("SELECT count(*) AS n FROM comments WHERE body = 'soon gone'")[0]!.n).toBe(0);
  });
});
