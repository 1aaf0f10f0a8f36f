/**
 * Pre-translation (docs/translators.md "Pre-translation"): a developer fills a
 * language's missing values from the memory (exact matches unless told a lower score), and from the
 * machine when asked; each value saved as translated, never approved, with history `via: "memory"`
 * or `"machine"`; a value with any problem is skipped; so a project that publishes approved strings
 * only never ships them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { startEngineStandIn, type EngineStandIn } from "../helpers/mt-engines.ts";

let t: TestApp;
let admin: DashboardClient;
let engine: EngineStandIn;
let source: string;

beforeAll(async () => {
  engine = startEngineStandIn();
  t = await testApp({ env: { PHRASEBOOK_MT_KIND: "libretranslate", PHRASEBOOK_MT_URL: engine.url }, subscribeAll: true });
  admin = await t.login();
  source = await admin.project("Source", "en", ["de"]);
  await admin.key(source, "a", { en: "Save the file", de: "Datei speichern" });
  await admin.key(source, "b", { en: "Open {name}", de: "{name} öffnen" });
  await admin.key(source, "c", { en: "Delete the account", de: "Konto löschen" });
  await admin.key(source, "d", { en: "Rename {file}", de: "Umbenennen" }); // lacks its placeholder
});

afterAll(async () => {
  await t.close();
  await engine.stop();
});

/**
 * A project to pre-translate. `close` resembles a stored string and `none` nothing, each in words
 * of its own (`tail`): the projects before it, pre-translated, are in the memory too.
 */
async function target(name: string, tail: string): Promise<{ pid: string; keys: Record<string, string> }> {
  const pid = await admin.project(name, "en", ["de"]);
  const keys = {
    same: await admin.key(pid, "same", { en: "Save the file" }),
    renamed: await admin.key(pid, "renamed", { en: "Open {document}" }),
    close: await admin.key(pid, "close", { en: `Delete the account${tail}` }),
    problem: await admin.key(pid, "problem", { en: "Rename {file}" }),
    none: await admin.key(pid, "none", { en: `Nothing like it in ${name}` }),
    done: await admin.key(pid, "done", { en: "Already translated here", de: "Schon übersetzt" }),
  };
  return { pid, keys };
}

const valueOf = async (pid: string, key: string) => (await admin.get(`/projects/${pid}/keys/${key}`)).body.translations.de;

describe("translators.md: pre-translation", () => {
  test("exact matches by default (placeholder names counted equal); a match with a problem is skipped; nothing approved", async () => {
    const { pid, keys } = await target("Exact", "s");
    const r = await admin.post(`/projects/${pid}/pretranslate`, { language_code: "de" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ filled: 2, skipped: 3 });
    expect(await valueOf(pid, keys.same)).toMatchObject({ value: "Datei speichern", status: "translated", problems: [] });
    expect(await valueOf(pid, keys.renamed)).toMatchObject({ value: "{document} öffnen", status: "translated" });
    expect(await valueOf(pid, keys.problem)).toBeUndefined();
    expect(await valueOf(pid, keys.close)).toBeUndefined();
    expect(await valueOf(pid, keys.done)).toMatchObject({ value: "Schon übersetzt" });
    const history = (await admin.get(`/projects/${pid}/keys/${keys.same}/history`)).body.items;
    expect(history[0]).toMatchObject({ language_code: "de", via: "memory", status: "translated", by: { kind: "user", name: "Admin" } });
    const events = t.query<{ event: string; payload: string }>("SELECT event, payload FROM outbox_events WHERE event = 'translation_created' AND payload LIKE '%Datei speichern%'");
    expect(events.length).toBeGreaterThanOrEqual(1);
  });

  test("min_score takes resembling matches too", async () => {
    const { pid, keys } = await target("Fuzzy", "!");
    const r = await admin.post(`/projects/${pid}/pretranslate`, { language_code: "de", min_score: 80 });
    expect(r.body).toEqual({ filled: 3, skipped: 2 });
    expect(await valueOf(pid, keys.close)).toMatchObject({ value: "Konto löschen" });
  });

  test("with the machine: what the memory lacks, via machine; a broken answer is never saved", async () => {
    const { pid, keys } = await target("Machine", "?");
    engine.misbehave = "markup";
    let r = await admin.post(`/projects/${pid}/pretranslate`, { language_code: "de", machine: true });
    expect(r.body).toMatchObject({ filled: 2, skipped: 3 });
    expect(r.body.machine_error).toContain("markup");
    expect(await valueOf(pid, keys.none)).toBeUndefined();
    engine.misbehave = "drop";
    r = await admin.post(`/projects/${pid}/pretranslate`, { language_code: "de", machine: true });
    // The dropped placeholder makes `Rename {file}` a value with a problem: skipped; the rest has none.
    expect(r.body).toEqual({ filled: 2, skipped: 1 });
    expect(await valueOf(pid, keys.problem)).toBeUndefined();
    expect(await valueOf(pid, keys.none)).toMatchObject({ value: "NOTHING LIKE IT IN MACHINE", status: "translated" });
    expect((await admin.get(`/projects/${pid}/keys/${keys.none}/history`)).body.items[0]).toMatchObject({ via: "machine" });
    engine.misbehave = "none";
  });

  test("a project that publishes approved strings only ships none of them", async () => {
    const { pid, keys } = await target("Reviewed", ".");
    await admin.patch(`/projects/${pid}`, { publish_approved_only: true });
    expect((await admin.post(`/projects/${pid}/pretranslate`, { language_code: "de" })).body.filled).toBe(2);
    await admin.post(`/projects/${pid}/keys/${keys.done}/translations/de/approve`);
    const release = (await admin.post(`/projects/${pid}/releases`, { name: "R", tag: "r1" })).body;
    expect((await admin.post(`/projects/${pid}/releases/${release.id}/publish`)).status).toBe(200);
    const file = await admin.download(`/projects/${pid}/releases/${release.id}/export?format=json&language=de`);
    expect(JSON.parse(file.text)).toEqual({ done: "Schon übersetzt" });
  });

  test("the base language, or one the project lacks, is a 400 naming language_code", async () => {
    expect((await admin.post(`/projects/${source}/pretranslate`, { language_code: "en" })).body.error).toContain('invalid field "language_code": en is the base language');
    expect((await admin.post(`/projects/${source}/pretranslate`, { language_code: "fr" })).body.error).toContain('invalid field "language_code": fr is not a language');
  });
});
