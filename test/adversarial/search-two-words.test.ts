/**
 * A search of two words in values at 100,000 keys x 50 languages (`checkout payment`) took 396-412
 * ms on a busy machine, past the size goal's 300 ms (docs/deploy.md "Sizing"): the trigram index
 * was asked for every third trigram of the term, each held by about a million values there, and
 * the index reads each trigram's list whole. A term of several words is now asked for by the
 * trigrams across its gaps (`t p`), when those are rare enough (docs/dashboard.md "Speed"). What
 * that costs is counted here, not timed: the entries of the index's lists the search reads (its
 * trigrams' value counts, from FTS5's own vocabulary table), on a project where both words are
 * common and the phrase is rare. The times at full size are bench/search-load.bench.sh's
 * (bench/RESULTS.md "Searches at size"); that the answers stay exact is
 * test/dashboard-api/scale-kept.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { trigramMatch } from "../../src/authoring/queries.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

let t: TestApp;
let admin: DashboardClient;
let pid: string;
const KEYS = 2000;
/** One key in a hundred holds the phrase; every value holds one of the words. */
const PHRASE_EVERY = 100;

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Shop", "en", ["de"]);
  for (const code of ["en", "de"]) {
    const entries = Array.from({ length: KEYS }, (_, i) => [
      `shop.item_${i}`,
      i % PHRASE_EVERY === 0 ? `Your checkout payment ${i} is done` : i % 2 ? `Checkout number ${i} is open` : `Payment number ${i} is due`,
    ]);
    expect((await admin.post(`/projects/${pid}/import`, { language_code: code, format: "json", content: JSON.stringify(Object.fromEntries(entries)) })).status).toBe(200);
  }
  t.query("CREATE VIRTUAL TABLE temp.search_vocabulary USING fts5vocab(main, translation_search, row)");
});
afterAll(() => t.close());

/** How many entries the index reads for a query of quoted trigrams: each trigram's count of values. */
function entriesRead(match: string): number {
  const grams = [...match.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replace(/""/g, '"'));
  return grams.reduce((sum, gram) => sum + (t.query<{ doc: number }>("SELECT doc FROM temp.search_vocabulary WHERE term = ?", gram)[0]?.doc ?? 0), 0);
}

describe("dashboard.md Speed: a search of two words reads the index's lists of the trigrams across its gap", () => {
  test("`checkout payment` reads the entries of its phrase's values, not those of every value holding either word", async () => {
    const holding = (KEYS / PHRASE_EVERY) * 2; // values holding the phrase, in both languages
    const match = trigramMatch(t.deps.db, "checkout payment")!;
    expect(entriesRead(match)).toBe(holding);
    // With the covering trigrams too (as the index was asked before, and now when the gap is common):
    // every value holds one of the words.
    const covering = trigramMatch(t.deps.db, "checkout payment", 0)!;
    expect(entriesRead(covering)).toBeGreaterThan(10 * holding);
    const found = await admin.get(`/projects/${pid}/keys?search=${encodeURIComponent("checkout payment")}&page_size=500`);
    expect(found.body.page_info.total_count).toBe(KEYS / PHRASE_EVERY);
  });

  test("a gap whose trigram is common is asked for with the words' own trigrams too", () => {
    // `s i` spans the gap of `is open` / `is due` and of the phrase values alike: common.
    const match = trigramMatch(t.deps.db, "is open", 10)!;
    expect(match).toContain('"s o"');
    expect(match).toContain('"pen"');
  });
});
