/**
 * The dashboard's export of a release in a bundle format (docs/formats.md "Export"): the release's
 * own file, as the CDN serves it. The ARB export was built from the JSON and the base language's
 * ARB and lacked the placeholder attributes the CDN `.arb` carries (a template's `type`, `format`,
 * `example`; the placeholders inferred for keys made in the dashboard).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { publish } from "../helpers/releases.ts";

let t: TestApp;
let admin: DashboardClient;
beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
});
afterAll(() => t.close());

test("the ARB, JSON and YAML exports of a release are its CDN files, byte for byte", async () => {
  const pid = await admin.project("Export ARB", "en", ["de"]);
  const template = {
    "@@locale": "en",
    greeting: "Hello {name}, you have {count, plural, one {# message} other {# messages}}",
    "@greeting": { description: "Home", placeholders: { name: { type: "String", example: "Ada" }, count: { type: "int", format: "compact" } } },
    due: "Due {date}",
    "@due": { placeholders: { date: { type: "DateTime", format: "yMd" } } },
  };
  expect((await admin.post(`/projects/${pid}/import`, { format: "arb", language_code: "en", content: JSON.stringify(template) })).status).toBe(200);
  await admin.post(`/projects/${pid}/import`, { format: "arb", language_code: "de", content: JSON.stringify({ "@@locale": "de", greeting: "Hallo {name}, du hast {count, plural, one {# Nachricht} other {# Nachrichten}}", due: "Fällig {date}" }) });
  // A key made in the dashboard: its placeholders are inferred from each language's value.
  await admin.key(pid, "made.here", { en: "Bye {who}", de: "Tschüss {who}" });
  const release = await publish(admin, pid, "v1");
  for (const code of ["en", "de"]) {
    const urls = release.languages.find((l: any) => l.code === code).download_urls;
    for (const format of ["arb", "json", "yaml"]) {
      const cdn = await (await t.fetch(urls[format])).text();
      const r = await admin.download(`/projects/${pid}/releases/${release.id}/export?format=${format}&language=${code}`);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-disposition")).toBe(`attachment; filename="Export-ARB-v1-${code}.${format}"`);
      expect(r.text, `${code}.${format}`).toBe(cdn);
    }
    const arb = JSON.parse((await admin.download(`/projects/${pid}/releases/${release.id}/export?format=arb&language=${code}`)).text);
    expect(arb["@greeting"].placeholders.count).toEqual({ type: "int", format: "compact" });
    expect(arb["@madeHere"]).toEqual({ placeholders: { who: {} } });
  }
});
