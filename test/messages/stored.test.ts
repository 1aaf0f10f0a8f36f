/**
 * Stored findings (product §7, docs/messages.md "When"): what the checks wrote always equals a
 * fresh check of the value as it is now, after parallel saves of a base value and its
 * translations, after parallel changes of the message syntax, and after an upgrade left values
 * unchecked; publishing never relies on what was stored.
 */
import { describe, expect, test } from "bun:test";
import { checkUncheckedValues, RECHECK_CHUNK_ROWS, startUncheckedValuesPass } from "../../src/authoring/checks.ts";
import { openWorld } from "../helpers/scenario.ts";
import { messagesWorld } from "../dashboard-api/messages-world.ts";
import type { ManualClock, TestApp } from "../helpers/app.ts";

interface StoredRow {
  key_id: number;
  language_id: number;
  problems: string;
  error_count: number;
  warning_count: number;
}

function stored(t: TestApp): StoredRow[] {
  return t.query<StoredRow>("SELECT key_id, language_id, problems, error_count, warning_count FROM translations ORDER BY key_id, language_id");
}

/** What a fresh check of every value gives: forget every finding, check everything again. */
async function freshlyChecked(t: TestApp): Promise<StoredRow[]> {
  t.query("UPDATE translations SET checked_at = NULL, problems = '[]', error_count = 0, warning_count = 0");
  await checkUncheckedValues(t.deps.db, () => t.clock.now());
  return stored(t);
}

describe("stored findings (product §7)", () => {
  test("parallel saves of a base value and its translations leave findings equal to a fresh check", async () => {
    const w = await openWorld(messagesWorld);
    try {
      const admin = w.as("admin");
      const member = w.as("member");
      const path = (code: string) => `/projects/${w.ids.pid}/keys/${w.ids.greetingKeyId}/translations/${code}`;
      const bases = ["Hello {name}", "Hello {user}", "Hi {name} and {user}", "Hello {name", "Hey"];
      const saves: Promise<{ status: number }>[] = [];
      for (let round = 0; round < 8; round++) {
        saves.push(member.put(path("de"), { value: round % 2 ? "Hallo {user}" : "Hallo {name}" }));
        saves.push(member.put(path("ja"), { value: round % 3 ? "こんにちは {name}" : "メッセージ {cnt}" }));
        saves.push(member.put(path("fr"), { value: `Bonjour {name} ${round}` }));
        // The base value changes last in each round, so every translation's findings depend on a recheck.
        saves.push(admin.put(path("en"), { value: bases[round % bases.length]! }));
      }
      expect((await Promise.all(saves)).every((r) => r.status === 200)).toBe(true);
      const after = stored(w.t);
      expect(after.some((r) => r.error_count + r.warning_count > 0)).toBe(true);
      expect(await freshlyChecked(w.t)).toEqual(after);
    } finally {
      await w.close();
    }
  });

  test("parallel changes of the message syntax and base language: every value ends checked against the last one", async () => {
    const w = await openWorld(messagesWorld);
    try {
      const admin = w.as("admin");
      const url = `/projects/${w.ids.pid}`;
      const patches = [{ message_syntax: "text" }, { base_language_code: "de" }, { message_syntax: "icu" }, { base_language_code: "en" }, { message_syntax: "icu" }, { base_language_code: "ja" }];
      const replies = await Promise.all(patches.map((body) => admin.patch(url, body)));
      expect(replies.map((r) => r.status)).toEqual(patches.map(() => 200));
      expect(w.t.query("SELECT base_language_code AS base, message_syntax AS syntax FROM projects WHERE public_id = ?", w.ids.pid!)).toEqual([{ base: "ja", syntax: "icu" }]);
      expect(w.t.query("SELECT count(*) AS n FROM translations WHERE checked_at IS NULL")).toEqual([{ n: 0 }]);
      const after = stored(w.t);
      expect(await freshlyChecked(w.t)).toEqual(after);
    } finally {
      await w.close();
    }
  });
});

describe("import (product §6, §7)", () => {
  test("an import stores each value's findings, counts the file's values with one, and a base import rechecks the other languages", async () => {
    const w = await openWorld(messagesWorld);
    try {
      const admin = w.as("admin");
      const pid = w.ids.pid!;
      const problemsOf = async (code: string) => (await admin.get(`/projects/${pid}/keys/${w.ids.greetingKeyId}`)).body.translations[code]?.problems;
      const translated = await admin.post(`/projects/${pid}/import`, {
        language_code: "fr",
        format: "json",
        content: JSON.stringify({ greeting: "Bonjour {nom}", title: "Titre", plain: "Simple" }),
      });
      expect(translated.status).toBe(200);
      expect(translated.body.problems).toBe(1);
      expect((await problemsOf("fr")).map((p: any) => p.code)).toEqual(["placeholder_unknown", "placeholder_missing"]);

      const base = await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: JSON.stringify({ greeting: "Hello {nom}" }) });
      expect(base.status).toBe(200);
      expect(base.body.problems).toBe(0);
      expect(await problemsOf("fr")).toEqual([]);
      expect((await problemsOf("de")).map((p: any) => p.message)).toEqual(["`{name}` is not in the English text; use `{nom}`", "`{nom}` from the English text is missing"]);
      const after = stored(w.t);
      expect(await freshlyChecked(w.t)).toEqual(after);
    } finally {
      await w.close();
    }
  });
});

