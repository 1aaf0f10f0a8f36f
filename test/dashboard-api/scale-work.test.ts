/**
 * The work a large project's requests do, counted rather than timed (docs/deploy.md "Sizing";
 * docs/architecture.md "Counts kept"): an event nobody subscribes to is never written, a push of
 * changed strings writes each value's row once, `GET /problems` walks the keys in order for a
 * page instead of sorting every finding, and a one-character search stops walking the keys once
 * its page is full, while answering what a comparison with everything answers.
 */
import { describe, expect, test } from "bun:test";
import { shortSearchPage } from "../../src/authoring/keys.ts";
import { importTranslations } from "../../src/authoring/import.ts";
import { problemRead } from "../../src/authoring/problems.ts";
import { PROBLEM_SQL, prepareProblemQueries } from "../../src/authoring/queries.ts";
import { SHORT_SEARCH_CHUNK_KEYS, SHORT_SEARCH_VALUE_BUDGET } from "../../src/authoring/limits.ts";
import type { ProjectRow } from "../../src/storage/schema.ts";
import { testApp, type TestApp } from "../helpers/app.ts";

const actor = { kind: "user" as const, publicId: "usr_test", name: "Test" };

function projectRow(t: TestApp, pid: string): ProjectRow {
  const row = t.query<{ id: number }>("SELECT id FROM projects WHERE public_id = ?", pid)[0]!;
  return t.deps.db.$client.query("SELECT id, public_id AS publicId, name, base_language_code AS baseLanguageCode, cdn_slug AS cdnSlug, created_at AS createdAt, message_syntax AS messageSyntax, arb_attributes AS arbAttributes, publish_approved_only AS publishApprovedOnly FROM projects WHERE id = ?").get(row.id) as ProjectRow;
}

const push = (t: TestApp, project: ProjectRow, code: string, entries: Record<string, string>) =>
  importTranslations(t.deps, project, { language_code: code, format: "json", content: JSON.stringify(entries) }, actor);

const count = (t: TestApp, sql: string, ...params: (string | number)[]) => t.query<{ n: number }>(sql, ...params)[0]!.n;
/** Counts every row written to `table` from now on, by a temporary trigger on this connection (the import runs on it). */
function countWrites(t: TestApp, table: string): () => number {
  const c = t.deps.db.$client;
  c.run(`CREATE TEMP TABLE IF NOT EXISTS writes_${table} (n INTEGER NOT NULL)`);
  c.run(`INSERT INTO writes_${table} VALUES (0)`);
  for (const op of ["INSERT", "UPDATE"]) c.run(`CREATE TEMP TRIGGER IF NOT EXISTS count_${op}_${table} AFTER ${op} ON main.${table} BEGIN UPDATE writes_${table} SET n = n + 1; END`);
  return () => count(t, `SELECT n FROM writes_${table}`);
}

function strings(n: number, word: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < n; i++) out[`screen.item_${String(i).padStart(4, "0")}`] = `${word} number ${i}${i % 10 === 0 ? " {name}" : ""}`;
  return out;
}

describe("the outbox holds only events somebody subscribes to (docs/webhooks.md \"Events nobody subscribes to\")", () => {
  test("a push to a project without endpoints writes no event; one subscribed to translation_updated gets exactly those; a disabled one none", async () => {
    const t = await testApp();
    try {
      const admin = await t.login();
      const pid = await admin.project("Hooks", "en", ["de"]);
      const project = projectRow(t, pid);
      await push(t, project, "en", strings(50, "first"));
      await push(t, project, "en", strings(50, "second"));
      expect(count(t, "SELECT count(*) AS n FROM outbox_events")).toBe(0);

      const hook = await admin.post(`/projects/${pid}/webhooks`, { url: "https://hooks.example.test/in", events: ["translation_updated"] });
      expect(hook.status).toBe(201);
      await push(t, project, "en", strings(50, "third"));
      await push(t, project, "de", strings(5, "erste"));
      const events = t.query<{ event: string; n: number }>("SELECT event, count(*) AS n FROM outbox_events GROUP BY event");
      expect(events).toEqual([{ event: "translation_updated", n: 50 }]);

      expect((await admin.patch(`/projects/${pid}/webhooks/${hook.body.id}`, { enabled: false })).status).toBe(200);
      await push(t, project, "en", strings(50, "fourth"));
      expect(count(t, "SELECT count(*) AS n FROM outbox_events")).toBe(50);
    } finally {
      await t.close();
    }
  });
});

