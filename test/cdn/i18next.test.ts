/**
 * interface §1, §4.5: a real client library loads bundles from the `latest` path. i18next-http-backend
 * runs its own request code (URL building, headers, status handling, parsing); only the transport
 * is swapped through its `alternateFetch` option, so its requests reach the app in-process.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import i18next from "i18next";
import HttpBackend from "i18next-http-backend";
import { ORIGIN } from "../helpers/app.ts";
import { cdnFixture, importJson, projectSlug, publish, type CdnFixture } from "../helpers/releases.ts";

let h: CdnFixture;
beforeAll(async () => {
  h = await cdnFixture();
});
afterAll(async () => {
  await h.t.close();
});

test("interface §1 / interface §4.5: a real client (i18next + i18next-http-backend) loads two languages from the latest path and translates", async () => {
  const c = h.admin;
  const pid = await c.project("i18next app", "en", ["de"]);
  // i18next's {{name}} is not ICU: the project checks its messages as plain text (product §7).
  expect((await c.patch(`/projects/${pid}`, { message_syntax: "text" })).status).toBe(200);
  // Flat keys with dots, as the JSON bundle ships them (interface §2.6); i18next is told not to nest.
  await importJson(c, pid, "en", { "home.title": "Welcome, {{name}}!", "cart.count_one": "{{count}} item", "cart.count_other": "{{count}} items" });
  await importJson(c, pid, "de", { "home.title": "Willkommen, {{name}}!", "cart.count_one": "{{count}} Artikel", "cart.count_other": "{{count}} Artikel" });
  await publish(c, pid, "v1");
  const slug = await projectSlug(c, pid);

  const requested: string[] = [];
  const i18n = i18next.createInstance();
  await i18n.use(HttpBackend).init({
    lng: "de",
    fallbackLng: "en",
    preload: ["en", "de"],
    keySeparator: false,
    backend: {
      loadPath: `${ORIGIN}/cdn/p/${slug}/r/latest/{{lng}}.json`,
      reloadInterval: false,
      alternateFetch: (url: string, options: RequestInit) => {
        requested.push(url);
        return h.t.fetch(url, options);
      },
    },
  });
  expect(requested.sort()).toEqual([`${ORIGIN}/cdn/p/${slug}/r/latest/de.json`, `${ORIGIN}/cdn/p/${slug}/r/latest/en.json`]);
  expect(i18n.hasResourceBundle("de", "translation")).toBe(true);
  expect(i18n.hasResourceBundle("en", "translation")).toBe(true);
  expect(i18n.t("home.title", { name: "Ada" })).toBe("Willkommen, Ada!");
  expect(i18n.t("cart.count", { count: 3 })).toBe("3 Artikel");
  await i18n.changeLanguage("en");
  expect(i18n.t("home.title", { name: "Ada" })).toBe("Welcome, Ada!");
  expect(i18n.t("cart.count", { count: 1 })).toBe("1 item");
  expect(i18n.t("cart.count", { count: 2 })).toBe("2 items");
});
