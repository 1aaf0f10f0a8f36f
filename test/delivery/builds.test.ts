/**
 * App builds (docs/delivery.md "App builds"): a Flutter build's template registered, a placeholder
 * renamed in the next release: the build's files leave that message out (so the app keeps its
 * bundled string), the newest build's keep it; its manifest names its own files; unknown and
 * forgotten builds are 404.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILDS_KEPT } from "../../src/delivery/limits.ts";
import { backup } from "../../src/ops/backup.ts";
import { objectStore } from "../../src/targets/object-store.ts";
import { copyRelease } from "../../src/targets/replica-copies.ts";
import { ORIGIN } from "../helpers/app.ts";
import { cdnFixture, projectSlug, publish, type CdnFixture } from "../helpers/releases.ts";

let f: CdnFixture;
let pid: string;
let slug: string;

/** A gen-l10n template (docs/formats.md "ARB metadata"): `greeting` takes `name`, typed. */
function template(placeholder: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    "@@locale": "en",
    greeting: `Hello {${placeholder}}`,
    "@greeting": { placeholders: { [placeholder]: { type: "String" } } },
    itemCount: "{count, plural, one {# item} other {# items}}",
    "@itemCount": { placeholders: { count: { type: "int" } } },
    title: "Shop",
    ...extra,
  });
}
const german = (placeholder: string) => JSON.stringify({ "@@locale": "de", greeting: `Hallo {${placeholder}}`, itemCount: "{count, plural, one {# Artikel} other {# Artikel}}", title: "Laden" });

async function push(code: string, content: string): Promise<void> {
  const r = await f.admin.post(`/projects/${pid}/import`, { language_code: code, format: "arb", content });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
}
async function register(content: string, name: string): Promise<string> {
  const r = await f.admin.post(`/projects/${pid}/builds`, { name, files: [{ format: "arb", content }] });
  expect(r.status).toBe(201);
  return r.body.build_id;
}
const get = (path: string) => f.t.fetch(`${ORIGIN}/cdn/${path}`);

let oldBuild: string;
let newBuild: string;
let releaseSlug: string;

beforeAll(async () => {
  f = await cdnFixture();
  pid = (await f.admin.post("/projects", { name: "App", base_language_code: "en", message_syntax: "flutter" })).body.id;
  await f.admin.post(`/projects/${pid}/languages`, { code: "de" });
  slug = await projectSlug(f.admin, pid);
  await push("en", template("name"));
  await push("de", german("name"));
  await publish(f.admin, pid, "v1");
  oldBuild = await register(template("name"), "1.0 (412)");
  // The next release renames the placeholder; the app built from v1 calls greeting(name: ...).
  await push("en", template("user"));
  await push("de", german("user"));
  const v2 = await publish(f.admin, pid, "v2");
  releaseSlug = new URL(v2.languages[0].download_urls.json).pathname.split("/")[5]!;
  newBuild = await register(template("user"), "1.1 (413)");
});
afterAll(() => f.t.close());

