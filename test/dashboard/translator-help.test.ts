/**
 * Help for translators on the translate page (docs/translators.md "Context while translating"), in
 * Chromium at 1280 and 390 px, as a `translator (de)`: the suggestion from the memory used with
 * one key (Ctrl+Shift+1) and saved; the glossary's term marked in the base text with its German
 * translation; a comment written (Ctrl+Enter) and resolved; the screenshot with the key's box
 * where the string is; "Copy source" with Ctrl+Shift+0. The one more language is one the person
 * may read: a `translator (de)` is offered none (French is not theirs to read before it is
 * published, docs/dashboard-api.md "Access"); once their role covers French too it is chosen, and
 * kept on the next visit. One person per viewport: the memory reads every project a person may
 * read, so the other viewport's saved translation would be their exact match. Screenshots of each
 * state go to a temp dir named in the output.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { tempDir } from "../helpers/server.ts";
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, eventually, horizontalOverflow, PHONE, useDashboard } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const f = useDashboard();
const shots = tempDir("phrasebook-translator-help-shots-");
const PNG = new Uint8Array(readFileSync(new URL("../fixtures/screenshots/cart.png", import.meta.url)));
/** Where cart.png (320 x 200) shows "Your cart is empty". */
const BOX = { x: 80, y: 100, width: 160, height: 30 };

/** A project of its own per viewport: en base, de and fr; the key to translate, one like it translated, a term, a screenshot. */
async function arrange(width: number): Promise<{ pid: string; keyId: string; translator: { id: string; email: string; password: string } }> {
  const translator = { email: `tomas-${width}@example.test`, password: "tomas-password" };
  const user = await f.api.post("/users", { ...translator, name: "Tomas", role: "member" });
  expect(user.status).toBe(201);
  const pid = await f.api.project(`Shop ${width}`, "en", ["de", "fr"]);
  await f.api.key(pid, "basket.empty", { en: "Your cart is empty.", de: "Dein Warenkorb ist leer." });
  const keyId = await f.api.key(pid, "cart.empty", { en: "Your cart is empty", fr: "Votre panier est vide" });
  await f.api.key(pid, "cart.title", { en: "Cart", de: "Warenkorb" });
  expect((await f.api.post(`/projects/${pid}/glossary`, { term: "cart", translations: { de: "Warenkorb", fr: "panier" } })).status).toBe(201);
  const shot = await f.api.upload("POST", `/projects/${pid}/screenshots?name=cart`, PNG, "image/png");
  expect(shot.status).toBe(201);
  expect((await f.api.put(`/projects/${pid}/screenshots/${shot.body.id}/keys`, { keys: [{ key: "cart.empty", box: BOX }] })).status).toBe(200);
  expect((await f.api.put(`/projects/${pid}/members/${user.body.id}`, { role: "translator", languages: ["de"] })).status).toBe(200);
  return { pid, keyId, translator: { id: user.body.id, ...translator } };
}

afterAll(() => console.log(`translator help screenshots: ${shots}`));

async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