describe("a changed base value (docs/messages.md \"When\")", () => {
  /** When each other translation of the key was last checked, by language id. */
  const checkedAt = (t: TestApp, keyPublicId: string) =>
    t.query<{ language_id: number; checked_at: number }>(
      "SELECT language_id, checked_at FROM translations WHERE key_id = (SELECT id FROM translation_keys WHERE public_id = ?) ORDER BY language_id",
      keyPublicId,
    );

  test("with the same placeholder names it rechecks nothing; with other names every translation, by a save and by an import", async () => {
    const w = await openWorld(messagesWorld);
    try {
      const admin = w.as("admin");
      const pid = w.ids.pid!;
      const key = w.ids.greetingKeyId!;
      const enId = w.t.query<{ id: number }>("SELECT id FROM languages WHERE code = 'en' AND project_id = (SELECT id FROM projects WHERE public_id = ?)", pid)[0]!.id;
      const others = () => checkedAt(w.t, key).filter((r) => r.language_id !== enId);
      const before = others();
      expect(before.length).toBe(2); // de and ja

      (w.t.clock as ManualClock).advance(60_000);
      expect((await admin.put(`/projects/${pid}/keys/${key}/translations/en`, { value: "Hello again, {name}!" })).status).toBe(200);
      expect(others()).toEqual(before);
      (w.t.clock as ManualClock).advance(60_000);
      const copyEdit = await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: JSON.stringify({ greeting: "Hi {name}" }) });
      expect(copyEdit.body.updated_translations).toBe(1);
      expect(others()).toEqual(before);
      expect(await freshlyChecked(w.t)).toEqual(stored(w.t));
    } finally {
      await w.close();
    }
  });

  test("other placeholder names, native placeholders or tags, or a base that stops or starts parsing, recheck the key's other translations", async () => {
    const w = await openWorld(messagesWorld);
    try {
      const admin = w.as("admin");
      const pid = w.ids.pid!;
      const key = w.ids.greetingKeyId!;
      // The native placeholders and tags are compared too (docs/messages.md "Native placeholders", "Tags").
      const bases = ["Hello {user}", "Hello {user", "Hello {user}", "Hello {name} and {user}", "Hello {user} and {name}", "Hello", "Hello %1$s", "Hello %1$d", "Hello <b>%1$d</b>", "Hello <i>%1$d</i>"];
      for (const [i, value] of bases.entries()) {
        (w.t.clock as ManualClock).advance(60_000);
        const saved = i % 2 ? await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: JSON.stringify({ greeting: value }) })
          : await admin.put(`/projects/${pid}/keys/${key}/translations/en`, { value });
        expect(saved.status).toBe(200);
        expect(checkedAt(w.t, key).map((r) => r.checked_at)).toEqual([w.t.clock.now(), w.t.clock.now(), w.t.clock.now()]);
        const after = stored(w.t);
        expect(await freshlyChecked(w.t)).toEqual(after);
      }
    } finally {
      await w.close();
    }
  });
});

describe("values stored before the checks existed (product §7, docs/messages.md)", () => {
  test("the pass after start checks them in chunks while requests are answered", async () => {
    const w = await openWorld(messagesWorld);
    try {
      const admin = w.as("admin");
      const pid = w.ids.pid!;
      // Enough values for several chunks, then the state an upgrade leaves: no findings, unchecked.
      const entries = Object.fromEntries(Array.from({ length: 3 * RECHECK_CHUNK_ROWS }, (_, i) => [`bulk.${i}`, i % 50 === 0 ? `Wert {x${i}}` : `Wert ${i}`]));
      expect((await admin.post(`/projects/${pid}/import`, { language_code: "de", format: "json", content: JSON.stringify(entries) })).status).toBe(200);
      const expected = stored(w.t);
      w.t.query("UPDATE translations SET checked_at = NULL, problems = '[]', error_count = 0, warning_count = 0");

      const pass = startUncheckedValuesPass(w.t.deps.db, () => w.t.clock.now());
      // A request made while the pass runs is answered before the pass ends.
      const answered = admin.get(`/projects/${pid}/progress`).then((r) => ({ status: r.status, unchecked: w.t.query<{ n: number }>("SELECT count(*) AS n FROM translations WHERE checked_at IS NULL")[0]!.n }));
      const during = await answered;
      expect(during.status).toBe(200);
      expect(during.unchecked).toBeGreaterThan(0);
      expect(await pass.done).toBe(expected.length);
      expect(stored(w.t)).toEqual(expected);
      expect(w.t.query("SELECT count(*) AS n FROM translations WHERE checked_at IS NULL")).toEqual([{ n: 0 }]);
    } finally {
      await w.close();
    }
  });

  test("a stopped pass ends after its chunk and leaves the rest for the next start", async () => {
    const w = await openWorld(messagesWorld);
    try {
      w.t.query("UPDATE translations SET checked_at = NULL");
      const pass = startUncheckedValuesPass(w.t.deps.db, () => w.t.clock.now());
      await pass.stop();
      expect(await pass.done).toBe(0);
      expect(w.t.query<{ n: number }>("SELECT count(*) AS n FROM translations WHERE checked_at IS NULL")[0]!.n).toBeGreaterThan(0);
    } finally {
      await w.close();
    }
  });

  test("product §7: publishing checks every value itself: unchecked errors still block it", async () => {
    const w = await openWorld(messagesWorld);
    try {
      w.t.query("UPDATE translations SET checked_at = NULL, problems = '[]', error_count = 0, warning_count = 0");
      const reply = await w.as("admin").post(`/projects/${w.ids.pid}/releases/${w.ids.draftId}/publish`);
      expect(reply.status).toBe(409);
      expect(reply.body.problems.map((p: any) => [p.key, p.language_code, p.code])).toEqual([
        ["files.count", "fr", "icu_syntax"],
        ["greeting", "ja", "placeholder_unknown"],
      ]);
    } finally {
      await w.close();
    }
  });
});
