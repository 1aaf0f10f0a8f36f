/**
 * `search` on `GET /keys` and `GET /key-counts` once matched every language's values, whatever the
 * caller's role showed: a `translator (de)` who may not read French rebuilt an unpublished French
 * value one character at a time from which searches found a key. A search now reads the keys,
 * their contexts and the values of the languages the caller may read, and nothing else
 * (docs/dashboard-api.md "Project roles").
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

/** The French value nobody but French readers may see, with characters no other value holds (`ç`, `ÿ`). */
const SECRET = "Le code secret du coffre est çaÿ hibou";

let t: TestApp;
let admin: DashboardClient;
let translator: DashboardClient;
let reviewer: DashboardClient;
let pid: string;

async function member(name: string, role: string, languages?: string[]): Promise<DashboardClient> {
  const email = `${name}@example.test`;
  const made = await admin.post("/users", { email, name, password: `${name}-password`, role: "member" });
  expect((await admin.put(`/projects/${pid}/members/${made.body.id}`, { role, ...(languages ? { languages } : {}) })).status).toBe(200);
  return t.login(email, `${name}-password`);
}

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Vault", "en", ["de", "fr"]);
  await admin.key(pid, "vault.code", { en: "The vault code", de: "Der Tresorcode", fr: SECRET });
  await admin.key(pid, "vault.open", { en: "Open the vault", de: "Tresor öffnen", fr: "Ouvrir le coffre" }, "a context with hibou in it");
  translator = await member("tina", "translator", ["de"]);
  reviewer = await member("remy", "reviewer", ["fr"]);
});
afterAll(() => t.close());

/** How many keys a search finds for `client`: the key list's total and the grid's count, which must agree. */
async function found(client: DashboardClient, search: string): Promise<number> {
  const q = encodeURIComponent(search);
  const list = await client.get(`/projects/${pid}/keys?search=${q}`);
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  const counts = await client.get(`/projects/${pid}/key-counts?language=de&search=${q}`);
  expect(counts.status, JSON.stringify(counts.body)).toBe(200);
  expect(counts.body.total).toBe(list.body.page_info.total_count);
  return list.body.page_info.total_count;
}

describe("dashboard-api.md Project roles: a search reads only what the caller may read", () => {
  test("a translator (de) finds nothing by French words, of any length: not through the trigram index, not by the short walk", async () => {
    for (const term of ["coffre est", "secret du", "çaÿ", "ÿ", "ç", "aÿ", "Le code s", "u coffre"]) {
      expect(await found(admin, term), `admin: ${term}`).toBe(1);
      expect(await found(translator, term), `translator: ${term}`).toBe(0);
    }
  });

  test("character by character, the French value cannot be rebuilt from what a translator (de) finds", async () => {
    // The attack: extend a known prefix by each character in turn; the one that still finds a key is next.
    const alphabet = [..."abcdefghijklmnopqrstuvwxyzçÿ"];
    let known = "Le code ";
    for (let step = 0; step < 4; step++) {
      const next = SECRET[known.length]!;
      const forAdmin: string[] = [];
      const forTranslator: string[] = [];
      for (const c of alphabet) {
        if ((await admin.get(`/projects/${pid}/key-counts?language=de&search=${encodeURIComponent(known + c)}`)).body.total > 0) forAdmin.push(c);
        if ((await translator.get(`/projects/${pid}/key-counts?language=de&search=${encodeURIComponent(known + c)}`)).body.total > 0) forTranslator.push(c);
      }
      expect(forAdmin, known).toEqual([next]);
      expect(forTranslator, known).toEqual([]);
      known += next;
    }
  });

  test("with a status filter too, a French word finds nothing for the translator", async () => {
    for (const status of ["translated", "missing"]) {
      const r = await translator.get(`/projects/${pid}/keys?search=${encodeURIComponent("coffre est")}&status=${status}&language=de`);
      expect(r.status).toBe(200);
      expect(r.body.page_info.total_count).toBe(0);
    }
    const r = await translator.get(`/projects/${pid}/keys?search=hibou&status=problems`);
    expect(r.body.page_info.total_count).toBe(0);
  });

  test("the translator still finds by key, context, the base language and their own language", async () => {
    expect(await found(translator, "vault.code")).toBe(1);
    expect(await found(translator, "hibou")).toBe(1); // vault.open's context, not the French value
    expect(await found(translator, "The vault code")).toBe(1);
    expect(await found(translator, "Tresorcode")).toBe(1);
    expect(await found(translator, "ö")).toBe(1);
  });

  test("a reviewer of French finds the French value; a project viewer (every language) too", async () => {
    expect(await found(reviewer, "coffre est")).toBe(1);
    expect(await found(reviewer, "ÿ")).toBe(1);
    expect(await found(reviewer, "Tresorcode")).toBe(0); // German is not theirs
    const viewer = await member("vic", "viewer");
    expect(await found(viewer, "coffre est")).toBe(1);
  });
});
