/**
 * Publishing through the dashboard API, in-process (interface §3, product §3 and §4): the release
 * lifecycle, the files the CDN serves for it, and the events it writes. Real SQLite and real files
 * in a temporary data dir; the CDN is asked through the same app.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { ORIGIN, testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { lang, latestUrl, projectSlug, publish, SLUG, url } from "../helpers/releases.ts";

let t: TestApp;
let admin: DashboardClient;
beforeAll(async () => {
  t = await testApp({ subscribeAll: true }); // the outbox is read: events written only for a subscriber
  admin = await t.login();
});
afterAll(async () => {
  await t.close();
});

/** The app's answer for a download URL (absolute, under the default CDN URL). */
const fetch = (target: string) => t.fetch(target);

function outbox(event: string, releaseId: string) {
  return t
    .query<{ payload: string }>("SELECT payload FROM outbox_events WHERE event = ?", event)
    .map((r) => JSON.parse(r.payload))
    .filter((p) => p.data.release_id === releaseId);
}

describe("publish (interface §3, product §3 and §4)", () => {
  test("interface §3: publishing a draft gives it a 16-character slug, ships every language with is_base_language and emits release_published", async () => {
    const c = admin;
    const pid = await c.project("Publish basics", "en", ["de", "pt-BR"]);
    await c.key(pid, "hello", { en: "Hello", de: "Hallo" });
    const draft = await c.post(`/projects/${pid}/releases`, { name: "First", tag: "v1" });
    expect(draft.body.status).toBe("draft");
    expect(draft.body.slug).toBeUndefined(); // interface §2.7: a draft has none
    const published = await c.post(`/projects/${pid}/releases/${draft.body.id}/publish`);
    expect(published.status).toBe(200);
    const r = published.body;
    expect(r.status).toBe("published");
    expect(r.slug).toMatch(SLUG);
    expect(r.slug).not.toBe(r.id);
    expect(Date.parse(r.published_at)).toBeGreaterThan(0);
    expect(r.languages.map((l: any) => [l.code, l.is_base_language])).toEqual([["de", false], ["en", true], ["pt-BR", false]]);
    const slug = await projectSlug(c, pid);
    expect(url(lang(r, "pt-BR"), "arb")).toBe(`${ORIGIN}/cdn/p/${slug}/r/${r.slug}/pt-BR.arb`);
    const events = outbox("release_published", r.id);
    expect(events.length).toBe(1);
    expect(events[0]).toMatchObject({ event: "release_published", event_version: 1, data: { release_id: r.id, name: "First", tag: "v1", status: "published" } });
  });

  test("interface §2.7: every release gets its own random slug, unrelated to the project slug", async () => {
    const c = admin;
    const pid = await c.project("Slugs", "en");
    const slugs = new Set<string>();
    for (let i = 0; i < 5; i++) slugs.add((await publish(c, pid, `v${i}`)).slug);
    expect(slugs.size).toBe(5);
    expect(slugs.has(await projectSlug(c, pid))).toBe(false);
  });

  test("product §4: publishing a published release answers 409; an unknown one 404", async () => {
    const c = admin;
    const pid = await c.project("Twice", "en");
    const r = await publish(c, pid, "v1");
    const again = await c.post(`/projects/${pid}/releases/${r.id}/publish`);
    expect(again.status).toBe(409);
    expect(again.body.error).toContain("already published");
    expect(outbox("release_published", r.id).length).toBe(1);
    const missing = await c.post(`/projects/${pid}/releases/rel_AAAAAAAAAAAAAAAAAAAA/publish`);
    expect(missing.status).toBe(404);
  });

  test("product §4: publishing, rotating and deleting releases need the admin role; import is open to members", async () => {
    const c = admin;
    const pid = await c.project("Roles", "en");
    const draft = await c.post(`/projects/${pid}/releases`, { name: "R", tag: "v1" });
    const created = await c.post("/users", { email: "member-publish@example.test", name: "M", password: "member password", role: "member" });
    expect(created.status).toBe(201);
    // A member of before holds developer (docs/dashboard-api.md "Project roles").
    expect((await c.put(`/projects/${pid}/members/${created.body.id}`, { role: "developer" })).status).toBe(200);
    const member = await t.login("member-publish@example.test", "member password");
    expect((await member.post(`/projects/${pid}/releases/${draft.body.id}/publish`)).status).toBe(403);
    const r = await publish(c, pid, "v2");
    expect((await member.post(`/projects/${pid}/releases/${r.id}/rotate-slug`)).status).toBe(403);
    expect((await member.delete(`/projects/${pid}/releases/${r.id}`)).status).toBe(403);
    const imported = await member.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: '{"a": "A"}' });
    expect(imported.status).toBe(200);
    const anonymous = t.client();
    expect((await anonymous.post(`/projects/${pid}/releases/${draft.body.id}/publish`)).status).toBe(401);
  });

  test("product §3: the snapshot leaves out untranslated keys and ships a language with no translations as an empty file", async () => {
    const c = admin;
    const pid = await c.project("Gaps", "en", ["fr"]);
    await c.key(pid, "only.en", { en: "English only" });
    await c.key(pid, "both", { en: "Both", fr: "Les deux" });
    await c.key(pid, "none");
    const r = await publish(c, pid, "v1");
    expect(await (await fetch(url(lang(r, "en")))).json()).toEqual({ both: "Both", "only.en": "English only" });
    expect(await (await fetch(url(lang(r, "fr")))).json()).toEqual({ both: "Les deux" });
    const ja = await c.post(`/projects/${pid}/languages`, { code: "ja" });
    expect(ja.status).toBe(201);
    const r2 = await publish(c, pid, "v2");
    expect(await (await fetch(url(lang(r2, "ja")))).json()).toEqual({});
    expect(parseYaml(await (await fetch(url(lang(r2, "ja"), "yaml"))).text())).toEqual({});
    expect(await (await fetch(url(lang(r2, "ja"), "arb"))).json()).toEqual({ "@@locale": "ja" });
  });

  test("interface §3: a published release is immutable: later edits and language changes do not touch it", async () => {
    const c = admin;
    const pid = await c.project("Immutable", "en", ["de"]);
    const keyId = await c.key(pid, "title", { en: "Old", de: "Alt" });
    const r = await publish(c, pid, "v1");
    await c.put(`/projects/${pid}/keys/${keyId}/translations/en`, { value: "New" });
    await c.post(`/projects/${pid}/languages`, { code: "es" });
    expect((await c.delete(`/projects/${pid}/languages/de`)).status).toBe(204);
    expect((await c.patch(`/projects/${pid}`, { base_language_code: "es" })).status).toBe(200);
    const detail = (await c.get(`/projects/${pid}/releases/${r.id}`)).body;
    expect(detail.languages.map((l: any) => [l.code, l.is_base_language])).toEqual([["de", false], ["en", true]]);
    expect(await (await fetch(url(lang(r, "en")))).json()).toEqual({ title: "Old" });
    expect(await (await fetch(url(lang(r, "de")))).json()).toEqual({ title: "Alt" });
    const r2 = await publish(c, pid, "v2");
    expect(r2.languages.map((l: any) => [l.code, l.is_base_language])).toEqual([["en", false], ["es", true]]);
    expect(await (await fetch(url(lang(r2, "en")))).json()).toEqual({ title: "New" });
  });

  test("interface §2.6: the three formats of a language carry identical content, keys exactly as authored", async () => {
    const c = admin;
    const pid = await c.project("Formats", "en");
    const values: Record<string, string> = {
      "checkout.total": "Total: {amount}",
      "2fa.prompt": "Enter the code",
      class: "yes",
      "cart items": "{count, plural, one {# item} other {# items}}",
      "emoji.😀": "multi\nline ~ null",
    };
    for (const [k, v] of Object.entries(values)) await c.key(pid, k, { en: v }, k === "class" ? "a reserved word" : undefined);
    const r = await publish(c, pid, "v1");
    const en = lang(r, "en");
    const json = await (await fetch(url(en, "json"))).json();
    const yaml11 = parseYaml(await (await fetch(url(en, "yaml"))).text(), { version: "1.1" });
    const yaml12 = parseYaml(await (await fetch(url(en, "yaml"))).text(), { version: "1.2" });
    const arb = await (await fetch(url(en, "arb"))).json();
    expect(json).toEqual(values);
    expect(yaml11).toEqual(values);
    expect(yaml12).toEqual(values);
    expect(arb["@@locale"]).toBe("en");
    expect(arb.checkoutTotal).toBe(values["checkout.total"]!);
    expect(arb.k2faPrompt).toBe(values["2fa.prompt"]!);
    expect(arb.kClass).toBe("yes");
    expect(arb["@kClass"]).toEqual({ description: "a reserved word" });
    expect(arb["@cartItems"]).toEqual({ placeholders: { count: { type: "num" } } }); // publishing §3: a plural is a num
    const messages = Object.keys(arb).filter((k) => !k.startsWith("@"));
    expect(messages.length).toBe(Object.keys(values).length);
  });

  test("product §3: every file lists its keys in code-point order, whatever order they were created in", async () => {
    const c = admin;
    const pid = await c.project("Order", "en");
    // Integer-like keys would jump to the front of a JavaScript object; U+FF01 sorts before an
    // emoji in code points although its UTF-16 unit is larger than the emoji's high surrogate.
    const created = ["😀", "b", "\uff01", "10", "a.b", "2", "é", "A"];
    for (const k of created) await c.key(pid, k, { en: `v ${k}` });
    const en = lang(await publish(c, pid, "v1"), "en");
    const expected = ["10", "2", "A", "a.b", "b", "é", "\uff01", "😀"];
    const json = await (await fetch(url(en, "json"))).text();
    expect([...json.matchAll(/^  ("(?:[^"\\]|\\.)*"):/gm)].map((m) => JSON.parse(m[1]!))).toEqual(expected);
    const yaml = await (await fetch(url(en, "yaml"))).text();
    expect(yaml.split("\n").filter(Boolean).map((line) => String(Object.keys(parseYaml(line))[0]))).toEqual(expected);
    const arb = await (await fetch(url(en, "arb"))).json();
    expect(Object.values(arb).slice(1)).toEqual(expected.map((k) => `v ${k}`));
  });

  test("interface §2.6 ARB rule 3: names are identical in every language file of a release, even where a language lacks keys", async () => {
    const c = admin;
    const pid = await c.project("ARB names", "en", ["de"]);
    await c.key(pid, "hello.world", { en: "Hi 1", de: "Hallo 1" });
    await c.key(pid, "hello_world", { en: "Hi 2" });
    await c.key(pid, "hello-world", { en: "Hi 3", de: "Hallo 3" });
    const r = await publish(c, pid, "v1");
    const en = await (await fetch(url(lang(r, "en"), "arb"))).json();
    const de = await (await fetch(url(lang(r, "de"), "arb"))).json();
    expect(en).toEqual({ "@@locale": "en", helloWorld: "Hi 3", helloWorld2: "Hi 1", helloWorld3: "Hi 2" });
    expect(de).toEqual({ "@@locale": "de", helloWorld: "Hallo 3", helloWorld2: "Hallo 1" });
  });

  test("interface §5 rule 7: rotating a release slug answers the new slug and 404s the old URLs at once; a draft cannot rotate", async () => {
    const c = admin;
    const pid = await c.project("Rotate release", "en");
    await c.key(pid, "a", { en: "A" });
    const r = await publish(c, pid, "v1");
    const old = url(lang(r, "en"));
    expect((await fetch(old)).status).toBe(200); // now cached
    const rotated = await c.post(`/projects/${pid}/releases/${r.id}/rotate-slug`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.slug).toMatch(SLUG);
    expect(rotated.body.slug).not.toBe(r.slug);
    const gone = await fetch(old);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("cache-control")).toBe("no-store");
    const detail = (await c.get(`/projects/${pid}/releases/${r.id}`)).body;
    expect(detail.slug).toBe(rotated.body.slug);
    expect(await (await fetch(url(lang(detail, "en")))).json()).toEqual({ a: "A" });
    const draft = await c.post(`/projects/${pid}/releases`, { name: "D", tag: "draft" });
    expect((await c.post(`/projects/${pid}/releases/${draft.body.id}/rotate-slug`)).status).toBe(409);
  });

  test("interface §5 rule 7: rotating the project slug 404s every old URL of the project at once, latest included", async () => {
    const c = admin;
    const pid = await c.project("Rotate project", "en");
    await c.key(pid, "a", { en: "A" });
    const r1 = await publish(c, pid, "v1");
    const r2 = await publish(c, pid, "v2");
    const slug = await projectSlug(c, pid);
    const urls = [url(lang(r1, "en")), url(lang(r2, "en")), latestUrl(slug, "en")];
    for (const u of urls) expect((await fetch(u)).status).toBe(200);
    const rotated = await c.post(`/projects/${pid}/rotate-slug`);
    expect(rotated.status).toBe(200);
    for (const u of urls) expect((await fetch(u)).status).toBe(404);
    expect((await fetch(latestUrl(rotated.body.cdn_slug, "en"))).status).toBe(200);
  });

  test("product §3: deleting the latest release falls back to the previous one and removes its files; with none left latest is 404", async () => {
    const c = admin;
    const pid = await c.project("Delete", "en");
    const keyId = await c.key(pid, "v", { en: "one" });
    const r1 = await publish(c, pid, "v1");
    await c.put(`/projects/${pid}/keys/${keyId}/translations/en`, { value: "two" });
    const r2 = await publish(c, pid, "v2");
    const latest = latestUrl(await projectSlug(c, pid), "en");
    expect(await (await fetch(latest)).json()).toEqual({ v: "two" });
    const dir2 = join(t.dataDir, "releases", r2.id);
    expect(existsSync(dir2)).toBe(true);
    expect((await c.delete(`/projects/${pid}/releases/${r2.id}`)).status).toBe(204);
    expect(existsSync(dir2)).toBe(false);
    expect((await fetch(url(lang(r2, "en")))).status).toBe(404);
    expect(await (await fetch(latest)).json()).toEqual({ v: "one" });
    expect(t.query("SELECT 1 FROM outbox_events WHERE event = 'release_deleted' AND payload LIKE ?", `%${r2.id}%`).length).toBe(1);
    expect((await c.delete(`/projects/${pid}/releases/${r1.id}`)).status).toBe(204);
    const none = await fetch(latest);
    expect(none.status).toBe(404);
    expect(none.headers.get("cache-control")).toBe("no-store");
    expect(await none.json()).toEqual({ error: "not found" });
    expect(readdirSync(join(t.dataDir, "releases")).filter((d) => d === r1.id || d === r2.id)).toEqual([]);
  });
});
