/**
 * Machine translation (docs/translators.md "Machine translation") against stand-ins of
 * LibreTranslate and an OpenAI-compatible server that follow each API and misbehave on purpose:
 * what is sent (placeholders, tags and ICU syntax as tokens; a plural's forms one by one; every
 * category of the target language), where (only the configured URL), and that every broken answer
 * is caught: shown with its problem, or refused with a one-line `machine_error`, never saved.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { HttpFetch } from "../../src/deps.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { startEngineStandIn, type EngineStandIn } from "../helpers/mt-engines.ts";

let engine: EngineStandIn;
/** Every URL the app's outgoing fetch was asked for. */
const called: string[] = [];
const recording: HttpFetch = (input, init) => {
  called.push(String(input instanceof Request ? input.url : input));
  return fetch(input, init);
};

interface World {
  t: TestApp;
  admin: DashboardClient;
  pid: string;
  keys: Record<string, string>;
}

async function world(env: Record<string, string>): Promise<World> {
  const t = await testApp({ env, fetch: recording });
  const admin = await t.login();
  const pid = await admin.project("Shop", "en", ["de", "ru", "ar"]);
  const keys = {
    greet: await admin.key(pid, "greet", { en: "Hello <b>{name}</b>, it's new!\nSee below." }),
    files: await admin.key(pid, "files", { en: "You have {count, plural, one {# file} other {# files}} in {folder}." }),
    plain: await admin.key(pid, "plain", { en: "Save the account" }),
  };
  return { t, admin, pid, keys };
}

const suggest = (w: World, key: string, language = "de") => w.admin.get(`/projects/${w.pid}/keys/${w.keys[key]}/suggestions?language=${language}`);
const machineItem = (body: any) => body.items.find((i: any) => i.source === "machine");

let libre: World;
let openai: World;

beforeAll(async () => {
  engine = startEngineStandIn();
  libre = await world({ PHRASEBOOK_MT_KIND: "libretranslate", PHRASEBOOK_MT_URL: `${engine.url}/`, PHRASEBOOK_MT_KEY: "libre-secret-key" });
  openai = await world({ PHRASEBOOK_MT_KIND: "openai", PHRASEBOOK_MT_URL: `${engine.url}/v1`, PHRASEBOOK_MT_KEY: "sk-secret", PHRASEBOOK_MT_MODEL: "local-model" });
});

afterAll(async () => {
  await libre.t.close();
  await openai.t.close();
  await engine.stop();
});

