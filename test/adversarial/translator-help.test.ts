/**
 * Help for translators under attack, or just at size (docs/translators.md): the work a memory
 * lookup, a glossary check, a TMX file and an engine's answer can make the server do is bounded by
 * what the server decides, never by what a caller sends. Counted, not timed (docs/architecture.md
 * "Tests"): postings read and distance cells for the memory, steps for the glossary.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gzipSync } from "node:zlib";
import { callEngine } from "../../src/machine-translation/call.ts";
import { libretranslate } from "../../src/machine-translation/libretranslate.ts";
import { GlossaryMatcher, glossaryFindings, type GlossaryTerm } from "../../src/messages/glossary.ts";
import { COMMON_POSTINGS, POSTINGS_BUDGET, trigramsOf } from "../../src/memory/search.ts";
import { EVERY_PROJECT } from "../../src/memory/scope.ts";
import { refreshMemoryIndex } from "../../src/storage/derived.ts";
import { MATCHED_MAX_CODE_POINTS, SCORE_CELLS_BUDGET, TranslationMemory } from "../../src/memory/suggestions.ts";
import type { KeyRow, LanguageRow, ProjectRow } from "../../src/storage/schema.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

let t: TestApp;
let admin: DashboardClient;
let pid: string;

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Big", "en", ["de"]);
});
afterAll(() => t.close());

/** Values written straight into the tables (the triggers keep the index as on every write). */
function seed(strings: string[], prefix: string): void {
  const c = t.deps.db.$client;
  const projectId = c.query<{ id: number }, [string]>("SELECT id FROM projects WHERE public_id = ?").get(pid)!.id;
  const lang = (code: string) => c.query<{ id: number }, [number, string]>("SELECT id FROM languages WHERE project_id = ? AND code = ?").get(projectId, code)!.id;
  const [en, de] = [lang("en"), lang("de")];
  c.transaction(() => {
    strings.forEach((s, i) => {
      const id = c.query<{ id: number }, [string, number, string]>("INSERT INTO translation_keys (public_id, project_id, key, created_at, updated_at) VALUES (?, ?, ?, 0, 0) RETURNING id").get(`key_${prefix}${String(i).padStart(17, "0")}`, projectId, `${prefix}.${i}`)!.id;
      c.query("INSERT INTO translations (key_id, language_id, value, status, updated_at) VALUES (?, ?, ?, 'translated', 0)").run(id, en, s);
      c.query("INSERT INTO translations (key_id, language_id, value, status, updated_at) VALUES (?, ?, ?, 'translated', 0)").run(id, de, `${s} (de)`);
    });
  })();
  // The memory's index is brought up to date after the write (src/memory/index-pass.ts).
  while (refreshMemoryIndex(c, 1000) > 0);
}

function lookup(base: string) {
  const db = t.deps.db;
  const project = db.$client.query<ProjectRow, [string]>("SELECT id, public_id AS publicId, base_language_code AS baseLanguageCode, message_syntax AS messageSyntax FROM projects WHERE public_id = ?").get(pid)!;
  const language = db.$client.query<LanguageRow, [number]>("SELECT id, code FROM languages WHERE project_id = ? AND code = 'de'").get(project.id)!;
  const work = { postings: 0, cells: 0 };
  const found = new TranslationMemory(db).matches(project, { id: -1 } as KeyRow, base, language, EVERY_PROJECT, 75, 10, work);
  return { found, work };
}