describe("a push of changed strings (the size goal: 100,000 in under 10 s)", () => {
  test("writes each new or changed value's row once (value and findings together) and its history entry, nothing else", async () => {
    const t = await testApp();
    try {
      const admin = await t.login();
      const pid = await admin.project("Push", "en", ["de"]);
      const project = projectRow(t, pid);
      await push(t, project, "en", strings(300, "first"));
      const values = countWrites(t, "translations"), history = countWrites(t, "translation_history"), outbox = countWrites(t, "outbox_events");
      // New values: one INSERT each, findings included (before: an INSERT and an UPDATE).
      await push(t, project, "de", strings(300, "erste"));
      expect({ values: values(), history: history(), outbox: outbox() }).toEqual({ values: 300, history: 300, outbox: 0 });
      t.deps.db.$client.run("UPDATE writes_translations SET n = 0");
      t.deps.db.$client.run("UPDATE writes_translation_history SET n = 0");
      const result = await push(t, project, "en", strings(300, "second"));
      expect(result.updated_translations).toBe(300);
      // One write of each row (before: the findings in a second UPDATE of it), a history entry
      // each, and no outbox row (before: one per value, deleted moments later by the sender).
      expect({ values: values(), history: history(), outbox: outbox() }).toEqual({ values: 300, history: 300, outbox: 0 });
      // The findings went with the values: one in ten names {name}, which the base may.
      const stored = t.query<{ checked: number; problems: string }>(
        "SELECT count(*) AS checked, group_concat(DISTINCT problems) AS problems FROM translations WHERE language_id = (SELECT id FROM languages WHERE code = 'en' AND project_id = ?) AND checked_at IS NOT NULL",
        project.id,
      );
      expect(stored).toEqual([{ checked: 300, problems: "[]" }]);
      // A translation with a placeholder its base lacks still gets its error when its value changes.
      await push(t, project, "de", { "screen.item_0001": "neu {bogus}" });
      expect((await admin.get(`/projects/${pid}/problems?language=de&severity=error`)).body.items.map((p: { key: string; code: string }) => [p.key, p.code])).toEqual([
        ["screen.item_0001", "placeholder_unknown"],
      ]);
    } finally {
      await t.close();
    }
  });
});

describe("GET /problems reads what its page needs (docs/messages.md \"The problem list\")", () => {
  test("every page, language and severity answers what sorting every finding answers", async () => {
    const t = await testApp();
    try {
      const admin = await t.login();
      const pid = await admin.project("Problems", "en", ["de", "fr", "pl"]);
      const project = projectRow(t, pid);
      await push(t, project, "en", strings(400, "base"));
      // de: an unknown placeholder (an error) in one value in 3; fr: a missing one (a warning) where
      // the base has {name}; pl: a plural without `few`/`many` (warnings) and a broken one (an error).
      const de: Record<string, string> = {}, fr: Record<string, string> = {}, pl: Record<string, string> = {};
      for (let i = 0; i < 400; i++) {
        const key = `screen.item_${String(i).padStart(4, "0")}`;
        de[key] = i % 3 === 0 ? `wert {other} ${i}` : `wert ${i}`;
        fr[key] = `valeur ${i}`;
        if (i % 7 === 0) pl[key] = i % 2 ? "{n, plural, one {# a} other {# b}}" : "{n, plural, one {# a} other {# b}";
      }
      await push(t, project, "de", de);
      await push(t, project, "fr", fr);
      await push(t, project, "pl", pl);
      const q = prepareProblemQueries(t.deps.db);
      const languageId = (code: string) => t.query<{ id: number }>("SELECT id FROM languages WHERE project_id = ? AND code = ?", project.id, code)[0]!.id;
      for (const [language, severity] of [[null, null], ["de", null], ["pl", "warning"], [null, "error"], ["fr", "warning"]] as const) {
        const lid = language === null ? null : languageId(language);
        const everything = q.sorted.all(project.id, lid, severity, 100_000, 0);
        expect(everything.length).toBeGreaterThan(20);
        const qs = `${language ? `&language=${language}` : ""}${severity ? `&severity=${severity}` : ""}`;
        for (const pageSize of [7, 100]) {
          const pages = Math.ceil(everything.length / pageSize) + 1;
          for (let page = 1; page <= pages; page++) {
            const reply = await admin.get(`/projects/${pid}/problems?page=${page}&page_size=${pageSize}${qs}`);
            expect(reply.status).toBe(200);
            expect({ qs, page, items: reply.body.items }).toEqual({ qs, page, items: everything.slice((page - 1) * pageSize, page * pageSize) });
            expect(reply.body.page_info.total_count).toBe(everything.length);
          }
        }
        // The walk answers every page the same as the sort, whichever the choice would be.
        const walk = lid === null ? q.walk : q.walkLanguage;
        expect(walk.all(project.id, lid, severity, 100_000, 0)).toEqual(everything);
      }
    } finally {
      await t.close();
    }
  });

  test("a first page among many findings walks the keys (no sort of every finding); a deep page among few sorts them", async () => {
    // At 100,000 keys x 50 languages with 100,000 findings: the first page walks ~100 keys.
    expect(problemRead({ end: 100, findings: 100_000, valued: 90_000, keys: 100_000, lookupsPerKey: 50 })).toBe("walk");
    // A page at the end of 500 findings among 100,000 keys would walk every key: sorting 500 is less.
    expect(problemRead({ end: 500, findings: 500, valued: 450, keys: 100_000, lookupsPerKey: 50 })).toBe("sorted");
    // The statement the walk runs reads the keys in the order of their index and sorts only a key's findings.
    const t = await testApp();
    try {
      const details = t.query<{ detail: string }>(`EXPLAIN QUERY PLAN ${PROBLEM_SQL.walk}`, 1, null, null, 100, 0).map((r) => r.detail);
      expect(details[0]).toContain("USING INDEX keys_project_key_uq");
      expect(details.join("\n")).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      expect(details.join("\n")).toMatch(/TEMP B-TREE FOR (LAST \d+ TERMS|RIGHT PART) OF ORDER BY/);
    } finally {
      await t.close();
    }
  });
});

