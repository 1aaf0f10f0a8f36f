/**
 * The project's message syntax over the API (product §9; docs/messages.md "Syntaxes", "Hints"):
 * `POST /projects` and `PATCH` take every syntax and refuse others, a change rechecks the
 * project's values, and an import or a refused publish whose errors look like another syntax
 * says which one and how to set it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cdnFixture, importJson, type CdnFixture } from "../helpers/releases.ts";

let f: CdnFixture;
let pid: string;

beforeAll(async () => {
  f = await cdnFixture();
  pid = (await f.admin.post("/projects", { name: "Web", base_language_code: "en" })).body.id;
  expect((await f.admin.post(`/projects/${pid}/languages`, { code: "de" })).status).toBe(201);
});
afterAll(() => f.t.close());

test("POST and PATCH take icu, flutter, i18next and text, and name a wrong one", async () => {
  for (const syntax of ["flutter", "i18next", "text", "icu"]) {
    const made = await f.admin.post("/projects", { name: `P ${syntax}`, base_language_code: "en", message_syntax: syntax });
    expect(made.status).toBe(201);
    expect(made.body.message_syntax).toBe(syntax);
  }
  const bad = await f.admin.post("/projects", { name: "X", base_language_code: "en", message_syntax: "gettext" });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toContain("message_syntax");
});

test("an import of i18next strings into an icu project says so; switching to i18next clears the errors", async () => {
  await importJson(f.admin, pid, "en", { greeting: "Hello {{name}}", items: "{{count}} items", nav: "$t(common.app) home" });
  const de = await f.admin.post(`/projects/${pid}/import`, { language_code: "de", format: "json", content: JSON.stringify({ greeting: "Hallo {{name}}", items: "{{count}} Artikel", nav: "$t(common.app) Start" }) });
  expect(de.status).toBe(200);
  expect(de.body.problems).toBeGreaterThan(0);
  expect(de.body.syntax_hint).toEqual({ syntax: "i18next", message: expect.stringContaining(`"message_syntax": "i18next"`) });

  const draft = await f.admin.post(`/projects/${pid}/releases`, { name: "R", tag: "r1" });
  const refused = await f.admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`);
  expect(refused.status).toBe(409);
  expect(refused.body.syntax_hint.syntax).toBe("i18next");
  expect(refused.body.error).toContain(`set the project's message syntax to "i18next"`);

  expect((await f.admin.patch(`/projects/${pid}`, { message_syntax: "i18next" })).status).toBe(200);
  expect((await f.admin.get(`/projects/${pid}/problems`)).body.items.filter((p: any) => p.severity === "error")).toEqual([]);
  expect((await f.admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`)).status).toBe(200);
});
