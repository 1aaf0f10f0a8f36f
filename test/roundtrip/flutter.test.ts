/**
 * A real gen-l10n project through the server (product §9 "ARB (Flutter)"; docs/formats.md "ARB
 * metadata"): the template test/fixtures/roundtrip/flutter/app_en.arb (57 messages, every
 * placeholder type, every number format and every DateFormat constructor gen-l10n knows, `+`-joined
 * and custom date formats, the inline `{due, date, ::yMMMd}` form, snake_case and camelCase names,
 * plurals with `=0 =1 =2`, selects, `'{query}'`) and its German translation, imported in a `flutter` project, published, and read
 * back from the CDN: every `@key` attribute and `@@` attribute is there, under the names of spec
 * §2.6, German pushes change none of it, and nothing is an error.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { arbNames } from "../../src/formats/arb-names.ts";
import { cdnFixture, latestUrl, projectSlug, publish, type CdnFixture } from "../helpers/releases.ts";

const dir = `${import.meta.dir}/../fixtures/roundtrip/flutter`;
const EN = readFileSync(`${dir}/app_en.arb`, "utf8");
const DE = readFileSync(`${dir}/app_de.arb`, "utf8");
const template = JSON.parse(EN) as Record<string, any>;
const messages = Object.keys(template).filter((k) => !k.startsWith("@"));

let f: CdnFixture;
let pid: string;
let slug: string;

const push = (language_code: string, content: string, more: object = {}) => f.admin.post(`/projects/${pid}/import`, { language_code, format: "arb", content, ...more });

beforeAll(async () => {
  f = await cdnFixture();
  const created = await f.admin.post("/projects", { name: "Shopping", base_language_code: "en", message_syntax: "flutter" });
  expect(created.status).toBe(201);
  pid = created.body.id;
  expect(created.body.message_syntax).toBe("flutter");
  expect((await f.admin.post(`/projects/${pid}/languages`, { code: "de" })).status).toBe(201);
  slug = await projectSlug(f.admin, pid);
});
afterAll(() => f.t.close());

describe("a gen-l10n template and its German translation", () => {
  test("import: every message created, nothing wrong in either language", async () => {
    const en = await push("en", EN);
    expect(en.status).toBe(200);
    expect(en.body.created_keys).toBe(messages.length);
    expect(messages.length).toBeGreaterThanOrEqual(30);
    const de = await push("de", DE);
    expect(de.status).toBe(200);
    expect(de.body).toMatchObject({ created_keys: 0, updated_translations: messages.length, problems: 0 });
    const problems = await f.admin.get(`/projects/${pid}/problems`);
    expect(problems.body.items).toEqual([]);
  });

  test("the CDN ARB carries every @key attribute of the template, in order, under the spec §2.6 names, in both languages", async () => {
    await publish(f.admin, pid, "v1");
    const names = arbNames(messages);
    for (const code of ["en", "de"]) {
      const arb = await (await f.t.fetch(latestUrl(slug, code, "arb"))).json();
      expect(arb["@@locale"]).toBe(code);
      expect(arb["@@author"]).toBe("Phrasebook sample team");
      expect(arb["@@context"]).toBe("Shopping list sample app");
      expect(arb["@@last_modified"]).toBeUndefined();
      for (const key of messages) {
        const name = names.get(key)!;
        expect(name).toMatch(/^[a-z][A-Za-z0-9]*$/);
        if (template[`@${key}`] === undefined) expect(arb[`@${name}`]).toBeUndefined();
        else expect(JSON.stringify(arb[`@${name}`])).toBe(JSON.stringify(template[`@${key}`]));
      }
    }
    const en = await (await f.t.fetch(latestUrl(slug, "en", "arb"))).json();
    expect(en.settingsTitle).toBe("Settings");
    expect(en["@price_currency"]).toBeUndefined();
    expect(en["@priceCurrency"].placeholders.price.optionalParameters).toEqual({ decimalDigits: 2, name: "EUR", symbol: "€", customPattern: "¤#0.00" });
  });

  test("the dashboard API's key objects carry the metadata; a German push never changes it", async () => {
    const key = (await f.admin.get(`/projects/${pid}/keys?search=createdOn`)).body.items[0];
    expect(key.arb_metadata).toEqual(template["@createdOn"]);
    const again = await push("de", JSON.stringify({ "@@locale": "de", createdOn: "Am {date} erstellt", "@createdOn": { placeholders: { date: { type: "String" } } } }));
    expect(again.status).toBe(200);
    expect((await f.admin.get(`/projects/${pid}/keys/${key.id}`)).body.arb_metadata).toEqual(template["@createdOn"]);
  });

  test("a later base push without an attribute removes it, and without the @@ attributes drops them", async () => {
    const changed = { ...template };
    delete changed["@@author"];
    changed["@helloUser"] = { placeholders: { userName: { type: "String" } } };
    const r = await push("en", JSON.stringify(changed));
    expect(r.status).toBe(200);
    expect(r.body.changes).toEqual([{ key: "helloUser", change: "updated" }]);
    await publish(f.admin, pid, "v2");
    const en = await (await f.t.fetch(latestUrl(slug, "en", "arb"))).json();
    expect(en["@helloUser"]).toEqual({ placeholders: { userName: { type: "String" } } });
    expect(en["@@author"]).toBeUndefined();
    expect(en["@@context"]).toBe("Shopping list sample app");
  });

  test("a key without stored metadata keeps the inferred placeholders", async () => {
    const key = await f.admin.post(`/projects/${pid}/keys`, { key: "new.count" });
    expect(key.status).toBe(201);
    expect((await f.admin.put(`/projects/${pid}/keys/${key.body.id}/translations/en`, { value: "{n, plural, one {# new} other {# new}}" })).status).toBe(200);
    await publish(f.admin, pid, "v3");
    const en = await (await f.t.fetch(latestUrl(slug, "en", "arb"))).json();
    expect(en["@newCount"]).toEqual({ placeholders: { n: { type: "num" } } });
  });
});

describe("what gen-l10n refuses in a template is refused on import, naming the message and attribute", () => {
  const refused: [string, object, RegExp][] = [
    ["an unknown DateTime format", { d: "{x}", "@d": { placeholders: { x: { type: "DateTime", format: "yyyy-MM-dd" } } } }, /"@d"\.placeholders\.x\.format "yyyy-MM-dd".*isCustomDateFormat/],
    ["an unknown number format", { d: "{x}", "@d": { placeholders: { x: { type: "double", format: "money" } } } }, /"@d"\.placeholders\.x\.format "money"/],
    ["isCustomDateFormat that is neither true nor false", { d: "{x}", "@d": { placeholders: { x: { type: "DateTime", format: "dd.MM", isCustomDateFormat: "yes" } } } }, /isCustomDateFormat must be "true" or "false"/],
    ["isCustomDateFormat a number", { d: "{x}", "@d": { placeholders: { x: { type: "DateTime", format: "dd.MM", isCustomDateFormat: 1 } } } }, /isCustomDateFormat must be "true" or "false"/],
    ["a custom pattern whose isCustomDateFormat is false", { d: "{x}", "@d": { placeholders: { x: { type: "DateTime", format: "dd.MM", isCustomDateFormat: false } } } }, /format "dd\.MM".*isCustomDateFormat/],
    ["an empty type", { d: "{x}", "@d": { placeholders: { x: { type: "" } } } }, /placeholders\.x\.type must be a non-empty string/],
    ["placeholders that are no object", { d: "{x}", "@d": { placeholders: ["x"] } }, /placeholders must be an object/],
    ["a plural placeholder typed String", { d: "{n, plural, one {a} other {b}}", "@d": { placeholders: { n: { type: "String" } } } }, /\{n\} is a plural, which gen-l10n takes only as num or int/],
    ["a select placeholder typed int", { d: "{g, select, a {a} other {b}}", "@d": { placeholders: { g: { type: "int" } } } }, /\{g\} is a select, which gen-l10n takes only as String/],
    ["optionalParameters that are no object", { d: "{x}", "@d": { placeholders: { x: { type: "double", format: "currency", optionalParameters: 2 } } } }, /optionalParameters must be an object/],
  ];
  for (const [what, file, message] of refused) {
    test(what, async () => {
      const r = await push("en", JSON.stringify({ "@@locale": "en", ...file }));
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(message);
    });
  }
  test("DateTime formats joined with + and custom ones are accepted", async () => {
    const r = await push("en", JSON.stringify({ "@@locale": "en", z1: "{x}", "@z1": { placeholders: { x: { type: "DateTime", format: "yMd+Hms" } } }, z2: "{x}", "@z2": { placeholders: { x: { type: "DateTime", format: "HH 'Uhr'", isCustomDateFormat: "true" } } } }));
    expect(r.status).toBe(200);
  });
  test("isCustomDateFormat as a JSON boolean, as gen-l10n also reads it, is accepted and kept as written", async () => {
    const meta = { placeholders: { x: { type: "DateTime", format: "dd.MM.yyyy", isCustomDateFormat: true } } };
    const r = await push("en", JSON.stringify({ "@@locale": "en", z3: "{x}", "@z3": meta }));
    expect(r.status).toBe(200);
    const key = (await f.admin.get(`/projects/${pid}/keys?search=z3`)).body.items[0];
    expect(key.arb_metadata).toEqual(meta);
  });
});