for (const viewport of [DESKTOP, PHONE]) {
  describe(`a translator (de) with help at ${viewport.width} px`, () => {
    test("uses a suggestion with one key, sees the term marked, comments and resolves, sees the key on its screenshot, reads French beside once it may", async () => {
      const { pid, keyId, translator } = await arrange(viewport.width);
      const { page, problems } = await f.page(viewport, translator.email, translator.password);
      await page.goto(`/dashboard/projects/${pid}/translate?lang=de&status=missing`);
      await page.locator(".translate h2 code.key").getByText("cart.empty").waitFor();

      // The glossary's term, marked where it stands, its German translation as its title.
      const term = page.locator(".base-text mark.term");
      expect(await term.textContent()).toBe("cart");
      expect(await term.getAttribute("title")).toBe("German: Warenkorb");
      expect(await page.locator(".help.glossary").innerText()).toContain("cart → Warenkorb");

      // The suggestion from the key like it, with its score and where it comes from.
      const suggestion = page.locator(".suggestion").first();
      await suggestion.waitFor();
      expect(await suggestion.locator(".suggestion-value").textContent()).toBe("Dein Warenkorb ist leer.");
      expect(await suggestion.locator(".badge").textContent()).toMatch(/^9\d%$/);
      expect(await suggestion.innerText()).toContain("basket.empty · Shop");

      // The screenshot, with the key's box where the string is (in the image's proportions).
      const frame = page.locator(".help.screenshots .shot-frame");
      await frame.locator("img").evaluate((img: HTMLImageElement) => (img.complete ? null : new Promise((r) => (img.onload = r))));
      const [outer, box] = await Promise.all([frame.locator("img").boundingBox(), frame.locator(".shot-box").boundingBox()]);
      const scale = outer!.width / 320;
      expect(Math.abs(box!.x - outer!.x - BOX.x * scale)).toBeLessThan(2);
      expect(Math.abs(box!.y - outer!.y - BOX.y * scale)).toBeLessThan(2);
      expect(Math.abs(box!.width - BOX.width * scale)).toBeLessThan(2);
      await snap(page, `${viewport.width}-1-help`);

      // Ctrl+Shift+1 puts the first suggestion in the editor; Ctrl+Enter saves it as typed.
      await page.keyboard.press("Control+Shift+Digit1");
      expect(await page.locator(".target .run").first().innerText()).toBe("Dein Warenkorb ist leer.");
      expect(await page.locator(".translate-head").innerText()).toContain("unsaved changes");
      await snap(page, `${viewport.width}-2-suggestion-used`);
      await page.keyboard.press("Control+Enter");
      await page.locator(".translate h2 code.key").getByText("cart.empty").waitFor({ state: "detached" });
      const saved = (await f.api.get(`/projects/${pid}/keys/${keyId}`)).body.translations.de;
      expect(saved).toMatchObject({ value: "Dein Warenkorb ist leer.", status: "translated", problems: [] });

      // Back to it: a comment about German, written with Ctrl+Enter (not the card's save), then resolved.
      await page.goto(`/dashboard/projects/${pid}/translate?lang=de&status=&q=cart.empty`);
      await page.locator(".translate h2 code.key").getByText("cart.empty").waitFor();
      const comment = page.getByLabel("Comment on cart.empty");
      await comment.fill("Is this the cart page or the mini cart?");
      await comment.press("Control+Enter");
      const written = page.locator(".comment:not(.resolved)");
      await written.waitFor();
      expect(await written.locator(".comment-body").textContent()).toBe("Is this the cart page or the mini cart?");
      expect(await written.innerText()).toContain("Tomas · de");
      expect((await f.api.get(`/projects/${pid}/keys/${keyId}`)).body.open_comments).toBe(1);
      await snap(page, `${viewport.width}-3-comment`);
      await written.getByRole("button", { name: "Resolve" }).click();
      await page.locator(".comment.resolved").waitFor();
      expect((await f.api.get(`/projects/${pid}/keys/${keyId}`)).body.open_comments).toBe(0);
      await snap(page, `${viewport.width}-4-resolved`);

      // French is not a translator (de)'s to read: not offered. Once their role covers it, it is.
      const options = () => page.getByLabel("Also show").locator("option").allTextContents();
      expect(await options()).toEqual(["no other language"]);
      expect((await f.api.put(`/projects/${pid}/members/${translator.id}`, { role: "translator", languages: ["de", "fr"] })).status).toBe(200);
      await page.reload();
      await page.locator(".translate h2 code.key").waitFor();
      expect(await options()).toEqual(["no other language", "fr · French"]);
      await page.getByLabel("Also show").selectOption("fr");
      await page.waitForURL(/ref=fr/);
      const reference = page.locator(".help.reference");
      expect(await reference.locator(".reference-value").textContent()).toBe("Votre panier est vide");
      await snap(page, `${viewport.width}-5-reference`);
      await page.goto(`/dashboard/projects/${pid}/translate?lang=de&status=&q=cart.empty`);
      await page.locator(".translate h2 code.key").waitFor();
      expect(await page.getByLabel("Also show").inputValue()).toBe("fr");
      expect(await reference.locator(".reference-value").textContent()).toBe("Votre panier est vide");

      // Ctrl+Shift+0 copies the source into the editor.
      await page.locator(".target .run").first().waitFor();
      await page.keyboard.press("Control+Shift+Digit0");
      await eventually(async () => ((await page.locator(".target .run").first().innerText()) === "Your cart is empty" ? true : undefined));

      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(problems).toEqual([]);
    });
  });
}

describe("what a translator may not do with the help", () => {
  test("a viewer sees suggestions, screenshots and comments but no Use button or comment form", async () => {
    const pid = await f.api.project("Read only", "en", ["de"]);
    await f.api.key(pid, "a.done", { en: "Done", de: "Fertig" });
    await f.api.key(pid, "b.done", { en: "Done" });
    const reader = await f.api.post("/users", { email: "rita@example.test", name: "Rita", password: "rita-password", role: "member" });
    expect((await f.api.put(`/projects/${pid}/members/${reader.body.id}`, { role: "viewer" })).status).toBe(200);
    const { page, problems } = await f.page(DESKTOP, "rita@example.test", "rita-password");
    await page.goto(`/dashboard/projects/${pid}/translate?lang=de&status=missing`);
    await page.locator(".suggestion").waitFor();
    expect(await page.locator(".suggestion button").count()).toBe(0);
    expect(await page.locator(".help.comments").innerText()).toContain("No comments.");
    expect(await page.locator(".comment-form").count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Copy source/ }).count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
