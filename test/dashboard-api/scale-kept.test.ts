/**
 * What SQLite keeps beside the values (docs/architecture.md "Counts kept"; docs/deploy.md "Sizing"): the
 * per-language counts answer GET /progress and the key grid's counts exactly after every kind of
 * write, and a search through the trigram index finds exactly what a comparison with every key,
 * context and value finds: short terms, other scripts, letter case, LIKE's wildcards as
 * themselves, values changed and deleted, other projects' values never.
 */
import { describe, expect, test } from "bun:test";
import { trigramMatch } from "../../src/authoring/queries.ts";
import { ensureDerived } from "../../src/storage/derived.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

/** Every language's counts as a full count of its values gives them. */
function counted(t: TestApp) {
  return t.query(
    `SELECT l.id AS language_id, count(t.key_id) AS value_count, coalesce(sum(t.status = 'approved'), 0) AS approved_count,
       coalesce(sum(t.error_count > 0 OR t.warning_count > 0), 0) AS problem_value_count,
       coalesce(sum(t.error_count), 0) AS error_count, coalesce(sum(t.warning_count), 0) AS warning_count
     FROM languages l LEFT JOIN translations t ON t.language_id = l.id GROUP BY l.id ORDER BY l.id`,
  );
}

/** The kept counts, a language without a row read as zeros (as GET /progress reads them). */
function kept(t: TestApp) {
  return t.query(
    `SELECT l.id AS language_id, coalesce(c.value_count, 0) AS value_count, coalesce(c.approved_count, 0) AS approved_count,
       coalesce(c.problem_value_count, 0) AS problem_value_count, coalesce(c.error_count, 0) AS error_count, coalesce(c.warning_count, 0) AS warning_count
     FROM languages l LEFT JOIN language_counts c ON c.language_id = l.id ORDER BY l.id`,
  );
}

/** The key grid's counts for one language computed from the values themselves (docs/product.md §8). */
function gridCounts(t: TestApp, pid: string, code: string) {
  return t.query(
    `SELECT count(*) AS total, coalesce(sum(t.key_id IS NULL), 0) AS missing, coalesce(sum(t.status = 'translated'), 0) AS translated,
       coalesce(sum(t.status = 'approved'), 0) AS approved, coalesce(sum(t.error_count > 0 OR t.warning_count > 0), 0) AS problems
     FROM translation_keys k JOIN projects p ON p.id = k.project_id
     LEFT JOIN translations t ON t.key_id = k.id AND t.language_id = (SELECT l.id FROM languages l WHERE l.project_id = p.id AND l.code = ?)
     WHERE p.public_id = ?`,
    code,
    pid,
  )[0];
}

async function expectExact(t: TestApp, admin: DashboardClient, pid: string, step: string) {
  expect({ step, counts: kept(t) }).toEqual({ step, counts: counted(t) });
  const progress = (await admin.get(`/projects/${pid}/progress`)).body;
  for (const l of progress.languages) {
    const reply = (await admin.get(`/projects/${pid}/key-counts?language=${l.code}`)).body;
    const { language_code, ...rest } = reply;
    expect({ step, code: language_code, counts: rest }).toEqual({ step, code: l.code, counts: gridCounts(t, pid, l.code) });
    expect({ step, translated: l.translated }).toEqual({ step, translated: rest.total - rest.missing });
  }
}