describe("translators.md: the memory at size", () => {
  test("a string made only of the commonest trigrams reads at most the budget's postings", () => {
    // 3,000 strings that all hold the same words: every trigram of the probe is in every one.
    seed(Array.from({ length: 3000 }, (_, i) => `save the file and the other file ${i}`), "common");
    const { found, work } = lookup("save the file and the other file");
    expect(found.length).toBeGreaterThan(0);
    // The budget, and the first two trigrams read whatever they cost (3,000 postings each here);
    // every trigram's postings would be about 30 x 3,000.
    expect(work.postings).toBeLessThanOrEqual(POSTINGS_BUDGET + 2 * 3000);
    expect(COMMON_POSTINGS).toBeGreaterThan(3000);
    // What reading every trigram would have cost.
    const c = t.deps.db.$client;
    const every = [...trigramsOf("save the file and the other file")].reduce(
      (n, [gram]) => n + c.query<{ n: number }, [string]>("SELECT count(*) AS n FROM memory_search WHERE memory_search MATCH ?").get(`"${gram}"`)!.n,
      0,
    );
    expect(work.postings).toBeLessThan(every);
  });

  test("long similar strings: the distance's cells stay within the lookup's budget", () => {
    const long = "lorem ipsum dolor sit amet ".repeat(70).slice(0, 1900);
    seed(Array.from({ length: 300 }, (_, i) => `${long} variant ${i}`), "long");
    const { work } = lookup(`${long} variant x`);
    // The budget, plus the one candidate scored when it was passed: at most 1,915 rows of a band of 2 x 478 + 1;
    // scoring them all would be about 300 times that.
    expect(work.cells).toBeLessThanOrEqual(SCORE_CELLS_BUDGET + 1915 * 957);
    expect(work.cells).toBeLessThan((300 * 1915 * 957) / 10);
  });

  test("a base string past the bound is not looked up at all", () => {
    const { found, work } = lookup("x".repeat(MATCHED_MAX_CODE_POINTS + 1));
    expect(found).toEqual([]);
    expect(work).toEqual({ postings: 0, cells: 0 });
  });

  test("a 100,000-character base value's suggestions answer, empty", async () => {
    const key = await admin.key(pid, "huge", { en: "Save the file and the other file ".repeat(3000).slice(0, 100_000) });
    const r = await admin.get(`/projects/${pid}/keys/${key}/suggestions?language=de`);
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([]);
  });
});

describe("messages: the glossary at size", () => {
  const terms: GlossaryTerm[] = Array.from({ length: 10_000 }, (_, i) => ({ term: `term${i} word${i % 97}`, translations: { de: `Begriff${i}` }, caseSensitive: i % 2 === 0, doNotTranslate: i % 5 === 0 }));
  const matcher = new GlossaryMatcher(terms);
  const text = (words: number) => Array.from({ length: words }, (_, i) => (i % 10 === 0 ? `term${i % 10_000} word${i % 10_000 % 97}` : `lorem${i}`)).join(" ");

  test("10,000 terms against a value of 100,000 characters: steps in proportion to its words, not to terms x length", () => {
    const value = text(12_000);
    expect(value.length).toBeGreaterThan(100_000);
    const work = { steps: 0 };
    const found = matcher.find(value, work);
    expect(found.length).toBeGreaterThan(100);
    const words = value.split(/[^\p{L}\p{N}]+/u).filter(Boolean).length;
    expect(work.steps).toBeLessThanOrEqual(2 * words);
    // Twice the text, about twice the steps.
    const twice = { steps: 0 };
    matcher.find(`${value} ${value}`, twice);
    expect(twice.steps).toBeLessThanOrEqual(2 * work.steps + 10);
  });

  test("a value's glossary findings stay at most 5, however many terms it misses", () => {
    expect(glossaryFindings(text(2000), "nothing", "de", matcher)).toHaveLength(5);
  });

  test("10,000 terms in a project: a save of a long value answers with its findings", async () => {
    const c = t.deps.db.$client;
    const projectId = c.query<{ id: number }, [string]>("SELECT id FROM projects WHERE public_id = ?").get(pid)!.id;
    c.transaction(() => {
      for (const [i, term] of terms.entries()) {
        c.query("INSERT INTO glossary_terms (public_id, project_id, term, translations, case_sensitive, do_not_translate, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, 0)").run(
          `gls_${String(i).padStart(20, "0")}`,
          projectId,
          term.term,
          JSON.stringify(term.translations),
          term.caseSensitive ? 1 : 0,
          term.doNotTranslate ? 1 : 0,
        );
      }
    })();
    const key = await admin.key(pid, "glossary.long", { en: text(8000).slice(0, 90_000) });
    const r = await admin.put(`/projects/${pid}/keys/${key}/translations/de`, { value: "kurz" });
    expect(r.status).toBe(200);
    expect(r.body.problems.filter((p: any) => p.code === "glossary")).toHaveLength(5);
  });
});