describe("a build's view of a release (docs/delivery.md \"App builds\")", () => {
  test("the old build's ARB leaves out the message whose placeholder was renamed; the newest build's keeps it", async () => {
    expect(oldBuild).not.toBe(newBuild);
    for (const code of ["en", "de"]) {
      const old = await get(`p/${slug}/r/latest/b/${oldBuild}/${code}.arb`);
      expect(old.status).toBe(200);
      const oldArb = await old.json();
      expect(oldArb).not.toHaveProperty("greeting");
      expect(oldArb).not.toHaveProperty("@greeting");
      expect(oldArb).toHaveProperty("itemCount");
      expect(oldArb["@@locale"]).toBe(code);
      const fresh = await (await get(`p/${slug}/r/latest/b/${newBuild}/${code}.arb`)).json();
      expect(fresh.greeting).toContain("{user}");
      // The newest build loses nothing: its files are the release's own.
      const own = await (await get(`p/${slug}/r/${releaseSlug}/${code}.arb`)).text();
      expect(await (await get(`p/${slug}/r/latest/b/${newBuild}/${code}.arb`)).text()).toBe(own);
    }
    const json = await (await get(`p/${slug}/r/latest/b/${oldBuild}/de.json`)).json();
    expect(json).toEqual({ itemCount: "{count, plural, one {# Artikel} other {# Artikel}}", title: "Laden" });
    const yaml = await (await get(`p/${slug}/r/latest/b/${oldBuild}/de.yaml`)).text();
    expect(yaml).not.toContain("greeting");
    expect(yaml).toContain("title: Laden");
  });

  test("a placeholder's type changed in the template is left out too; a JSON build compares names only", async () => {
    const retyped = await register(template("user").replace('"type":"String"', '"type":"DateTime"'), "retyped");
    expect(await (await get(`p/${slug}/r/latest/b/${retyped}/en.arb`)).json()).not.toHaveProperty("greeting");
    const asJson = await f.admin.post(`/projects/${pid}/builds`, { files: [{ format: "json", content: JSON.stringify({ greeting: "Hello {user}", itemCount: "{count, plural, other {#}}", title: "T" }) }] });
    expect((await (await get(`p/${slug}/r/latest/b/${asJson.body.build_id}/en.json`)).json()).greeting).toBe("Hello {user}");
  });

  test("the build's manifest names its pinned build files with their own SHA-256; the list says what it leaves out", async () => {
    const res = await get(`p/${slug}/r/latest/b/${oldBuild}/manifest.json`);
    expect(res.status).toBe(200);
    const m = await res.json();
    expect(m.build_id).toBe(oldBuild);
    const entry = m.languages.de.files.json;
    expect(entry.url).toBe(`${ORIGIN}/cdn/p/${slug}/r/${releaseSlug}/b/${oldBuild}/de.json`);
    const bytes = new Uint8Array(await (await f.t.fetch(entry.url)).arrayBuffer());
    expect(entry.bytes).toBe(bytes.length);
    expect(entry.sha256).toBe(new Bun.CryptoHasher("sha256").update(bytes).digest("hex"));
    const plain = await (await get(`p/${slug}/r/latest/manifest.json`)).json();
    expect(m.sequence).toBe(plain.sequence);
    expect(entry.sha256).not.toBe(plain.languages.de.files.json.sha256);
    const sig = await (await get(`p/${slug}/r/latest/b/${oldBuild}/manifest.json.minisig`)).text();
    expect(sig).toContain(`path=p/${slug}/r/latest/b/${oldBuild}/manifest.json`);
    const list = (await f.admin.get(`/projects/${pid}/builds`)).body.items;
    expect(list.find((b: any) => b.build_id === oldBuild).left_out).toBe(1);
    expect(list.find((b: any) => b.build_id === newBuild).left_out).toBe(0);
  });

  test("an unknown build is 404; past the 50 most recently registered, the oldest is forgotten (404)", async () => {
    expect((await get(`p/${slug}/r/latest/b/0123456789abcdef/en.json`)).status).toBe(404);
    expect((await get(`p/${slug}/r/latest/b/0123456789abcdef/manifest.json`)).status).toBe(404);
    for (let i = 0; i < BUILDS_KEPT; i++) await register(template("user", { [`extra${i}`]: "x" }), `filler ${i}`);
    expect((await get(`p/${slug}/r/latest/b/${oldBuild}/en.json`)).status).toBe(404);
    expect((await f.admin.get(`/projects/${pid}/builds`)).body.items).toHaveLength(BUILDS_KEPT);
    // Registered again, it is made again (its files were removed with it).
    expect(await register(template("name"), "1.0 again")).toBe(oldBuild);
    const again = await get(`p/${slug}/r/latest/b/${oldBuild}/en.arb`);
    expect(again.status).toBe(200);
    expect(await again.json()).not.toHaveProperty("greeting");
  });

  test("a backup and a replica's copy of a release leave its builds' files out (made again on request)", async () => {
    const id = f.t.query<{ public_id: string }>("SELECT public_id FROM releases WHERE slug = ?", releaseSlug)[0]!.public_id;
    const buildId = await register(template("name"), "1.0");
    expect((await get(`p/${slug}/r/${releaseSlug}/b/${buildId}/de.json`)).status).toBe(200);
    expect(require("node:fs").existsSync(join(f.t.dataDir, "releases", id, "b", buildId, "de.json"))).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), "phrasebook-build-copies-"));
    try {
      const summary = await backup(f.t.dataDir, join(dir, "backup.tar"));
      expect(summary.missing).toEqual([]);
      const listed = Bun.spawnSync(["tar", "-tf", join(dir, "backup.tar")]).stdout.toString();
      expect(listed).toContain(`releases/${id}/de.json`);
      expect(listed).not.toContain(`releases/${id}/b/`);
      const copied = await copyRelease(objectStore({ kind: "folder", path: join(dir, "replica") }), id, join(f.t.dataDir, "releases", id));
      expect(copied.files).toBe(6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a web app's build in an i18next project (docs/delivery.md \"App builds\", docs/messages.md \"i18next plural forms\")", () => {
  test("the forms a language has beyond the base file's (Russian items_few, items_many) go with their group", async () => {
    const web = (await f.admin.post("/projects", { name: "Web", base_language_code: "en", message_syntax: "i18next" })).body.id;
    await f.admin.post(`/projects/${web}/languages`, { code: "ru" });
    const webSlug = await projectSlug(f.admin, web);
    const en = { items_one: "{{count}} item", items_other: "{{count}} items", promo_one: "{{count}} deal", promo_other: "{{count}} deals", title: "Shop" };
    const ru = {
      items_one: "{{count}} товар", items_few: "{{count}} товара", items_many: "{{count}} товаров", items_other: "{{count}} товара",
      promo_one: "{{count}} скидка", promo_few: "{{count}} скидки", promo_many: "{{count}} скидок", promo_other: "{{count}} скидки",
      title: "Магазин",
    };
    for (const [code, values] of [["en", en], ["ru", ru]] as const) {
      const r = await f.admin.post(`/projects/${web}/import`, { language_code: code, format: "json", content: JSON.stringify(values) });
      expect(r.status).toBe(200);
    }
    await publish(f.admin, web, "v1");
    // The app's build was made before `promo` existed: its base file has items and title only.
    const build = await f.admin.post(`/projects/${web}/builds`, { name: "web 2026.11", files: [{ format: "json", content: JSON.stringify({ items_one: "{{count}} item", items_other: "{{count}} items", title: "Shop" }) }] });
    expect(build.status).toBe(201);
    const file = await get(`p/${webSlug}/r/latest/b/${build.body.build_id}/ru.json`);
    expect(file.status).toBe(200);
    expect(await file.json()).toEqual({ items_few: ru.items_few, items_many: ru.items_many, items_one: ru.items_one, items_other: ru.items_other, title: ru.title });
    expect(await (await get(`p/${webSlug}/r/latest/b/${build.body.build_id}/en.json`)).json()).toEqual({ items_one: en.items_one, items_other: en.items_other, title: en.title });
  });
});
