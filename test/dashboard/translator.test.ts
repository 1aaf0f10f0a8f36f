/**
 * A translator's day in a Flutter team (docs/dashboard.md "Editing in the project's syntax",
 * "Roles"), in Chromium at 1280 and 390 px: a `translator (de)` of a `flutter` project sees no
 * control their role lacks (adding keys, imports, approving, the English column, settings,
 * tokens) and no shortcut of one writes anything; a key the base file marks not to translate is
 * not "missing"; the base text shows its apostrophes; what they type (`Rechercher « {query} »`,
 * `Commande d'{date}`) is stored as typed, publishes, and the CDN's ARB read as gen-l10n reads it
 * (the project's own flutter reading with intl-messageformat) shows exactly that. Screenshots of
 * each state go to a temp dir named in the output.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { IntlMessageFormat } from "intl-messageformat";
import type { Page } from "playwright-core";
import { readMessage } from "../../src/messages/read.ts";
import { lang, publish } from "../helpers/releases.ts";
import { tempDir } from "../helpers/server.ts";
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, eventually, gridCell, horizontalOverflow, PHONE, useDashboard } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const f = useDashboard();
const shots = tempDir("phrasebook-translator-shots-");
const TRANSLATOR = { email: "tina@example.test", password: "tina-password" };

/** A gen-l10n template: two messages per viewport, in key order, and their declared placeholders. */
const TEMPLATE = {
  "@@locale": "en",
  a1Search: "Search for '{query}'",
  "@a1Search": { placeholders: { query: { type: "String" } } },
  a2Order: "Order of {date}",
  "@a2Order": { placeholders: { date: { type: "String" } } },
  b1Search: "Search for '{query}'",
  "@b1Search": { placeholders: { query: { type: "String" } } },
  b2Order: "Order of {date}",
  "@b2Order": { placeholders: { date: { type: "String" } } },
  c1Done: "Done",
};

let pid: string;

beforeAll(async () => {
  const created = await f.api.post("/projects", { name: "Flutter shop", base_language_code: "en", message_syntax: "flutter" });
  pid = created.body.id;
  expect((await f.api.post(`/projects/${pid}/languages`, { code: "de" })).status).toBe(201);
  expect((await f.api.post(`/projects/${pid}/import`, { language_code: "en", format: "arb", content: JSON.stringify(TEMPLATE) })).status).toBe(200);
  const android = '<resources><string name="brand" translatable="false">Shop</string></resources>';
  expect((await f.api.post(`/projects/${pid}/import`, { language_code: "en", format: "android", content: android })).status).toBe(200);
  const done = await translation("c1Done");
  expect((await f.api.put(`/projects/${pid}/keys/${done.id}/translations/de`, { value: "Fertig" })).status).toBe(200);
  const tina = await f.api.post("/users", { email: TRANSLATOR.email, name: "Tina", password: TRANSLATOR.password, role: "member" });
  expect((await f.api.put(`/projects/${pid}/members/${tina.body.id}`, { role: "translator", languages: ["de"] })).status).toBe(200);
});

async function translation(key: string): Promise<{ id: string; de?: { value: string; status: string; problems: unknown[] } }> {
  const items = (await f.api.get(`/projects/${pid}/keys?search=${encodeURIComponent(key)}&page_size=100`)).body.items as { id: string; key: string; translations: Record<string, any> }[];
  const item = items.find((i) => i.key === key)!;
  return { id: item.id, de: item.translations.de };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

/** Types into the focused field one key at a time, as a person does (a `{name}` becomes a chip as it is completed). */
async function typeInto(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text, { delay: 5 });
}