describe("kept counts (docs/architecture.md \"Counts kept\")", () => {
  test("stay exact through saves, approvals, imports, a worker import, deleted keys and languages, base and syntax changes", async () => {
    const t = await testApp();
    try {
      const admin = await t.login();
      const pid = await admin.project("Counts", "en", ["de", "fr", "ja"]);
      const other = await admin.project("Other", "en", ["de"]);
      await admin.key(other, "elsewhere", { en: "Else {n}", de: "Anders" });
      await expectExact(t, admin, pid, "empty");
      const hello = await admin.key(pid, "hello", { en: "Hello {name}", de: "Hallo {name}", fr: "Salut {nom}" });
      const files = await admin.key(pid, "files", { en: "{count, plural, one {# file} other {# files}}", de: "{count, plural, other {# Dateien}}" });
      await admin.key(pid, "plain", { en: "Plain", ja: "プレーン" });
      await expectExact(t, admin, pid, "saves");
      expect((await admin.post(`/projects/${pid}/keys/${hello}/translations/de/approve`)).status).toBe(200);
      await expectExact(t, admin, pid, "approved");
      expect((await admin.put(`/projects/${pid}/keys/${hello}/translations/de`, { value: "Hallo {user}" })).status).toBe(200);
      await expectExact(t, admin, pid, "an approved value changed: translated again, with a finding");
      expect((await admin.put(`/projects/${pid}/keys/${hello}/translations/en`, { value: "Hello {user}" })).status).toBe(200);
      await expectExact(t, admin, pid, "a base change rechecks the others");
      const imported = await admin.post(`/projects/${pid}/import`, { language_code: "fr", format: "json", content: JSON.stringify({ hello: "Salut {user}", files: "{count, plural, one {# fichier} other {# fichiers}}", extra: "En plus" }) });
      expect(imported.status).toBe(200);
      await expectExact(t, admin, pid, "an import");
      // Over the worker threshold: the import runs on a thread of its own, with its own connection.
      const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`bulk.${i}`, i % 7 ? `Value number ${i} of a bulk import` : `Value {x} number ${i} of a bulk import`]));
      const bulk = await admin.post(`/projects/${pid}/import`, { language_code: "ja", format: "json", content: JSON.stringify(many) });
      expect(bulk.status).toBe(200);
      await expectExact(t, admin, pid, "a large import");
      const base = await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: JSON.stringify({ hello: "Hi {user}", files: "{n} files", plain: "Plain" }), delete_missing: true });
      expect(base.status).toBe(200);
      await expectExact(t, admin, pid, "a base import deleting keys");
      expect((await admin.delete(`/projects/${pid}/keys/${files}`)).status).toBe(204);
      await expectExact(t, admin, pid, "a key deleted");
      expect((await admin.patch(`/projects/${pid}`, { base_language_code: "de" })).status).toBe(200);
      await expectExact(t, admin, pid, "the base language changed");
      expect((await admin.patch(`/projects/${pid}`, { message_syntax: "text" })).status).toBe(200);
      await expectExact(t, admin, pid, "the syntax changed");
      expect((await admin.delete(`/projects/${pid}/languages/fr`)).status).toBe(204);
      await expectExact(t, admin, pid, "a language deleted");
      expect((await admin.delete(`/projects/${other}/languages/de`)).status).toBe(204);
      await expectExact(t, admin, pid, "another project's language deleted");
      expect(t.query("SELECT count(*) AS n FROM language_counts WHERE language_id NOT IN (SELECT id FROM languages)")).toEqual([{ n: 0 }]);
    } finally {
      await t.close();
    }
  });

  test("a database whose triggers were lost (a migration that rebuilt the table) gets them back with counts and index built from the values", async () => {
    const t = await testApp();
    try {
      const admin = await t.login();
      const pid = await admin.project("Rebuilt", "en", ["de"]);
      await admin.key(pid, "hello", { en: "Hello {name}", de: "Hallo {nom}" });
      for (const name of ["language_counts_insert", "language_counts_update", "translation_search_insert"]) t.query(`DROP TRIGGER ${name}`);
      t.query("UPDATE language_counts SET value_count = 99");
      await admin.key(pid, "written.meanwhile", { en: "Written while the triggers were gone" });
      expect(ensureDerived(t.deps.db.$client).sort()).toEqual(["language_counts", "translation_search"]);
      expect(ensureDerived(t.deps.db.$client)).toEqual([]);
      expect(kept(t)).toEqual(counted(t));
      const found = await admin.get(`/projects/${pid}/keys?search=${encodeURIComponent("triggers were")}`);
      expect(found.body.items.map((k: { key: string }) => k.key)).toEqual(["written.meanwhile"]);
    } finally {
      await t.close();
    }
  });
});

/** LIKE's comparison: only ASCII letters fold their case. */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