describe("a search of one or two characters (docs/dashboard.md \"Speed\")", () => {
  test("stops walking the keys once its page is full and answers the same page as a comparison with everything", async () => {
    const t = await testApp();
    try {
      const admin = await t.login();
      // Ten languages, eight without values: the walk's budget is in values, keys x languages.
      const pid = await admin.project("Short", "en", ["de", "fr", "it", "es", "pt", "nl", "sv", "da", "fi"]);
      const project = projectRow(t, pid);
      const base = strings(3000, "word");
      const german: Record<string, string> = {};
      for (const [i, key] of Object.keys(base).entries()) german[key] = i % 2 ? "Straße" : "Weg";
      await push(t, project, "en", base);
      await push(t, project, "de", german);
      const keysWith = (needle: string) =>
        t.query<{ key: string }>(
          `SELECT DISTINCT k.key FROM translation_keys k LEFT JOIN translations v ON v.key_id = k.id
           WHERE k.project_id = ? AND (instr(k.key, ?) > 0 OR instr(v.value, ?) > 0) ORDER BY k.key`,
          project.id,
          needle,
          needle,
        ).map((r) => r.key);
      const all = keysWith("ß");
      expect(all.length).toBe(1500);

      // "ß": every second key. Page 2 of 50 and the matches counted past it lie within the first
      // 600 keys; the walk stops at the end of that chunk instead of reading all 3,000.
      const seen = { keys: 0 };
      const walked = shortSearchPage(t.deps.db, project, "ß", 50, 50, seen)!;
      expect(walked.rows.map((r) => r.key)).toEqual(all.slice(50, 100));
      expect(seen.keys).toBeLessThanOrEqual(600 + SHORT_SEARCH_CHUNK_KEYS);
      const reply = await admin.get(`/projects/${pid}/keys?page=2&page_size=50&search=${encodeURIComponent("ß")}`);
      expect(reply.body.items.map((k: { key: string }) => k.key)).toEqual(all.slice(50, 100));
      expect(reply.body.page_info.total_at_least).toBe(true);
      expect(reply.body.page_info.total_count).toBeGreaterThanOrEqual(300);
      expect(reply.body.page_info.total_count).toBeLessThanOrEqual(1500);

      // A term in no value: the walk gives up within its budget, and the answer is still exact.
      const rare = { keys: 0 };
      expect(shortSearchPage(t.deps.db, project, "Ж", 0, 50, rare)).toBeNull();
      expect(rare.keys).toBeLessThanOrEqual(SHORT_SEARCH_VALUE_BUDGET / 10 + SHORT_SEARCH_CHUNK_KEYS);
      const none = await admin.get(`/projects/${pid}/keys?search=${encodeURIComponent("Ж")}`);
      expect(none.body.page_info).toEqual({ total_count: 0, page: 1, page_size: 50, total_pages: 0 });
    } finally {
      await t.close();
    }
  });
});
