/**
 * The memory's index stays exactly the base strings and imported sources (src/storage/derived.ts,
 * docs/translators.md "Translation memory"): triggers name the rows a write changes, and the
 * refresh puts each row's text in and takes out the text it went in with, through saves, changed base strings, a language deleted with its
 * values, a key deleted, a new base language and a memory deleted. Checked against the index
 * itself: what it says it holds, and what a trigram of a string taken out still finds.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { refreshMemoryIndex } from "../../src/storage/derived.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

let t: TestApp;
let admin: DashboardClient;
let pid: string;

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Indexed", "en", ["de", "fr"]);
});
afterAll(() => t.close());

/** The ids the index says it holds, and the ids it should: every base value's rowid, every unit's id negated. */
function held(): { indexed: number[]; expected: number[] } {
  while (refreshMemoryIndex(t.deps.db.$client, 1000) > 0); // what the background pass does (src/memory/index-pass.ts)
  const indexed = t.query<{ id: number }>("SELECT id FROM memory_indexed ORDER BY id").map((r) => r.id);
  const base = t.query<{ id: number }>(
    "SELECT t.rowid AS id FROM translations t JOIN languages l ON l.id = t.language_id JOIN projects p ON p.id = l.project_id WHERE l.code = p.base_language_code",
  );
  const units = t.query<{ id: number }>("SELECT -id AS id FROM memory_units");
  return { indexed, expected: [...base, ...units].map((r) => r.id).sort((a, b) => a - b) };
}

/** The rowids the index holds every trigram of `text` for (it keeps no positions, so no phrase query). */
function found(text: string): number[] {
  while (refreshMemoryIndex(t.deps.db.$client, 1000) > 0);
  const trigrams = [...new Set(Array.from({ length: text.length - 2 }, (_, i) => text.slice(i, i + 3)))];
  const query = trigrams.map((g) => `"${g.replaceAll('"', '""')}"`).join(" AND ");
  return t.query<{ rowid: number }>("SELECT rowid FROM memory_search WHERE memory_search MATCH ?", query).map((r) => r.rowid);
}

async function value(key: string, code: string, text: string): Promise<void> {
  const keys = (await admin.get(`/projects/${pid}/keys?search=${encodeURIComponent(key)}`)).body.items;
  const id = keys.find((k: { key: string }) => k.key === key)?.id ?? (await admin.post(`/projects/${pid}/keys`, { key })).body.id;
  expect((await admin.put(`/projects/${pid}/keys/${id}/translations/${code}`, { value: text })).status).toBe(200);
}

test("the index holds exactly the base strings through every kind of change, and finds none it let go", async () => {
  await value("a", "en", "Zebra crossing ahead");
  await value("a", "de", "Zebrastreifen voraus");
  await value("b", "en", "Quokka smiles daily");
  await value("b", "fr", "Le quokka sourit");
  expect(held().indexed).toEqual(held().expected);
  expect(found("Zebra crossing").length).toBe(1);
  expect(found("Zebrastreifen")).toEqual([]); // not a base string

  // A base string changed: the old text is no longer found, the new one is.
  await value("a", "en", "Yak grazing nearby");
  expect(found("Zebra crossing")).toEqual([]);
  expect(found("Yak grazing").length).toBe(1);
  expect(held().indexed).toEqual(held().expected);

  // A language deleted with its values (a cascade of values the index never held).
  expect((await admin.delete(`/projects/${pid}/languages/fr`)).status).toBe(204);
  expect(held().indexed).toEqual(held().expected);
  expect(found("Quokka smiles").length).toBe(1);

  // A key deleted with its base value.
  const b = (await admin.get(`/projects/${pid}/keys?search=Quokka`)).body.items[0].id;
  expect((await admin.delete(`/projects/${pid}/keys/${b}`)).status).toBe(204);
  expect(found("Quokka smiles")).toEqual([]);
  expect(held().indexed).toEqual(held().expected);

  // Another base language: its values in, the old base's out.
  expect((await admin.patch(`/projects/${pid}`, { base_language_code: "de" })).status).toBe(200);
  expect(found("Yak grazing")).toEqual([]);
  expect(found("Zebrastreifen").length).toBe(1);
  expect(held().indexed).toEqual(held().expected);

  // An imported memory in, then deleted.
  const tmx = `<?xml version="1.0"?><tmx version="1.4"><header srclang="de" datatype="plaintext" segtype="sentence" adminlang="en" creationtool="t" creationtoolversion="1" o-tmf="t"/><body><tu><tuv xml:lang="de"><seg>Wombat gräbt tief</seg></tuv><tuv xml:lang="en"><seg>Wombat digs deep</seg></tuv></tu></body></tmx>`;
  const imported = await t.fetch(`/dashboard/api/projects/${pid}/tm/import?name=zoo`, { method: "POST", headers: { "content-type": "application/xml", cookie: admin.cookie, "x-csrf-token": admin.csrf, origin: "http://localhost:8080" }, body: tmx });
  expect(imported.status, await imported.clone().text()).toBe(200);
  expect(found("Wombat gräbt").length).toBe(1);
  expect(held().indexed).toEqual(held().expected);
  const memories = (await admin.get(`/projects/${pid}/tm/imports`)).body.items;
  expect((await admin.delete(`/projects/${pid}/tm/imports/${memories[0].id}`)).status).toBe(204);
  expect(found("Wombat gräbt")).toEqual([]);
  expect(held().indexed).toEqual(held().expected);
});

test("a write names its rows and pays for no trigram; the refresh indexes them, and one named twice is indexed once", async () => {
  const before = t.query<{ n: number }>("SELECT count(*) AS n FROM memory_pending")[0]!.n;
  expect(before).toBe(0); // the test above left nothing pending
  await value("c", "de", "Kakadu ruft laut"); // de is the base now
  await value("c", "de", "Kakadu ruft leise");
  expect(t.query<{ n: number }>("SELECT count(*) AS n FROM memory_pending")[0]!.n).toBe(1);
  expect(found("Kakadu ruft leise").length).toBe(1);
  expect(found("Kakadu ruft laut")).toEqual([]);
  expect(t.query<{ n: number }>("SELECT count(*) AS n FROM memory_pending")[0]!.n).toBe(0);
});
