/**
 * Writes once had no rate and history no bound: a translator's 907 saves of 100,000-character
 * values in 10 s grew the database by 180 MB (+312 MB in 15 s with one webhook subscribed), and one
 * translation's history grew a 200 KB entry a save. Now a person or token makes at most
 * PHRASEBOOK_WRITE_RATE_LIMIT changes a minute (default 300), whose bodies may hold 32 KB a change
 * on average, past which a 429 with Retry-After; an import is one change. And a translation's
 * history keeps its newest 50 entries and its newest approval, which a release of reviewed strings
 * only may still ship (docs/deploy.md "Security notes", docs/dashboard.md "History").
 * Everything here is counted: answers, rows, bytes; the window moves with the app's clock.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { HISTORY_KEPT_PER_CELL } from "../../src/authoring/limits.ts";
import { WRITE_BYTES_PER_WRITE } from "../../src/dashboard-api/guards.ts";
import { ManualClock, testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

const DEFAULT_LIMIT = 300;
const LARGEST = "x".repeat(100_000);

async function member(t: TestApp, admin: DashboardClient, pid: string, name: string, role: string, languages?: string[]): Promise<DashboardClient> {
  const email = `${name}@example.test`;
  const made = await admin.post("/users", { email, name, password: `${name}-password`, role: "member" });
  expect((await admin.put(`/projects/${pid}/members/${made.body.id}`, { role, ...(languages ? { languages } : {}) })).status).toBe(200);
  return t.login(email, `${name}-password`);
}

/**
 * Sends `n` saves of `value` (numbered so each changes something), `parallel` at a time, as the
 * attack did; the `i`th to `paths[i % paths.length]`.
 */
async function saves(client: DashboardClient, paths: string[], n: number, value: (i: number) => string, parallel = 8) {
  const statuses: number[] = [];
  const refusals: { retryAfter: string | null; error: string }[] = [];
  for (let i = 0; i < n; i += parallel) {
    const batch = await Promise.all(Array.from({ length: Math.min(parallel, n - i) }, (_, j) => client.put(paths[(i + j) % paths.length]!, { value: value(i + j) })));
    for (const r of batch) {
      statuses.push(r.status);
      if (r.status === 429) refusals.push({ retryAfter: r.headers.get("retry-after"), error: r.body.error });
    }
  }
  return { ok: statuses.filter((s) => s === 200).length, refused: refusals };
}

/** Bytes the database's pages hold, less those free for reuse. */
function usedBytes(t: TestApp): number {
  const [{ page_count }] = t.query<{ page_count: number }>("PRAGMA page_count");
  const [{ freelist_count }] = t.query<{ freelist_count: number }>("PRAGMA freelist_count");
  const [{ page_size }] = t.query<{ page_size: number }>("PRAGMA page_size");
  return (page_count - freelist_count) * page_size;
}

describe("deploy.md Security notes: writes per person and token are limited", () => {
  let t: TestApp;
  let clock: ManualClock;
  let admin: DashboardClient;
  let translator: DashboardClient;
  let pid: string;
  let keyIds: string[];

  beforeAll(async () => {
    clock = new ManualClock(Date.UTC(2026, 0, 1, 10, 0, 0));
    // The default limit: the setting left empty.
    t = await testApp({ clock, env: { PHRASEBOOK_WRITE_RATE_LIMIT: "" } });
    admin = await t.login();
    pid = await admin.project("Rate", "en", ["de"]);
    keyIds = [];
    for (let i = 0; i < 10; i++) keyIds.push(await admin.key(pid, `key.${i}`, { en: `Key ${i}` }));
    translator = await member(t, admin, pid, "tess", "translator", ["de"]);
    clock.advance(60_000); // a new window: the set-up's writes are the admin's anyway
  });
  afterAll(() => t.close());

  test(`a translator's 400 saves at once: ${DEFAULT_LIMIT} are written, the rest are 429 with Retry-After, and write nothing`, async () => {
    const historyBefore = t.query<{ n: number }>("SELECT count(*) AS n FROM translation_history")[0]!.n;
    // Over eight translations, so that each keeps every entry (fewer than 50 each) and the rows count the saves.
    const result = await saves(translator, keyIds.slice(0, 8).map((id) => `/projects/${pid}/keys/${id}/translations/de`), 400, (i) => `Wert ${i}`);
    expect(result.ok).toBe(DEFAULT_LIMIT);
    expect(result.refused).toHaveLength(100);
    for (const r of result.refused) {
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(r.error).toMatch(/^you made 300 changes in this minute, the limit for one person or token \(PHRASEBOOK_WRITE_RATE_LIMIT\); try again in \d+ s$/);
    }
    expect(t.query<{ n: number }>("SELECT count(*) AS n FROM translation_history")[0]!.n - historyBefore).toBe(DEFAULT_LIMIT);
  });

  test("another person's save is taken meanwhile, and the translator's once the window has passed", async () => {
    expect((await admin.put(`/projects/${pid}/keys/${keyIds[1]}/translations/de`, { value: "Vom Admin" })).status).toBe(200);
    expect((await translator.put(`/projects/${pid}/keys/${keyIds[1]}/translations/de`, { value: "Noch einer" })).status).toBe(429);
    clock.advance(60_000);
    expect((await translator.put(`/projects/${pid}/keys/${keyIds[1]}/translations/de`, { value: "Noch einer" })).status).toBe(200);
  });

  test("saves of the largest value: the bytes a minute are bounded too, and a token has a budget of its own", async () => {
    clock.advance(60_000);
    const budget = DEFAULT_LIMIT * WRITE_BYTES_PER_WRITE;
    const body = JSON.stringify({ value: LARGEST }).length;
    const result = await saves(translator, [`/projects/${pid}/keys/${keyIds[8]}/translations/de`], 150, (i) => LARGEST.slice(0, 100_000 - 4) + String(i).padStart(4, "0"));
    expect(result.ok).toBe(Math.floor(budget / body));
    expect(result.refused[0]!.error).toMatch(/^your changes in this minute hold 9\.4 MB, the limit for one person or token; try again in \d+ s$/);
    const ci = t.client();
    ci.bearer = (await admin.post(`/projects/${pid}/tokens`, { name: "CI", scopes: ["write"] })).body.token;
    expect((await ci.put(`/projects/${pid}/keys/${keyIds[9]}/translations/de`, { value: "Vom Token" })).status).toBe(200);
  });
});

