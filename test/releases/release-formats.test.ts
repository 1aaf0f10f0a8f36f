/**
 * A release records the formats it shipped (docs/formats.md "What a release records"), in-process:
 * publishing records the registry's bundle formats, `download_urls` of both APIs list exactly the
 * recorded ones, and the CDN serves a release's file only in a format it recorded (404 otherwise,
 * as for a language it did not ship, interface §4.5 rules 1-2). The import takes every format of
 * the registry.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { compareCodePoints } from "../../src/common/text.ts";
import { readMessage } from "../../src/messages/read.ts";
import { BUNDLE_FORMATS, FORMATS } from "../../src/formats/registry.ts";
import { keyTexts, languageTexts } from "../../src/formats/texts.ts";
import { ORIGIN } from "../helpers/app.ts";
import { appFixture, draft, newToken, publish, published, type AppFixture } from "../public-api/api-client.ts";

let f: AppFixture;
let pid: string;
let slug: string;
let token: string;

beforeAll(async () => {
  f = await appFixture();
  pid = await f.dash.project("Formats", "en", ["de"]);
  await f.dash.key(pid, "hello", { en: "Hello", de: "Hallo" });
  slug = (await f.dash.get(`/projects/${pid}`)).body.cdn_slug;
  token = await newToken(f.dash, pid);
});
afterAll(async () => {
  await f.t.close();
});

const recorded = (rid: string) => JSON.parse(f.t.query<{ formats: string }>("SELECT formats FROM releases WHERE public_id = ?", rid)[0]!.formats);
/** The public API's detail as sent (not through the checking client: one test makes a release the model does not describe). */
const apiDetail = async (rid: string) => (await f.t.fetch(`/v1/releases/${rid}`, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<any>;
const cdn = (release: string, file: string) => f.t.fetch(`${ORIGIN}/cdn/p/${slug}/r/${release}/${file}`);

describe("a release records the formats it shipped (docs/formats.md)", () => {
  test("publishing records the registry's bundle formats; a draft records none", async () => {
    const rid = await draft(f.dash, pid, "Draft", "v-draft");
    expect(recorded(rid)).toEqual([]);
    await publish(f.dash, pid, rid);
    expect(recorded(rid)).toEqual([...BUNDLE_FORMATS]);
  });

  test("interface §2.3: download_urls of both APIs list exactly the recorded formats, each served with its format's content type", async () => {
    const rid = await published(f.dash, pid, "Every format", "v-every");
    const dashboard = (await f.dash.get(`/projects/${pid}/releases/${rid}`)).body;
    const api = await f.api.get(`/v1/releases/${rid}`, token); // checked against the OpenAPI document
    expect(api.status).toBe(200);
    for (const detail of [dashboard, api.body]) {
      for (const language of detail.languages) {
        expect(Object.keys(language.download_urls)).toEqual([...BUNDLE_FORMATS]);
        for (const format of FORMATS.filter((x) => x.bundle)) {
          const res = await f.t.fetch(language.download_urls[format.name]);
          expect(res.status, `${language.code}.${format.name}`).toBe(200);
          expect(res.headers.get("content-type")).toBe(format.contentType);
        }
      }
    }
  });

  test("interface §4.5 rules 1-2: a format the release did not record is 404, pinned and latest, and absent from download_urls", async () => {
    const older = await published(f.dash, pid, "Older", "v-older");
    const newer = await published(f.dash, pid, "Newer", "v-newer");
    // A release published while YAML was no bundle format: its record lacks it (its file was
    // written all the same, so only the record can keep it from being served).
    f.t.query("UPDATE releases SET formats = ? WHERE public_id = ?", JSON.stringify(["json", "arb"]), newer);
    const newSlug = (await f.dash.get(`/projects/${pid}/releases/${newer}`)).body.slug;
    const oldSlug = (await f.dash.get(`/projects/${pid}/releases/${older}`)).body.slug;

    for (const release of [newSlug, "latest"]) {
      const res = await cdn(release, "de.yaml");
      expect(res.status, release).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    // The older release recorded yaml and still serves it; latest is the newer one for every format.
    expect((await cdn(oldSlug, "de.yaml")).status).toBe(200);
    for (const file of ["de.json", "de.arb"]) expect((await cdn(newSlug, file)).status).toBe(200);
    expect((await (await cdn("latest", "de.arb")).text())).toBe(await (await cdn(newSlug, "de.arb")).text());

    const dashboard = (await f.dash.get(`/projects/${pid}/releases/${newer}`)).body;
    const api = await apiDetail(newer);
    for (const detail of [dashboard, api]) {
      for (const language of detail.languages) expect(Object.keys(language.download_urls)).toEqual(["json", "arb"]);
    }
  });

  test("product §4: the import takes every format of the registry by name, and refuses another naming the field", async () => {
    const keys = ["bye", "welcome"].sort(compareCodePoints);
    for (const format of FORMATS) {
      const project = await f.dash.project(`Import ${format.name}`, "en", ["de"]);
      // A .stringsdict holds plurals only (docs/formats.md "Apple"), in the forms of the language.
      const values = keys.map((k) => (format.name === "stringsdict" ? `{count, plural, one {%d ${k}} other {%d ${k}s}}` : `${k} (${format.name})`));
      const content = format.write({ keys: keyTexts({ keys, contexts: new Map() }), languages: [languageTexts({ code: "de", values })], argumentsOf: (value) => readMessage(value, "icu").arguments });
      const r = await f.dash.post(`/projects/${project}/import`, { language_code: "de", format: format.name, content });
      expect(r.status, `${format.name}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body.created_keys).toBe(keys.length);
      const stored = (await f.dash.get(`/projects/${project}/keys`)).body.items.map((k: any) => [k.key, k.translations.de?.value]);
      expect(stored).toEqual(keys.map((k, i) => [k, values[i]]));
    }
    const refused = await f.dash.post(`/projects/${pid}/import`, { language_code: "de", format: "xml", content: "{}" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('"format"');
  });
});
