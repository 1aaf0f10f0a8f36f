/**
 * A real i18next v4 project through the server (product §9 "i18next plural forms"; docs/messages.md
 * "i18next plural forms"): test/fixtures/roundtrip/i18next/{en,fr,pl,ar}.json (nested, `{{name}}`,
 * `{{name, format}}`, `{{- name}}`, `$t()`, context, plural forms in four languages, ordinals)
 * imported in an `i18next` project and published: no errors, each language's progress counts
 * the forms it uses, `delete_missing` keeps the forms English lacks, and each CDN file carries
 * exactly the forms its language has.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { cdnFixture, latestUrl, projectSlug, publish, type CdnFixture } from "../helpers/releases.ts";

const dir = `${import.meta.dir}/../fixtures/roundtrip/i18next`;
const file = (code: string) => readFileSync(`${dir}/${code}.json`, "utf8");
const CODES = ["en", "fr", "pl", "ar"];

/** The file's keys as the flat JSON of the CDN names them. */
function flat(obj: Record<string, unknown>, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === "string") out[prefix + k] = v;
    else Object.assign(out, flat(v as Record<string, unknown>, `${prefix}${k}.`));
  }
  return out;
}

let f: CdnFixture;
let pid: string;
let slug: string;
const push = (language_code: string, content: string, more: object = {}) => f.admin.post(`/projects/${pid}/import`, { language_code, format: "json", content, ...more });

beforeAll(async () => {
  f = await cdnFixture();
  const created = await f.admin.post("/projects", { name: "Web", base_language_code: "en", message_syntax: "i18next" });
  expect(created.status).toBe(201);
  pid = created.body.id;
  for (const code of CODES.slice(1)) expect((await f.admin.post(`/projects/${pid}/languages`, { code })).status).toBe(201);
  slug = await projectSlug(f.admin, pid);
  for (const code of CODES) {
    const r = await push(code, file(code));
    expect(r.status).toBe(200);
    expect(r.body.syntax_hint).toBeUndefined();
  }
});
afterAll(() => f.t.close());

describe("an i18next project in en, fr, pl and ar", () => {
  test("no errors; warnings only where a translation leaves out {{count}}", async () => {
    const problems = (await f.admin.get(`/projects/${pid}/problems?page_size=100`)).body.items;
    expect(problems.filter((p: any) => p.severity === "error")).toEqual([]);
    for (const p of problems) expect(p.code).toBe("placeholder_missing");
  });

  test("each language's progress counts exactly the forms it uses: every language complete", async () => {
    const progress = (await f.admin.get(`/projects/${pid}/progress`)).body;
    for (const l of progress.languages) {
      const own = Object.keys(flat(JSON.parse(file(l.code)))).length;
      expect({ code: l.code, translated: l.translated, total: l.total_keys }).toEqual({ code: l.code, translated: own, total: own });
    }
  });

  test("items_many is not missing in English, nor items_zero in Polish", async () => {
    const missingEn = (await f.admin.get(`/projects/${pid}/keys?status=missing&language=en`)).body.items;
    expect(missingEn).toEqual([]);
    const missingPl = (await f.admin.get(`/projects/${pid}/keys?status=missing&language=pl`)).body.items;
    expect(missingPl).toEqual([]);
  });

  test("a base push with --delete-missing keeps the forms English does not use", async () => {
    const r = await push("en", file("en"), { delete_missing: true, dry_run: true });
    expect(r.status).toBe(200);
    expect(r.body.deleted_keys).toBe(0);
  });

  test("each CDN file is the flat i18next file of its language, with its own forms", async () => {
    await publish(f.admin, pid, "v1");
    for (const code of CODES) {
      const cdn = await (await f.t.fetch(latestUrl(slug, code))).json();
      expect(cdn).toEqual(flat(JSON.parse(file(code))));
    }
  });

  test("a language lacking one of its forms gets a plural_category warning on the _other form; adding it clears the warning", async () => {
    expect((await push("pl", JSON.stringify({ cart_one: "{{count}} koszyk", cart_other: "{{count}} koszyka" }))).status).toBe(200);
    const warned = (await f.admin.get(`/projects/${pid}/problems?language=pl`)).body.items.filter((p: any) => p.code === "plural_category");
    expect(warned.map((p: any) => [p.key, p.message])).toEqual([
      ["cart_other", "`cart_few` has no Polish value: Polish plural forms need one, few, many, other; those numbers get the `other` text"],
      ["cart_other", "`cart_many` has no Polish value: Polish plural forms need one, few, many, other; those numbers get the `other` text"],
    ]);
    expect((await push("pl", JSON.stringify({ cart_few: "{{count}} koszyki", cart_many: "{{count}} koszyków" }))).status).toBe(200);
    const after = (await f.admin.get(`/projects/${pid}/problems?language=pl`)).body.items.filter((p: any) => p.code === "plural_category");
    expect(after).toEqual([]);
  });

  test("a form English lacks names what it translates: the group's _other form (base_form), on lists and on the key", async () => {
    const items = (await f.admin.get(`/projects/${pid}/keys?page_size=100&languages=en,pl`)).body.items as any[];
    const byKey = new Map(items.map((i) => [i.key, i]));
    expect(byKey.get("items_few").base_form).toEqual({ key: "items_other", value: "{{count}} items" });
    expect(byKey.get("lists.shared_few").base_form).toEqual({ key: "lists.shared_other", value: "Shared with {{count}} people" });
    // Forms English has, and keys of no plural, carry none.
    for (const key of ["items_one", "items_other", "lists.shared_one"]) expect(byKey.get(key)).not.toHaveProperty("base_form");
    expect(items.filter((i) => i.base_form).every((i) => i.translations.en === undefined)).toBe(true);
    // Asked without the base language's column, the same.
    const plOnly = (await f.admin.get(`/projects/${pid}/keys?page_size=100&languages=pl`)).body.items as any[];
    expect(plOnly.filter((i) => i.base_form).map((i) => i.key).sort()).toEqual(items.filter((i) => i.base_form).map((i) => i.key).sort());
    expect((await f.admin.get(`/projects/${pid}/keys/${byKey.get("items_few").id}`)).body.base_form).toEqual({ key: "items_other", value: "{{count}} items" });
  });

  test("a value for a form the language does not use is a plural_category warning and is left out of its file", async () => {
    expect((await push("en", JSON.stringify({ items_many: "{{count}} lots of items" }))).status).toBe(200);
    const warned = (await f.admin.get(`/projects/${pid}/problems?language=en`)).body.items.filter((p: any) => p.code === "plural_category");
    expect(warned.map((p: any) => p.key)).toEqual(["items_many"]);
    await publish(f.admin, pid, "v2");
    const cdn = await (await f.t.fetch(latestUrl(slug, "en"))).json();
    expect(cdn.items_many).toBeUndefined();
  });
});
