/**
 * The glossary (docs/translators.md "Glossary"): terms with translations, a note and
 * two flags; CSV out and in with the exact header; and the `glossary` warning of the message
 * checks (docs/messages.md "Glossary"), kept current when terms or base strings change.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { GlossaryMatcher, glossaryFindings, type GlossaryTerm } from "../../src/messages/glossary.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

let t: TestApp;
let admin: DashboardClient;
let pid: string;

const term = (t: Partial<GlossaryTerm> & { term: string }): GlossaryTerm => ({ translations: {}, caseSensitive: false, doNotTranslate: false, ...t });

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Shop", "en", ["de", "fr"]);
});
afterAll(() => t.close());

const problemsOf = async (keyId: string, code = "de") => (await admin.get(`/projects/${pid}/keys/${keyId}`)).body.translations[code]?.problems ?? [];

describe("messages: the glossary check", () => {
  test("terms are found as whole words, in any letter case unless case-sensitive; in scripts without spaces anywhere", () => {
    const m = new GlossaryMatcher([term({ term: "App" }), term({ term: "Phrasebook", caseSensitive: true }), term({ term: "設定" })]);
    expect(m.find("Open the app").map((x) => x.term)).toEqual(["App"]);
    expect(m.find("Apple pie")).toEqual([]);
    expect(m.find("phrasebook is lower case")).toEqual([]);
    expect(m.find("Phrasebook's site").map((x) => x.term)).toEqual(["Phrasebook"]);
    expect(m.find("アプリの設定を開く").map((x) => x.term)).toEqual(["設定"]);
  });

  test("a translation lacking the term's translation, or changing a term not to be translated, is warned about", () => {
    const m = new GlossaryMatcher([term({ term: "account", translations: { de: "Konto" } }), term({ term: "Phrasebook", doNotTranslate: true })]);
    expect(glossaryFindings("Open your account", "Öffne dein Profil", "de", m)).toEqual([
      { code: "glossary", severity: "warning", message: "the glossary translates `account` as `Konto`, which this translation does not use" },
    ]);
    expect(glossaryFindings("Open your account", "Öffne deine Kontoeinstellungen", "de", m)).toEqual([]);
    expect(glossaryFindings("Open your account", "Ouvrez votre compte", "fr", m)).toEqual([]); // no French translation given
    expect(glossaryFindings("Phrasebook helps", "Phrasenbuch hilft", "de", m)).toEqual([{ code: "glossary", severity: "warning", message: "`Phrasebook` is not to be translated (glossary); keep it as it is" }]);
  });
});

describe("translators.md: the glossary", () => {
  test("terms: made, listed in order, changed (translations by language, merged), deleted", async () => {
    const made = await admin.post(`/projects/${pid}/glossary`, { term: " checkout ", translations: { DE: "Kasse" }, note: "the page, not the act" });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: expect.stringMatching(/^gls_/),
      term: "checkout",
      translations: { de: "Kasse" },
      note: "the page, not the act",
      case_sensitive: false,
      do_not_translate: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const patched = await admin.patch(`/projects/${pid}/glossary/${made.body.id}`, { translations: { fr: "Paiement" }, case_sensitive: true });
    expect(patched.body).toMatchObject({ translations: { de: "Kasse", fr: "Paiement" }, case_sensitive: true });
    expect((await admin.patch(`/projects/${pid}/glossary/${made.body.id}`, { translations: { de: "" } })).body.translations).toEqual({ fr: "Paiement" });
    expect((await admin.post(`/projects/${pid}/glossary`, { term: "checkout" })).status).toBe(409);
    expect((await admin.post(`/projects/${pid}/glossary`, { term: "cart", translations: { it: "carrello" } })).body.error).toContain('invalid field "translations": it is not a language of this project');
    expect((await admin.delete(`/projects/${pid}/glossary/${made.body.id}`)).status).toBe(204);
    expect((await admin.get(`/projects/${pid}/glossary`)).body.items).toEqual([]);
  });

  test("the warning is stored with the value, and follows the glossary and the base text", async () => {
    const key = await admin.key(pid, "account.open", { en: "Open your account", de: "Öffne dein Profil" });
    expect(await problemsOf(key)).toEqual([]);
    const made = await admin.post(`/projects/${pid}/glossary`, { term: "account", translations: { de: "Konto" } });
    expect(await problemsOf(key)).toEqual([expect.objectContaining({ code: "glossary", severity: "warning" })]);
    // Counted where every warning is: the problem list, and the progress.
    expect((await admin.get(`/projects/${pid}/problems?language=de`)).body.items.map((p: any) => p.code)).toContain("glossary");
    await admin.put(`/projects/${pid}/keys/${key}/translations/de`, { value: "Öffne dein Konto" });
    expect(await problemsOf(key)).toEqual([]);
    await admin.put(`/projects/${pid}/keys/${key}/translations/de`, { value: "Öffne dein Profil" });
    await admin.put(`/projects/${pid}/keys/${key}/translations/en`, { value: "Open your profile" });
    expect(await problemsOf(key)).toEqual([]); // the base text no longer holds the term
    await admin.put(`/projects/${pid}/keys/${key}/translations/en`, { value: "Open your account" });
    expect(await problemsOf(key)).toHaveLength(1);
    await admin.delete(`/projects/${pid}/glossary/${made.body.id}`);
    expect(await problemsOf(key)).toEqual([]);
  });
});

describe("translators.md: the glossary as CSV", () => {
  test("export: the exact header, one row per term, quoted where needed", async () => {
    await admin.post(`/projects/${pid}/glossary`, { term: "cart", translations: { de: "Warenkorb", fr: "panier" }, note: 'as in "shopping, cart"' });
    await admin.post(`/projects/${pid}/glossary`, { term: "Phrasebook", do_not_translate: true, case_sensitive: true });
    const file = await admin.download(`/projects/${pid}/glossary.csv`);
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(file.text).toBe('term,de,fr,note,case_sensitive,do_not_translate\r\nPhrasebook,,,,true,true\r\ncart,Warenkorb,panier,"as in ""shopping, cart""",false,false\r\n');
  });

  test("import: known terms updated, new ones added, same ones unchanged; the flags and note optional", async () => {
    const csv = "term,de\r\ncart,Einkaufswagen\r\nwishlist,Wunschliste\r\nPhrasebook,\r\n";
    const r = await admin.upload("POST", `/projects/${pid}/glossary.csv`, csv, "text/csv");
    expect(r.body).toEqual({ created: 1, updated: 1, unchanged: 1 });
    const items = (await admin.get(`/projects/${pid}/glossary`)).body.items;
    expect(items.find((i: any) => i.term === "cart")).toMatchObject({ translations: { de: "Einkaufswagen", fr: "panier" }, note: 'as in "shopping, cart"' });
    expect(items.find((i: any) => i.term === "Phrasebook")).toMatchObject({ do_not_translate: true, case_sensitive: true });
  });

  test("a round trip changes nothing", async () => {
    const file = await admin.download(`/projects/${pid}/glossary.csv`);
    const r = await admin.upload("POST", `/projects/${pid}/glossary.csv`, file.text, "text/csv");
    expect(r.body).toMatchObject({ created: 0, updated: 0 });
    expect((await admin.download(`/projects/${pid}/glossary.csv`)).text).toBe(file.text);
  });

  test("refused with the line: a bad flag, an unknown column, a broken quote, a term twice; not CSV: 415", async () => {
    const cases: [string, string][] = [
      ["term,de,case_sensitive\nx,y,maybe\n", "invalid CSV: line 2: case_sensitive must be true or false"],
      ["term,it\nx,y\n", 'invalid CSV: line 1: column "it" is not a language of this project'],
      ['term,de\n"x,y\n', "invalid CSV: line 2: a quoted field is never closed"],
      ["term,de\nx,a\nx,b\n", 'invalid CSV: line 3: the term "x" is listed twice'],
      ["word,de\nx,y\n", "invalid CSV: line 1: the first column of the header must be term"],
    ];
    for (const [csv, error] of cases) {
      const r = await admin.upload("POST", `/projects/${pid}/glossary.csv`, csv, "text/csv");
      expect({ status: r.status, error: r.body.error }).toEqual({ status: 400, error: expect.stringContaining(error) });
    }
    expect((await admin.upload("POST", `/projects/${pid}/glossary.csv`, "term\nx\n", "text/plain")).status).toBe(415);
  });
});
