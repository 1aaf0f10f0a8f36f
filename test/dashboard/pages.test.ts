/**
 * The dashboard (docs/dashboard.md): every page works at 1280 px and at 390 px wide with no
 * sideways scrolling, console errors or requests to another origin; forms work from the keyboard
 * alone; empty states say what to do; a failed load says what failed where it happened.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, gridCell, horizontalOverflow, openPage, PHONE, useDashboard } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const f = useDashboard();
let paths: string[] = [];

beforeAll(async () => {
  const pid = await f.api.project("Everything", "en", ["de", "pt-BR"]);
  await f.api.key(pid, "a.rather.long.key.name.for.checking.layout", { en: "A long sentence, to see how cells wrap on narrow screens.", de: "Ein langer Satz." }, "Some context");
  await f.api.key(pid, "count", { en: "{count, plural, one {# item} other {# items}}" });
  const rid = (await f.api.post(`/projects/${pid}/releases`, { name: "First", tag: "v1.0.0" })).body.id;
  await f.api.post(`/projects/${pid}/releases/${rid}/publish`);
  await f.api.post(`/projects/${pid}/tokens`, { name: "CI" });
  const wid = (await f.api.post(`/projects/${pid}/webhooks`, { url: "https://10.9.9.9/hook", events: ["release_published"] })).body.id;
  const did = (await f.api.post(`/projects/${pid}/webhooks/${wid}/test`, { event: "release_published" })).body.delivery_id;
  const p = `/dashboard/projects/${pid}`;
  paths = ["/dashboard", "/dashboard/users", `${p}/keys`, `${p}/keys?status=missing&lang=pt-BR`, `${p}/translate?lang=pt-BR&status=`, `${p}/import`, `${p}/languages`, `${p}/releases`, `${p}/releases/${rid}`, `${p}/tokens`, `${p}/integrations`, `${p}/integrations/${wid}`, `${p}/deliveries/${did}`, `${p}/settings`];
});

describe("dashboard: every page at 1280 px and 390 px", () => {
  for (const [name, viewport] of [["1280 px", DESKTOP], ["390 px", PHONE]] as const) {
    test(`at ${name}: no sideways scrolling, no console errors, nothing fetched from another origin`, async () => {
      const { page, problems } = await f.page(viewport);
      for (const path of paths) {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        await page.locator("main h1, main h2").first().waitFor();
        expect({ path, overflow: await horizontalOverflow(page) }).toEqual({ path, overflow: 0 });
        expect(await page.locator(".error-page").count()).toBe(0);
      }
      expect(problems).toEqual([]);
    });
  }
});

describe("dashboard: keyboard, empty states, errors in place", () => {
  test("log in, create a project and translate a key with the keyboard alone", async () => {
    const { page, context } = await openPage(f.browser, f.server);
    await page.goto("/dashboard/login");
    // The email field has focus on arrival; Tab moves through the form; Enter submits.
    await page.waitForFunction(() => document.activeElement?.getAttribute("name") === "email");
    await page.keyboard.type("admin@example.test");
    await page.keyboard.press("Tab");
    await page.keyboard.type("correct horse battery");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Projects" }).waitFor();

    await page.getByLabel("Name").focus();
    await page.keyboard.type("Keyboard");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("en");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Keyboard" }).waitFor();

    await page.getByLabel("New key").focus();
    await page.keyboard.type("kb.hello");
    await page.keyboard.press("Enter");
    // The new key's first cell gets focus: type and leave with Tab, which saves.
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "en translation of kb.hello");
    await page.keyboard.type("Hello");
    await page.keyboard.press("Tab");
    await page.getByText("Saved").waitFor();
    expect(await gridCell(page, "en", "kb.hello").inputValue()).toBe("Hello");

    // Dialogs: Escape closes and focus starts on the safe choice.
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Rotate project slug…" }).focus();
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Cancel");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
    await context.close();
  });

  test("a new project's pages each say what to do first", async () => {
    const pid = await f.api.project("Empty", "en");
    const { page } = await f.page();
    for (const [tab, text] of [
      ["keys", "No keys yet."],
      ["releases", "No releases yet."],
      ["tokens", "No tokens yet."],
      ["integrations", "No webhook endpoints yet."],
    ]) {
      await page.goto(`/dashboard/projects/${pid}/${tab}`);
      await page.getByText(text!).waitFor();
    }
  });

  test("an unknown page and a missing project say so where the content would be, with a way on", async () => {
    const { page, problems } = await f.page();
    await page.goto("/dashboard/no/such/page");
    await page.getByText("There is no page here.").waitFor();
    await page.goto("/dashboard/projects/prj_missing/keys");
    await page.locator("main .error-page").getByText("Project not found").waitFor();
    await page.getByRole("button", { name: "Try again" }).waitFor();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Projects" }).waitFor();
    expect(problems).toEqual([]);
  });
});
