import { afterAll, beforeAll, expect, test } from "bun:test";
import i18next from "i18next";
import HttpBackend from "i18next-http-backend";
import { harness, importJson, projectSlug, publish, type Harness } from "../publish/fixtures.ts";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h.server.stop();
});

test("spec 1 / spec 4.5: a real client (i18next + i18next-http-backend) loads two languages from the latest path and translates", async () => {
  const c = h.admin;
  const pid = await c.project("i18next app", "en", ["de"]);
  // Flat keys with dots, as the JSON bundle ships them (spec 2.6); i18next is told not to nest.
  await importJson(c, pid, "en", { "home.title": "Welcome, {{name}}!", "cart.count_one": "{{count}} item", "cart.count_other": "{{count}} items" });
  await importJson(c, pid, "de", { "home.title": "Willkommen, {{name}}!", "cart.count_one": "{{count}} Artikel", "cart.count_other": "{{count}} Artikel" });
  await publish(c, pid, "v1");
  const slug = await projectSlug(c, pid);

  const i18n = i18next.createInstance();
  // The backend's own HTTP code (it uses the global fetch), exactly as an app would run it.
  await i18n.use(HttpBackend).init({
    lng: "de",
    fallbackLng: "en",
    preload: ["en", "de"],
    keySeparator: false,
    backend: { loadPath: `${h.server.url}/cdn/p/${slug}/r/latest/{{lng}}.json` },
  });
  expect(i18n.hasResourceBundle("de", "translation")).toBe(true);
  expect(i18n.hasResourceBundle("en", "translation")).toBe(true);
  expect(i18n.t("home.title", { name: "Ada" })).toBe("Willkommen, Ada!");
  expect(i18n.t("cart.count", { count: 3 })).toBe("3 Artikel");
  await i18n.changeLanguage("en");
  expect(i18n.t("home.title", { name: "Ada" })).toBe("Welcome, Ada!");
  expect(i18n.t("cart.count", { count: 1 })).toBe("1 item");
  expect(i18n.t("cart.count", { count: 2 })).toBe("2 items");
});
