/**
 * The key list's default page holds every language's values: 50 keys of 100,000-character values
 * in 50 languages made a 239 MB reply, took the compiled server from 87 MB to a 746 MB peak and
 * held its thread for 8 to 16 seconds (bench/key-list-memory.ts, bench/RESULTS.md). A page is now
 * bounded by the size of its values (KEYS_PAGE_VALUES_MAX_BYTES, measured from the records before
 * any value is read): past it a 400 says to ask for fewer languages or keys
 * (docs/dashboard-api.md "Keys").
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { KEYS_PAGE_VALUES_MAX_BYTES } from "../../src/authoring/limits.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

const CODES = ["en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "fi", "pl", "cs"];
const VALUE_CHARS = 100_000;
const KEYS = 50;

let t: TestApp;
let admin: DashboardClient;
let pid: string;
beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Wide", "en", CODES.slice(1));
  for (const code of CODES) {
    const content = JSON.stringify(Object.fromEntries(Array.from({ length: KEYS }, (_, k) => [`key.${String(k).padStart(2, "0")}`, `${code} ${k} `.padEnd(VALUE_CHARS, "x")])));
    const r = await admin.post(`/projects/${pid}/import`, { language_code: code, format: "json", content });
    expect(r.status).toBe(200);
  }
}, 120_000);
afterAll(() => t.close());

describe("dashboard-api.md Keys: one page of the key list is bounded by the size of its values", () => {
  test(`the default page (${KEYS} keys x ${CODES.length} languages x 100 KB, 60 MB) is a 400 naming the way out`, async () => {
    const r = await admin.get(`/projects/${pid}/keys`);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(`this page of 50 keys holds 57.2 MB of values, more than the 8.0 MB one page may: ask for fewer languages (languages=en,de) or fewer keys (page_size)`);
    // So does the largest page asked for, and a page found by a search of one character (walked, not looked up).
    expect((await admin.get(`/projects/${pid}/keys?page_size=500`)).status).toBe(400);
    const short = await admin.get(`/projects/${pid}/keys?search=x`);
    expect(short.status).toBe(400);
    expect(short.body.error).toContain("more than the 8.0 MB one page may");
  });

  test("fewer languages, or fewer keys, fit, and every value in them is whole", async () => {
    const two = await admin.get(`/projects/${pid}/keys?languages=en,de&page_size=40`);
    expect(two.status).toBe(200);
    expect(two.body.items).toHaveLength(40);
    expect(Object.keys(two.body.items[0].translations).sort()).toEqual(["de", "en"]);
    expect(two.body.items[39].translations.de.value).toBe("de 39 ".padEnd(VALUE_CHARS, "x"));
    const one = await admin.get(`/projects/${pid}/keys?page_size=1&page=50`);
    expect(one.status).toBe(200);
    expect(Object.keys(one.body.items[0].translations)).toHaveLength(CODES.length);
    expect(one.body.page_info).toMatchObject({ page: 50, page_size: 1, total_count: 50, total_pages: 50 });
    // The bound is on the reply: what one page may hold, JSON and all, stays near it.
    expect(JSON.stringify(two.body).length).toBeLessThan(KEYS_PAGE_VALUES_MAX_BYTES * 1.1);
  });

  test("a page of ordinary values is untouched: all languages, every key", async () => {
    const small = await admin.project("Ordinary", "en", CODES.slice(1));
    for (const code of CODES) {
      await admin.post(`/projects/${small}/import`, { language_code: code, format: "json", content: JSON.stringify(Object.fromEntries(Array.from({ length: 500 }, (_, k) => [`k.${k}`, `${code} value ${k}`]))) });
    }
    const r = await admin.get(`/projects/${small}/keys?page_size=500`);
    expect(r.status).toBe(200);
    expect(r.body.items).toHaveLength(500);
    expect(Object.keys(r.body.items[0].translations)).toHaveLength(CODES.length);
  });
});
