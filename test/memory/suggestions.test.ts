/**
 * Suggestions from the translation memory (docs/translators.md "Translation memory"):
 * stored translations into the language whose base string equals or resembles the key's, from
 * every project the person may read and the memories imported into them, best first, at most 10,
 * each with `from` and its `problems` as this key's value; placeholders renamed to this key's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

let t: TestApp;
let admin: DashboardClient;
const ids: Record<string, string> = {};

const suggest = (who: DashboardClient, pid: string, keyId: string, language: string) => who.get(`/projects/${pid}/keys/${keyId}/suggestions?language=${language}`);

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  ids.shop = await admin.project("Shop", "en", ["de", "fr"]);
  ids.saveFile = await admin.key(ids.shop, "save.file", { en: "Save the file", de: "Datei speichern", fr: "Enregistrer le fichier" });
  ids.saveFiles = await admin.key(ids.shop, "save.files", { en: "Save the files" });
  ids.greet = await admin.key(ids.shop, "greet", { en: "Hello {name}, welcome!", de: "Hallo {name}, willkommen!" });
  ids.greetUser = await admin.key(ids.shop, "greet.user", { en: "Hello {user}, welcome!" });
  ids.count = await admin.key(ids.shop, "count", { en: "You have {count} new messages", de: "Sie haben neue Nachrichten" });
  ids.countAgain = await admin.key(ids.shop, "count.again", { en: "You have {count} new messages!" });
  ids.blog = await admin.project("Blog", "en-GB", ["de"]);
  ids.blogKey = await admin.key(ids.blog, "save", { "en-GB": "Save the file", de: "Die Datei speichern" });
  ids.secret = await admin.project("Secret", "en", ["de", "fr"]);
  await admin.key(ids.secret, "save", { en: "Save the file", de: "Geheime Datei speichern" });
  ids.french = await admin.project("Français", "fr", ["de"]);
  await admin.key(ids.french, "save", { fr: "Save the file", de: "Französisch gespeichert" });
  // A member: translator of de in Shop and Blog, translator of fr only in Secret (so Secret's German is not theirs to read).
  const made = await admin.post("/users", { email: "tr@example.test", name: "Tr", password: "tr-password", role: "member" });
  ids.trId = made.body.id;
  for (const [pid, languages] of [[ids.shop, ["de"]], [ids.blog, ["de"]], [ids.secret, ["fr"]]] as const) {
    expect((await admin.put(`/projects/${pid}/members/${ids.trId}`, { role: "translator", languages })).status).toBe(200);
  }
});

afterAll(() => t.close());

describe("translators.md: suggestions", () => {
  test("equal and resembling base strings, best first, with where each comes from", async () => {
    const r = await suggest(admin, ids.shop, ids.saveFiles, "de");
    expect(r.status).toBe(200);
    expect(r.body.items.map((i: any) => [i.value, i.score])).toEqual([
      ["Datei speichern", 92],
      ["Die Datei speichern", 92],
      ["Geheime Datei speichern", 92],
    ]);
    const [first] = r.body.items;
    expect(first).toEqual({
      source: "memory",
      value: "Datei speichern",
      score: 92,
      from: { project: { id: ids.shop, name: "Shop" }, key: { id: ids.saveFile, key: "save.file" }, memory: null, language_code: "de" },
      problems: [],
    });
  });

  test("never the key itself; another project's base language must be the same language (en-GB is en, fr is not)", async () => {
    const r = await suggest(admin, ids.shop, ids.saveFile, "de");
    const values = r.body.items.map((i: any) => i.value);
    expect(values).not.toContain("Datei speichern");
    expect(values).toContain("Die Datei speichern");
    expect(values).not.toContain("Französisch gespeichert");
  });

  test("only from projects the person may read, in languages their role there covers", async () => {
    const tr = await t.login("tr@example.test", "tr-password");
    const r = await suggest(tr, ids.shop, ids.saveFiles, "de");
    expect(r.status).toBe(200);
    expect(r.body.items.map((i: any) => i.from.project.name).sort()).toEqual(["Blog", "Shop"]);
  });

  test("a translator asking for a language their role does not cover: 403", async () => {
    const tr = await t.login("tr@example.test", "tr-password");
    const r = await suggest(tr, ids.shop, ids.saveFiles, "fr");
    expect(r.status).toBe(403);
    expect(r.body.error).toContain("covers de, not fr");
  });

  test("a matched string that differs only in placeholder names scores 100 and takes this key's names", async () => {
    const r = await suggest(admin, ids.shop, ids.greetUser, "de");
    expect(r.body.items[0]).toMatchObject({ value: "Hallo {user}, willkommen!", score: 100 });
    expect(r.body.items[0].problems).toEqual([]);
  });

  test("a suggestion's problems are this key's: one lacking a placeholder says so", async () => {
    const r = await suggest(admin, ids.shop, ids.countAgain, "de");
    expect(r.body.items[0]).toMatchObject({ value: "Sie haben neue Nachrichten", score: 96 });
    expect(r.body.items[0].problems).toEqual([expect.objectContaining({ code: "placeholder_missing", severity: "warning" })]);
  });

  test("a project's new base language is what its memory holds from then on", async () => {
    const pid = await admin.project("Flip", "en", ["de"]);
    await admin.key(pid, "a", { en: "Print the report", de: "Den Bericht drucken" });
    const probe = await admin.key(pid, "b", { en: "Print the reports", de: "Die Berichte drucken" });
    expect((await suggest(admin, pid, probe, "de")).body.items.map((i: any) => i.value)).toEqual(["Den Bericht drucken"]);
    expect((await admin.patch(`/projects/${pid}`, { base_language_code: "de" })).status).toBe(200);
    // Now German is the source: the English value of `a` is suggested for `b` in English.
    expect((await suggest(admin, pid, probe, "en")).body.items.map((i: any) => [i.value, i.score])).toEqual([["Print the report", 85]]); // d 3 of 20: "Die Berichte" vs "Den Bericht"
  });

  test("the index is made again from the values where it is missing (an upgrade)", async () => {
    const { ensureDerived } = await import("../../src/storage/derived.ts");
    t.deps.db.$client.run("DROP TABLE memory_search");
    expect(ensureDerived(t.deps.db.$client)).toEqual(["memory_search"]);
    expect((await suggest(admin, ids.shop, ids.saveFiles, "de")).body.items.map((i: any) => i.value)).toContain("Datei speichern");
  });

  test("the memory follows the base strings: an edit, a deletion", async () => {
    const key = await admin.key(ids.shop, "moving", { en: "Open the settings page", de: "Einstellungen öffnen" });
    const probe = await admin.key(ids.shop, "probe", { en: "Close the settings page" });
    expect((await suggest(admin, ids.shop, probe, "de")).body.items.map((i: any) => i.value)).toContain("Einstellungen öffnen");
    await admin.put(`/projects/${ids.shop}/keys/${key}/translations/en`, { value: "Something else entirely" });
    expect((await suggest(admin, ids.shop, probe, "de")).body.items).toEqual([]);
    await admin.put(`/projects/${ids.shop}/keys/${key}/translations/en`, { value: "Open the settings page" });
    expect((await suggest(admin, ids.shop, probe, "de")).body.items).toHaveLength(1);
    await admin.delete(`/projects/${ids.shop}/keys/${key}`);
    expect((await suggest(admin, ids.shop, probe, "de")).body.items).toEqual([]);
    await admin.delete(`/projects/${ids.shop}/keys/${probe}`);
  });

  test("imported memories are suggested, named by their import, and leave with it", async () => {
    const tmx = `<?xml version="1.0"?><tmx version="1.4"><header creationtool="x" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/>
      <body><tu tuid="t1"><tuv xml:lang="en"><seg>Delete the account</seg></tuv><tuv xml:lang="de-DE"><seg>Konto löschen</seg></tuv></tu></body></tmx>`;
    const imported = await admin.upload("POST", `/projects/${ids.shop}/tm/import?name=Old%20tool`, tmx, "application/xml");
    expect(imported.body).toMatchObject({ imported: 1, skipped: 0 });
    const probe = await admin.key(ids.shop, "delete.account", { en: "Delete the accounts" });
    const r = await suggest(admin, ids.shop, probe, "de");
    expect(r.body.items).toEqual([
      { source: "memory", value: "Konto löschen", score: 94, from: { project: { id: ids.shop, name: "Shop" }, key: null, memory: { id: imported.body.id, name: "Old tool" }, language_code: "de" }, problems: [] },
    ]);
    expect((await admin.get(`/projects/${ids.shop}/tm/imports`)).body.items).toEqual([expect.objectContaining({ id: imported.body.id, name: "Old tool", units: 1, source_language: "en" })]);
    expect((await admin.delete(`/projects/${ids.shop}/tm/imports/${imported.body.id}`)).status).toBe(204);
    expect((await suggest(admin, ids.shop, probe, "de")).body.items).toEqual([]);
    expect(t.query<{ n: number }>("SELECT count(*) AS n FROM memory_units")[0]!.n).toBe(0);
  });

  test("short strings one edit apart are found, though they share no trigram but their first", async () => {
    const pid = await admin.project("Short", "en", ["de"]);
    // Distractors: 21,000 strings make " th" and "the" too common to read, 3,000 more begin as
    // "A t": all "A the." shares with "A the" that is read is then held by 3,000 others, stored
    // before it (so first among equals).
    const c = t.deps.db.$client;
    const projectId = c.query<{ id: number }, [string]>("SELECT id FROM projects WHERE public_id = ?").get(pid)!.id;
    const en = c.query<{ id: number }, [number]>("SELECT id FROM languages WHERE project_id = ? AND code = 'en'").get(projectId)!.id;
    c.transaction(() => {
      for (let i = 0; i < 24_000; i++) {
        const id = c.query<{ id: number }, [string, number, string]>("INSERT INTO translation_keys (public_id, project_id, key, created_at, updated_at) VALUES (?, ?, ?, 0, 0) RETURNING id").get(`key_d${String(i).padStart(19, "0")}`, projectId, `d.${i}`)!.id;
        c.query("INSERT INTO translations (key_id, language_id, value, status, updated_at) VALUES (?, ?, ?, 'translated', 0)").run(id, en, i < 21_000 ? `Open the item ${i}` : `A t${i} thing`);
      }
    })();
    await admin.key(pid, "a", { en: "A the.", de: "Ein das." });
    await admin.key(pid, "b", { en: "Delete and.", de: "Löschen und." });
    await admin.key(pid, "c", { en: "Cancel", de: "Abbrechen" });
    const tmx = `<tmx version="1.4"><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>Delete of.</seg></tuv><tuv xml:lang="de"><seg>Löschen von.</seg></tuv></tu></body></tmx>`;
    await admin.upload("POST", `/projects/${pid}/tm/import`, tmx, "application/xml");
    const probe = async (en: string) => {
      const k = await admin.key(pid, `probe.${en}`, { en });
      return (await suggest(admin, pid, k, "de")).body.items.map((i: any) => [i.value, i.score]);
    };
    expect(await probe("A the")).toEqual([["Ein das.", 83]]);
    expect(await probe("Delete in.")).toEqual([["Löschen und.", 81], ["Löschen von.", 80]]);
    expect(await probe("Cancle")).toEqual([]); // two edits in six: 66
  });

  test("at most 10, one per value", async () => {
    const pid = await admin.project("Many", "en", ["de"]);
    for (let i = 0; i < 14; i++) await admin.key(pid, `k${i}`, { en: `Upload photo number ${i}`, de: i < 3 ? "Gleich" : `Foto ${i} hochladen` });
    const probe = await admin.key(pid, "probe", { en: "Upload photo number 1!" });
    const r = await suggest(admin, pid, probe, "de");
    expect(r.body.items).toHaveLength(10);
    const values = r.body.items.map((i: any) => i.value);
    expect(new Set(values).size).toBe(10);
    expect(values.filter((v: string) => v === "Gleich")).toHaveLength(1);
    const scores = r.body.items.map((i: any) => i.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  test("language is required and must be the project's: 400 naming it", async () => {
    expect((await admin.get(`/projects/${ids.shop}/keys/${ids.saveFiles}/suggestions`)).body.error).toContain('"language"');
    expect((await suggest(admin, ids.shop, ids.saveFiles, "it")).body.error).toContain('invalid query parameter "language": it is not a language');
  });
});
