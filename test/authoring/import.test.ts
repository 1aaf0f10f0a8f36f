/**
 * POST /projects/:pid/import through the dashboard API, in-process (product §4): what an import
 * creates and changes, the events it writes, and that it is all or nothing. The parsers alone are
 * tested in test/formats/read.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { lang, publish, url } from "../helpers/releases.ts";

let t: TestApp;
let admin: DashboardClient;
beforeAll(async () => {
  t = await testApp({ subscribeAll: true }); // the outbox is read: events written only for a subscriber
  admin = await t.login();
});
afterAll(async () => {
  await t.close();
});

function events(pid: string): { event: string; data: any }[] {
  const project = t.query<{ id: number }>("SELECT id FROM projects WHERE public_id = ?", pid)[0]!;
  return t
    .query<{ payload: string }>("SELECT payload FROM outbox_events WHERE project_id = ? ORDER BY id", project.id)
    .map((r) => JSON.parse(r.payload))
    .map((e) => ({ event: e.event, data: e.data }));
}

async function keysOf(pid: string): Promise<Record<string, { context: string | null; translations: Record<string, { value: string; status: string; problems: unknown[] }> }>> {
  const list = await admin.get(`/projects/${pid}/keys?page_size=500`);
  return Object.fromEntries(list.body.items.map((k: any) => [k.key, { context: k.context, translations: k.translations }]));
}

describe("POST /projects/:pid/import (product §4)", () => {
  test("product §4 import: JSON creates missing keys, sets translations and emits the authoring events", async () => {
    const c = admin;
    const pid = await c.project("Import JSON", "en", ["de"]);
    const keyId = await c.key(pid, "existing", { de: "Alt" });
    await c.post(`/projects/${pid}/keys/${keyId}/translations/de/approve`);
    const before = events(pid).length;
    const r = await c.post(`/projects/${pid}/import`, {
      language_code: "de",
      format: "json",
      content: JSON.stringify({ existing: "Neu", menu: { open: "Öffnen", close: "Schließen" } }),
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ created_keys: 2, updated_translations: 3, updated_keys: 1, unchanged: 0, deleted_keys: 0 });
    const keys = await keysOf(pid);
    expect(keys.existing!.translations.de).toEqual({ value: "Neu", status: "translated", problems: [] }); // an edit resets approved
    expect(keys["menu.open"]!.translations.de!.value).toBe("Öffnen");
    expect(events(pid).slice(before)).toEqual([
      { event: "translation_updated", data: { key: "existing", language_code: "de", value: "Neu", status: "translated" } },
      { event: "key_created", data: { key: "menu.open", context: null } },
      { event: "translation_created", data: { key: "menu.open", language_code: "de", value: "Öffnen", status: "translated" } },
      { event: "key_created", data: { key: "menu.close", context: null } },
      { event: "translation_created", data: { key: "menu.close", language_code: "de", value: "Schließen", status: "translated" } },
    ]);
    // The same file again changes nothing and emits nothing.
    const again = await c.post(`/projects/${pid}/import`, { language_code: "de", format: "json", content: JSON.stringify({ existing: "Neu" }) });
    expect(again.body).toMatchObject({ created_keys: 0, updated_translations: 0, updated_keys: 0, unchanged: 1, changes: [] });
  });

  test("product §4 import: YAML values such as yes, ~ and 1.0 arrive as those strings", async () => {
    const c = admin;
    const pid = await c.project("Import YAML", "en");
    const r = await c.post(`/projects/${pid}/import`, { language_code: "en", format: "yaml", content: "answer: yes\nnothing: ~\nversion: 1.0\nquoted: \"line\\nbreak\"\n" });
    expect(r.status).toBe(200);
    const keys = await keysOf(pid);
    expect(Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, v.translations.en!.value]))).toEqual({ answer: "yes", nothing: "~", version: "1.0", quoted: "line\nbreak" });
  });

  test("product §4 import: an ARB description becomes the key's context, and a published ARB imports back onto the same keys", async () => {
    const c = admin;
    const pid = await c.project("Import ARB", "en", ["fr"]);
    const arb = { "@@locale": "en", greeting: "Hello {name}", "@greeting": { description: "On the home page", placeholders: { name: {} } }, bye: "Bye" };
    const r = await c.post(`/projects/${pid}/import`, { language_code: "en", format: "arb", content: JSON.stringify(arb) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ created_keys: 2, updated_translations: 2 });
    expect((await keysOf(pid)).greeting!.context).toBe("On the home page");
    // Keys whose ARB names differ from the key: the published French file maps back to them.
    await c.key(pid, "checkout.total", { fr: "Total" });
    await c.key(pid, "class", { fr: "Classe" });
    const release = await publish(c, pid, "v1");
    const frArb = await (await t.fetch(url(lang(release, "fr"), "arb"))).json();
    frArb.checkoutTotal = "Montant total";
    frArb.kClass = "Catégorie";
    const back = await c.post(`/projects/${pid}/import`, { language_code: "fr", format: "arb", content: JSON.stringify(frArb) });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ created_keys: 0, updated_translations: 2, updated_keys: 2 });
    const keys = await keysOf(pid);
    expect(keys["checkout.total"]!.translations.fr!.value).toBe("Montant total");
    expect(keys.class!.translations.fr!.value).toBe("Catégorie");
    const wrongLocale = await c.post(`/projects/${pid}/import`, { language_code: "fr", format: "arb", content: JSON.stringify({ "@@locale": "de", a: "b" }) });
    expect(wrongLocale.status).toBe(400);
    expect(wrongLocale.body.error).toContain("@@locale");
  });

  test("product §4 import: all or nothing, a bad entry anywhere changes nothing and names the entry", async () => {
    const c = admin;
    const pid = await c.project("Import atomic", "en");
    const before = events(pid).length;
    const content = JSON.stringify({ good: "fine", also: "fine", " padded ": "bad key" });
    const r = await c.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('" padded "');
    expect(Object.keys(await keysOf(pid))).toEqual([]);
    expect(events(pid).length).toBe(before);
    const tooLong = await c.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: JSON.stringify({ ok: "x", big: "y".repeat(100_001) }) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toContain('"big"');
    expect(Object.keys(await keysOf(pid))).toEqual([]);
  });

  test("product §4 import: an unknown language, format or malformed body is a 400 naming the field", async () => {
    const c = admin;
    const pid = await c.project("Import errors", "en");
    const lang = await c.post(`/projects/${pid}/import`, { language_code: "xx", format: "json", content: "{}" });
    expect(lang.status).toBe(400);
    expect(lang.body.error).toContain("language_code");
    const format = await c.post(`/projects/${pid}/import`, { language_code: "en", format: "xml", content: "{}" });
    expect(format.status).toBe(400);
    expect(format.body.error).toContain("format");
    const broken = await c.post(`/projects/${pid}/import`, { language_code: "en", format: "yaml", content: "a: [unclosed" });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toContain("not valid YAML");
    const missing = await c.post(`/projects/${pid}/import`, { language_code: "en", format: "json" });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain("content");
  });
});