describe("translators.md: machine translation", () => {
  test("LibreTranslate: POST /translate with q, source, target, format html and api_key; placeholders, tags and line breaks put back", async () => {
    engine.misbehave = "none";
    engine.requests.length = 0;
    const r = await suggest(libre, "greet");
    expect(r.status).toBe(200);
    expect(machineItem(r.body)).toEqual({ source: "machine", value: "HELLO <b>{name}</b>, IT'S NEW!\nSEE BELOW.", score: null, from: { engine: "libretranslate", language_code: "de" }, problems: [] });
    expect(engine.requests).toHaveLength(1);
    const [req] = engine.requests;
    expect(req!.path).toBe("/translate");
    expect(req!.body).toEqual({ q: ['Hello <x id="0"/><x id="1"/><x id="2"/>, it\'s new!<x id="3"/>See below.'], source: "en", target: "de", format: "html", api_key: "libre-secret-key" });
  });

  test("OpenAI-compatible: POST /v1/chat/completions (a base ending in /v1 gets no second one), the model, the key as a bearer", async () => {
    engine.misbehave = "none";
    engine.requests.length = 0;
    const r = await suggest(openai, "plain");
    expect(machineItem(r.body)).toMatchObject({ value: "SAVE THE ACCOUNT", from: { engine: "openai" } });
    const [req] = engine.requests;
    expect(req!.path).toBe("/v1/chat/completions");
    expect(req!.headers.authorization).toBe("Bearer sk-secret");
    expect(req!.body).toMatchObject({ model: "local-model", messages: [{ role: "system" }, { role: "user", content: '["Save the account"]' }] });
  });

  test("a plural's forms are translated one by one, and a plural in Russian and Arabic has all their categories", async () => {
    engine.misbehave = "none";
    for (const w of [libre, openai]) {
      engine.requests.length = 0;
      const ru = machineItem((await suggest(w, "files", "ru")).body);
      expect(ru.value).toBe("YOU HAVE {count, plural, one {# FILE} few {# FILES} many {# FILES} other {# FILES}} IN {folder}.");
      expect(ru.problems).toEqual([]);
      const ar = machineItem((await suggest(w, "files", "ar")).body);
      expect(ar.value).toBe("YOU HAVE {count, plural, zero {# FILES} one {# FILE} two {# FILES} few {# FILES} many {# FILES} other {# FILES}} IN {folder}.");
      expect(ar.problems).toEqual([]);
    }
    // Each form is a text of its own; the sentence around the plural is one more.
    const texts = engine.requests.at(-1)!.body.messages ? JSON.parse(engine.requests.at(-1)!.body.messages[1].content) : engine.requests.at(-1)!.body.q;
    expect(texts).toEqual(['You have <x id="2"/> in <x id="3"/>.', '<x id="0"/> file', '<x id="1"/> files']);
  });

  test("a dropped placeholder comes back without it, shown with its problem", async () => {
    engine.misbehave = "drop";
    const item = machineItem((await suggest(libre, "files")).body);
    expect(item.problems).toEqual(expect.arrayContaining([expect.objectContaining({ code: "placeholder_missing" })]));
  });

  test("renamed or repeated placeholders, ICU syntax and markup of the engine's own are refused: one line, no suggestion", async () => {
    const expected: Record<string, string> = {
      rename: "changed a placeholder",
      repeat: "repeats a placeholder",
      braces: "holds braces",
      keyword: "holds braces",
      markup: "holds markup the source text does not have",
    };
    for (const [how, words] of Object.entries(expected)) {
      engine.misbehave = how as never;
      for (const w of [libre, openai]) {
        const r = await suggest(w, "greet");
        expect(r.status).toBe(200);
        expect(machineItem(r.body)).toBeUndefined();
        expect(r.body.machine_error).toContain(words);
        expect(r.body.machine_error).not.toContain("\n");
      }
    }
  });

  test("a 500, a body past 1 MB, a redirect and an answer that is no JSON are the engine's failures, each one line", async () => {
    const expected: Record<string, string> = {
      error: "the engine answered 500: {\"error\":\"the model is overloaded\"}",
      huge: "larger than 1 MB",
      redirect: "a redirect: only the configured URL is called",
      garbage: "not JSON",
    };
    for (const [how, words] of Object.entries(expected)) {
      engine.misbehave = how as never;
      const r = await suggest(libre, "plain");
      expect(r.body.machine_error).toContain(words);
    }
    // The redirect was not followed.
    expect(engine.requests.filter((r) => r.path === "/elsewhere")).toEqual([]);
  });

  test("nothing is called but the configured URL, and the key is in no answer", async () => {
    const endpoints = new Set([`${engine.url}/translate`, `${engine.url}/v1/chat/completions`]);
    expect(called.length).toBeGreaterThan(10);
    expect(called.filter((url) => !endpoints.has(url))).toEqual([]);
    engine.misbehave = "error";
    const r = await suggest(libre, "plain");
    expect(JSON.stringify(r.body)).not.toContain("libre-secret-key");
  });

  test("?machine=false asks no engine", async () => {
    engine.misbehave = "none";
    engine.requests.length = 0;
    const r = await libre.admin.get(`/projects/${libre.pid}/keys/${libre.keys.plain}/suggestions?language=de&machine=false`);
    expect(r.body).toEqual({ items: [] });
    expect(engine.requests).toHaveLength(0);
  });

  // Where machine translation meets the project's syntax: each syntax's placeholders (and the
  // native ones an Android or iOS import brings) reach the engine as tokens and come back as they
  // were, without a problem.
  test.each([
    ["i18next", "Hello {{name}}, see $t(common.help) <b>now</b>", "HELLO {{name}}, SEE $t(common.help) <b>NOW</b>"],
    ["text", "Copied %1$s of %2$d files to %@ {folder}", "COPIED %1$s OF %2$d FILES TO %@ {folder}"],
    // gen-l10n reads an apostrophe as itself: `'{query}'` is a placeholder between quotes.
    ["flutter", "Search for '{query}' in {count, plural, one {# file} other {# files}}", "SEARCH FOR '{query}' IN {count, plural, one {# FILE} other {# FILES}}"],
  ])("in a project of the %s syntax, the syntax's placeholders come back untouched", async (syntax, base, expected) => {
    engine.misbehave = "none";
    const pid = await libre.admin.project(`Syntax ${syntax}`, "en", ["de"]);
    expect((await libre.admin.patch(`/projects/${pid}`, { message_syntax: syntax })).status).toBe(200);
    const key = await libre.admin.key(pid, "k", { en: base });
    const r = await libre.admin.get(`/projects/${pid}/keys/${key}/suggestions?language=de`);
    expect(r.status).toBe(200);
    expect(r.body.machine_error ?? null).toBeNull();
    expect(machineItem(r.body)).toMatchObject({ value: expected, problems: [] });
  });

  test("an i18next plural form English lacks (items_few) is translated from its group's _other form", async () => {
    engine.misbehave = "none";
    const pid = (await libre.admin.post("/projects", { name: "Web plurals", base_language_code: "en", message_syntax: "i18next" })).body.id;
    await libre.admin.post(`/projects/${pid}/languages`, { code: "ru" });
    const imported = async (code: string, values: object) => expect((await libre.admin.post(`/projects/${pid}/import`, { language_code: code, format: "json", content: JSON.stringify(values) })).status).toBe(200);
    await imported("en", { items_one: "{{count}} item", items_other: "{{count}} items" });
    await imported("ru", { items_few: "{{count}} товара" });
    const few = ((await libre.admin.get(`/projects/${pid}/keys?search=items_few`)).body.items as any[]).find((i) => i.key === "items_few");
    const r = await libre.admin.get(`/projects/${pid}/keys/${few.id}/suggestions?language=ru`);
    expect(r.status).toBe(200);
    expect(machineItem(r.body)).toMatchObject({ value: "{{count}} ITEMS", problems: [] });
  });

  test("the glossary's terms found in the text go into the openai prompt", async () => {
    engine.misbehave = "none";
    engine.requests.length = 0;
    await openai.admin.post(`/projects/${openai.pid}/glossary`, { term: "account", translations: { de: "Konto" } });
    await openai.admin.post(`/projects/${openai.pid}/glossary`, { term: "Save", do_not_translate: true });
    await suggest(openai, "plain");
    const system = engine.requests.at(-1)!.body.messages[0].content as string;
    expect(system).toContain('"account" -> "Konto"');
    expect(system).toContain('Leave these terms as they are: "Save"');
  });
});