describe("search through the trigram index (docs/dashboard.md \"Speed\")", () => {
  test("finds exactly the keys whose key, context or a value of the project contains the term, for every kind of term", async () => {
    const t = await testApp();
    try {
      const admin = await t.login();
      const pid = await admin.project("Search", "en", ["de", "ru", "ja"]);
      const other = await admin.project("Other", "en");
      await admin.key(other, "other.key", { en: "Checkout payment elsewhere 100% ß" });
      const rows: [string, Record<string, string>, string?][] = [
        ["checkout.title", { en: "Checkout payment", de: "Zahlung an der Kasse", ru: "Оплата заказа" }],
        ["checkout.button", { en: "Pay now", de: "Jetzt bezahlen", ja: "今すぐ支払う" }, "Checkout page button"],
        ["discount", { en: "Save 100% today", de: "Spare 100_% heute" }],
        ["path", { en: "C:\\Users\\name", de: "a\\%b" }],
        ["quote", { en: 'He said "hi"', de: "Er sagte „hallo“" }],
        ["street", { en: "Street", de: "Straße", ru: "Улица" }],
        ["accent", { en: "Café", de: "CAFÉ" }],
        ["emoji", { en: "Thanks 🎉🎉", ja: "ありがとう🎉" }],
        ["item_99991", { en: "Item" }],
        ["spaces", { en: "two  spaces  here" }],
        ["apart", { en: "Checkout, then payment", de: "payment checkout" }],
        ["phrase.again", { en: "Your checkout payment failed", ru: "Оплата не прошла" }],
        ["tabbed", { en: "checkout\tpayment" }],
      ];
      for (const [key, values, context] of rows) await admin.key(pid, key, values, context);
      // Values that change or go: the index must follow them.
      const gone = await admin.key(pid, "gone", { en: "Vanishing value" });
      const changed = await admin.key(pid, "changed", { en: "Old wording" });
      expect((await admin.put(`/projects/${pid}/keys/${changed}/translations/en`, { value: "New wording" })).status).toBe(200);
      expect((await admin.delete(`/projects/${pid}/keys/${gone}`)).status).toBe(204);
      expect((await admin.delete(`/projects/${pid}/languages/ja`)).status).toBe(204);

      const all = t.query<{ key: string; context: string | null; value: string | null }>(
        `SELECT k.key, k.context, t.value FROM translation_keys k JOIN projects p ON p.id = k.project_id
         LEFT JOIN translations t ON t.key_id = k.id WHERE p.public_id = ?`,
        pid,
      );
      const oracle = (term: string) => {
        const needle = asciiLower(term.trim());
        const keys = new Set<string>();
        for (const r of all) if ([r.key, r.context, r.value].some((s) => s !== null && asciiLower(s).includes(needle))) keys.add(r.key);
        return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      };
      const terms = [
        "a", "ß", "ab", "🎉", "🎉🎉", "Ca", "café", "CAFÉ", "cafe", "ПЛАТА", "Оплата", "оплата", "checkout payment", "CHECKOUT", "kasse", "pay",
        "100%", "100_", "0_%", "%", "_", "\\", "\\%", "C:\\Users", '"hi"', '"', "„hallo“", "item_99991", "tem_9999", "two  spaces", "  spaces  ",
        "Vanishing", "Old wording", "New wording", "今すぐ", "ありがとう", "elsewhere", "nothing like this", "Straße", "STRASSE", "ulica", "Улица",
        // Two words and more: the index is asked for the trigrams across their gap (docs/dashboard.md "Speed").
        "checkout payment", "Checkout Payment", "payment checkout", "checkout  payment", "checkout\tpayment", "t p", "T P", "then payment",
        "Checkout, then", "pay now", "now pay", "an der Kasse", "Zahlung an der", "Оплата не", "оплата заказа", "he said \"hi\"", "spaces  here",
        "Your checkout payment failed", "checkout payment failed!", "a b", "🎉 🎉",
      ];
      for (const term of terms) {
        const reply = await admin.get(`/projects/${pid}/keys?page_size=500&search=${encodeURIComponent(term)}`);
        expect(reply.status).toBe(200);
        expect({ term, keys: reply.body.items.map((k: { key: string }) => k.key) }).toEqual({ term, keys: oracle(term) });
        expect({ term, total: reply.body.page_info.total_count }).toEqual({ term, total: oracle(term).length });
        const counts = await admin.get(`/projects/${pid}/key-counts?language=de&search=${encodeURIComponent(term)}`);
        expect({ term, total: counts.body.total }).toEqual({ term, total: oracle(term).length });
      }
      // Both ways of choosing a term's trigrams (those across its gaps alone, or with its covering
      // ones when those alone find too many values) ask for values that include every value holding it.
      const values = t.query<{ rowid: number; value: string }>("SELECT rowid, value FROM translations");
      for (const term of terms.filter((term) => [...term.trim()].length >= 3)) {
        const needle = asciiLower(term.trim());
        const holding = values.filter((v) => asciiLower(v.value).includes(needle)).map((v) => v.rowid);
        for (const crossingMax of [undefined, 1]) {
          const match = trigramMatch(t.deps.db, term.trim(), crossingMax)!;
          const asked = new Set(t.query<{ rowid: number }>("SELECT rowid FROM translation_search WHERE translation_search MATCH ?", match).map((r) => r.rowid));
          expect({ term, crossingMax, missed: holding.filter((rowid) => !asked.has(rowid)) }).toEqual({ term, crossingMax, missed: [] });
        }
      }
    } finally {
      await t.close();
    }
  });
});