describe("deploy.md Security notes: an import is one write, whatever its size", () => {
  let t: TestApp;
  let admin: DashboardClient;
  let pid: string;

  let clock: ManualClock;

  beforeAll(async () => {
    clock = new ManualClock();
    t = await testApp({ clock, env: { PHRASEBOOK_WRITE_RATE_LIMIT: "3" } });
    admin = await t.login();
    pid = await admin.project("Imports", "en");
    clock.advance(60_000); // a new window: making the project was a change
  });
  afterAll(() => t.close());

  test("with a limit of 3: three imports of 3 MB each are taken, the fourth is 429", async () => {
    const big = JSON.stringify(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`big.${i}`, "y".repeat(100_000)])));
    expect(big.length).toBeGreaterThan(3_000_000);
    for (let i = 0; i < 3; i++) expect((await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: big.replace(/big\./g, `big${i}.`) })).status).toBe(200);
    const fourth = await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: '{"small":"x"}' });
    expect(fourth.status).toBe(429);
    expect(fourth.body.error).toMatch(/^you made 3 changes in this minute/);
  });
});

describe("dashboard.md History: a translation keeps its newest entries and its newest approval", () => {
  let t: TestApp;
  let clock: ManualClock;
  let admin: DashboardClient;
  let pid: string;
  let keyId: string;
  const cellRows = () =>
    t.query<{ n: number; approved: number }>(
      "SELECT count(*) AS n, coalesce(sum(h.status = 'approved'), 0) AS approved FROM translation_history h JOIN languages l ON l.id = h.language_id WHERE l.code = 'de' AND h.key_id = (SELECT id FROM translation_keys WHERE public_id = ?)",
      keyId,
    )[0]!;

  beforeAll(async () => {
    clock = new ManualClock();
    t = await testApp({ clock });
    admin = await t.login();
    pid = await admin.project("History", "en", ["de"]);
    keyId = await admin.key(pid, "cell", { en: "Cell" });
  });
  afterAll(() => t.close());

  test(`after 120 saves of the largest value a translation holds ${HISTORY_KEPT_PER_CELL} entries, and the database stopped growing at the cap`, async () => {
    const path = `/projects/${pid}/keys/${keyId}/translations/de`;
    const value = (i: number) => LARGEST.slice(0, 100_000 - 4) + String(i).padStart(4, "0");
    for (let i = 0; i < 60; i++) expect((await admin.put(path, { value: value(i) })).status).toBe(200);
    expect(cellRows().n).toBe(HISTORY_KEPT_PER_CELL);
    const atCap = usedBytes(t);
    for (let i = 60; i < 120; i++) expect((await admin.put(path, { value: value(i) })).status).toBe(200);
    expect(cellRows().n).toBe(HISTORY_KEPT_PER_CELL);
    // 60 more saves of 100,000 characters, each an entry of two values: 12 MB once; now the
    // entries they push out free the pages they take.
    expect(usedBytes(t) - atCap).toBeLessThan(1024 * 1024);
    const history = await admin.get(`/projects/${pid}/keys/${keyId}/history?page_size=100`);
    const german = history.body.items.filter((h: { language_code: string }) => h.language_code === "de");
    expect(german).toHaveLength(HISTORY_KEPT_PER_CELL);
    expect(german[0].value).toBe(value(119));
    expect(german.at(-1).value).toBe(value(120 - HISTORY_KEPT_PER_CELL));
  });

  test("the newest approval stays however many edits follow it, and a release of reviewed strings only ships it", async () => {
    const path = `/projects/${pid}/keys/${keyId}/translations/de`;
    expect((await admin.put(path, { value: "Geprüft" })).status).toBe(200);
    expect((await admin.post(`${path}/approve`)).status).toBe(200);
    for (let i = 0; i < HISTORY_KEPT_PER_CELL + 10; i++) expect((await admin.put(path, { value: `Entwurf ${i}` })).status).toBe(200);
    expect(cellRows()).toEqual({ n: HISTORY_KEPT_PER_CELL + 1, approved: 1 });
    expect((await admin.patch(`/projects/${pid}`, { publish_approved_only: true })).status).toBe(200);
    const release = await admin.post(`/projects/${pid}/releases`, { name: "Reviewed", tag: "v1" });
    const published = await admin.post(`/projects/${pid}/releases/${release.body.id}/publish`);
    expect(published.status).toBe(200);
    const de = published.body.languages.find((l: { code: string }) => l.code === "de");
    expect(await (await t.fetch(de.download_urls.json)).json()).toEqual({ cell: "Geprüft" });
  });
});