describe("translators.md: hostile TMX files", () => {
  const tmx = (body: string, head = "") => `<?xml version="1.0"?>${head}<tmx version="1.4"><header srclang="en"/><body>${body}</body></tmx>`;
  const send = (text: string) => admin.upload("POST", `/projects/${pid}/tm/import`, text, "application/xml");

  test("an entity bomb, an external entity, a document type of its own: refused before a parser reads them", async () => {
    const laughs = `<!DOCTYPE tmx [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>`;
    for (const head of [laughs, `<!DOCTYPE tmx [<!ENTITY x SYSTEM "file:///etc/passwd">]>`, `<!DOCTYPE html>`]) {
      const r = await send(tmx(`<tu><tuv xml:lang="en"><seg>&c;</seg></tuv><tuv xml:lang="de"><seg>x</seg></tuv></tu>`, head));
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/invalid TMX file: line 1, column \d+: (an XML entity declaration|a DOCTYPE)/);
    }
  });

  test("TMX's own DTD named by a system id is never fetched nor read: the file's units are all there is", async () => {
    const r = await send(tmx(`<tu><tuv xml:lang="en"><seg>Hello</seg></tuv><tuv xml:lang="de"><seg>Hallo</seg></tuv></tu>`, `<!DOCTYPE tmx SYSTEM "file:///etc/passwd">`));
    expect(r.body).toMatchObject({ imported: 1, skipped: 0 });
  });

  test("nesting 10,000 deep is refused before any parser recurses", async () => {
    const r = await send(tmx(`<tu><tuv xml:lang="en"><seg>${"<hi>".repeat(10_000)}x${"</hi>".repeat(10_000)}</seg></tuv></tu>`));
    expect(r.status).toBe(400);
    expect(r.body.error).toContain("nested deeper than 32 levels");
  });

  test("more units than an import takes: 413, nothing stored", async () => {
    const before = t.query<{ n: number }>("SELECT count(*) AS n FROM memory_units")[0]!.n;
    const r = await send(tmx("<tu/>".repeat(500_001)));
    expect(r.status).toBe(413);
    expect(r.body.error).toContain("at most 500,000");
    expect(t.query<{ n: number }>("SELECT count(*) AS n FROM memory_units")[0]!.n).toBe(before);
  });
});

describe("translators.md: hostile engine answers", () => {
  let server: ReturnType<typeof Bun.serve>;
  let mode = "bomb";
  beforeAll(() => {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch() {
        if (mode === "bomb") {
          // 20 MB of JSON compressed to kilobytes: the answer's limit counts what it decompresses to.
          const body = gzipSync(Buffer.from(`{"translatedText": ["${"A".repeat(20 * 1024 * 1024)}"]}`));
          return new Response(body, { headers: { "content-type": "application/json", "content-encoding": "gzip" } });
        }
        // A drip: a byte every 50 ms, forever.
        let timer: ReturnType<typeof setInterval>;
        return new Response(
          new ReadableStream({
            start(controller) {
              timer = setInterval(() => controller.enqueue(new TextEncoder().encode(" ")), 50);
            },
            cancel: () => clearInterval(timer),
          }),
          { headers: { "content-type": "application/json" } },
        );
      },
    });
  });
  afterAll(() => server.stop(true));

  const ask = (timeoutMs = 10_000) => callEngine(fetch, libretranslate, { url: `http://127.0.0.1:${server.port}`, key: undefined, model: undefined }, { texts: ["Save"], source: "en", target: "de", glossary: [] }, timeoutMs);

  test("a compressed answer that grows past 1 MB is the engine's failure", async () => {
    mode = "bomb";
    await expect(ask()).rejects.toThrow("the engine's answer is larger than 1 MB");
  });

  test("an answer that drips a byte at a time is given up at the call's time", async () => {
    mode = "drip";
    await expect(ask(400)).rejects.toThrow("the engine did not answer within 0.4 s");
  });
});