for (const viewport of [DESKTOP, PHONE]) {
  const [search, order] = viewport === DESKTOP ? ["a1Search", "a2Order"] : ["b1Search", "b2Order"];
  describe(`a translator (de) in a flutter project at ${viewport.width} px`, () => {
    test("the key grid shows only what the role may do; a not-translatable key is not missing", async () => {
      const { page, problems } = await f.page(viewport, TRANSLATOR.email, TRANSLATOR.password);
      await page.goto(`/dashboard/projects/${pid}/keys`);
      await gridCell(page, "de", "a1Search").waitFor();
      await shot(page, `${viewport.width}-grid`);
      expect(await page.getByRole("button", { name: "Add key" }).count()).toBe(0);
      expect(await page.getByRole("link", { name: "Import file…" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: /^Approve/ }).count()).toBe(0);
      expect(await page.getByRole("button", { name: /^Edit key/ }).count()).toBe(0);
      expect(await page.getByRole("link", { name: "Settings" }).count()).toBe(0);
      expect(await page.getByRole("link", { name: "API tokens" }).count()).toBe(0);
      // The English column is the source: shown, not editable; German is.
      expect(await gridCell(page, "en", "a1Search").getAttribute("readonly")).not.toBeNull();
      expect(await gridCell(page, "de", "a1Search").getAttribute("readonly")).toBeNull();
      const brand = page.locator("td.cell", { has: gridCell(page, "de", "brand") });
      expect(await brand.locator(".cell-status").textContent()).toBe("not translatable");
      expect(await brand.getAttribute("class")).not.toContain("missing");
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(problems).toEqual([]);
    });

    test("types the French-style German strings in flutter syntax: stored as typed, no problem, no approval", async () => {
      const { page, problems } = await f.page(viewport, TRANSLATOR.email, TRANSLATOR.password);
      await page.goto(`/dashboard/projects/${pid}/translate?lang=de&status=missing`);
      const key = page.locator(".translate h2 code.key");
      await key.waitFor();
      expect(await key.textContent()).toBe(search);
      // The base text as the app shows it: gen-l10n keeps the apostrophes around the placeholder.
      expect(await page.locator(".base-text").innerText()).toBe("Search for 'query'");
      expect(await page.getByRole("button", { name: /^Approve/ }).count()).toBe(0);
      expect(await page.locator(".shortcuts").innerText()).not.toContain("approve");
      await shot(page, `${viewport.width}-translate-empty`);
      await typeInto(page, "Rechercher « {query} »");
      expect(await page.locator(".target .run .ph").count()).toBe(1);
      await shot(page, `${viewport.width}-translate-typed`);
      await page.keyboard.press("Control+Enter");
      await eventually(async () => ((await key.textContent()) === order ? true : undefined));
      await typeInto(page, "Commande d'{date}");
      // Ctrl+Shift+Enter is a reviewer's: it saves nothing and approves nothing. A save would
      // start its request while the key is handled; the page answering after it shows none did.
      const writes: string[] = [];
      page.on("request", (r) => void (r.method() !== "GET" && r.url().includes("/dashboard/api/") && writes.push(`${r.method()} ${r.url()}`)));
      await page.keyboard.press("Control+Shift+Enter");
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
      expect(writes).toEqual([]);
      expect(await key.textContent()).toBe(order);
      expect(await page.locator(".translate-head").innerText()).toContain("unsaved changes");
      await page.keyboard.press("Control+Enter");
      // The next missing key, or none left.
      await page.locator(".translate-stage .empty, .translate h2 code.key:not(:text-is('" + order + "'))").first().waitFor();
      expect(writes.filter((w) => w.includes("/approve"))).toEqual([]);
      await shot(page, `${viewport.width}-translate-done`);
      expect((await translation(search)).de).toMatchObject({ value: "Rechercher « {query} »", status: "translated", problems: [] });
      expect((await translation(order)).de).toMatchObject({ value: "Commande d'{date}", status: "translated", problems: [] });
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(problems).toEqual([]);
    });

    test("the filter \"All keys\" reads as such, and the English source is shown, not edited", async () => {
      const { page } = await f.page(viewport, TRANSLATOR.email, TRANSLATOR.password);
      await page.goto(`/dashboard/projects/${pid}/translate?lang=de&status=missing`);
      await page.locator(".translate h2 code.key, .translate-stage .empty").first().waitFor();
      await page.getByLabel("Keys").selectOption({ label: "All keys" });
      await page.waitForURL(/status=(&|$)/);
      await page.locator(".translate h2 code.key").waitFor();
      expect(await page.getByLabel("Keys").evaluate((s: HTMLSelectElement) => s.selectedOptions[0]!.textContent)).toBe("All keys");
      // The count arrives after the keys (its own request): wait for it, then read it.
      await page.locator(".translate-meta p:not(:empty)").waitFor();
      expect(await page.locator(".translate-meta p").innerText()).toMatch(/^\d+ keys$/);
      await page.goto(`/dashboard/projects/${pid}/translate?lang=en&status=`);
      await page.locator(".translate h2 code.key").waitFor();
      expect(await page.locator(".target .run").first().getAttribute("contenteditable")).toBe("false");
      expect(await page.getByRole("button", { name: /^Save and next/ }).count()).toBe(0);
      await shot(page, `${viewport.width}-translate-source-readonly`);
    });
  });
}

describe("published and read as gen-l10n reads it", () => {
  test("the CDN ARB shows what the translator typed", async () => {
    const release = await publish(f.api, pid, "v1.0.0");
    const res = await fetch(lang(release, "de").download_urls.arb);
    expect(res.status).toBe(200);
    const arb = (await res.json()) as Record<string, string>;
    const values = Object.entries(arb).filter(([k]) => !k.startsWith("@"));
    const shown = (value: string) => String(new IntlMessageFormat(value.replaceAll("'", "''"), "de").format({ query: "Paris", date: "12.03." }));
    const typed = values.filter(([, v]) => v.startsWith("Rechercher") || v.startsWith("Commande"));
    expect(typed.length).toBe(4);
    for (const [, value] of typed) {
      expect(readMessage(value, "flutter").fault).toBeNull();
      expect(["Rechercher « Paris »", "Commande d'12.03."]).toContain(shown(value));
    }
    console.log(`translator screenshots: ${shots}`);
  });
});
