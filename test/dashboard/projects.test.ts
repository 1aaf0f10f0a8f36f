/**
 * The dashboard (docs/dashboard.md): projects (list, create, settings: rename, base language, rotate the slug
 * with a clear warning) and languages (add any BCP 47 code, remove, see the base).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { BROWSER_TEST_TIMEOUT_MS, eventually, useDashboard } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const f = useDashboard();

describe("dashboard: projects", () => {
  test("the list shows every project; create validates the base language where it was typed", async () => {
    await f.api.project("Alpha", "en");
    const { page, problems } = await f.page();
    await page.getByRole("link", { name: "Alpha" }).waitFor();

    await page.getByLabel("Name").fill("Beta");
    await page.getByLabel("Base language").fill("english!");
    await page.getByText('"english!" is not a language code').waitFor();
    await page.getByRole("button", { name: "Create project" }).click();
    const alert = page.getByRole("form", { name: "New project" }).getByRole("alert");
    await alert.getByText('Invalid field "base_language_code"').waitFor();
    expect(await page.getByLabel("Base language").getAttribute("aria-invalid")).toBe("true");

    await page.getByLabel("Base language").fill("fr-CA");
    await page.getByText("Canadian French (fr-CA)").waitFor();
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByRole("heading", { name: "Beta" }).waitFor();
    await page.getByText("Base language fr-CA").waitFor();
    await page.getByRole("link", { name: "Projects" }).first().click();
    await page.getByRole("link", { name: "Beta" }).waitFor();
    expect(problems).toEqual([]);
  });

  test("settings: rename, change the base language, rotate the slug only after a warning that says what it revokes", async () => {
    const pid = await f.api.project("Gamma", "en", ["de"]);
    const before = (await f.api.get(`/projects/${pid}`)).body.cdn_slug;
    const { page } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/settings`);
    await page.getByLabel("Name").fill("Gamma 2");
    await page.getByLabel("Base language").selectOption("de");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "Gamma 2" }).waitFor();
    await page.getByText("Base language de").waitFor();

    await page.getByRole("button", { name: "Rotate project slug…" }).click();
    const dialog = page.getByRole("dialog");
    const warning = await dialog.textContent();
    expect(warning).toContain("Every download URL of this project stops working at once");
    expect(warning).toContain("every published release and the latest URLs");
    expect(warning).toContain(before);
    await page.keyboard.press("Escape"); // focus starts on Cancel; Escape also cancels
    await dialog.waitFor({ state: "detached" });
    expect((await f.api.get(`/projects/${pid}`)).body.cdn_slug).toBe(before);

    await page.getByRole("button", { name: "Rotate project slug…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Rotate and revoke all URLs" }).click();
    // The dialog closes as the request leaves; the new slug shows once it has answered.
    const after = await eventually(async () => {
      const slug: string = (await f.api.get(`/projects/${pid}`)).body.cdn_slug;
      return slug === before ? undefined : slug;
    });
    await page.getByText(after).first().waitFor();
  });

  test("settings show the signing key's line for apps, and rotate it after a warning (docs/delivery.md)", async () => {
    const pid = await f.api.project("Delta", "en");
    const key = (await f.api.get(`/projects/${pid}/signing-key`)).body;
    const { page, problems } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/settings`);
    await page.getByText(key.public_key).waitFor();
    await page.getByText(`Key 1, ID ${key.key_id}`).waitFor();
    await page.getByRole("button", { name: "Rotate signing key…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Rotate the key" }).click();
    await page.getByText(/^Key 2, ID /).waitFor();
    expect((await f.api.get(`/projects/${pid}/signing-key`)).body.n).toBe(2);
    expect(problems).toEqual([]);
  });
});

describe("dashboard: languages", () => {
  test("add any BCP 47 code, see the base, remove one after confirming; a duplicate is refused in place", async () => {
    const pid = await f.api.project("Langs", "en");
    const { page, problems } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/languages`);
    await page.getByText("Only the base language so far.").waitFor();
    const baseRow = page.getByRole("row", { name: /English/ });
    await baseRow.getByText("base", { exact: true }).waitFor();
    expect(await baseRow.getByRole("button").count()).toBe(0);

    for (const [code, name] of [["zh-Hant-TW", "Chinese (Traditional, Taiwan)"], ["es-419", "Latin American Spanish"]] as const) {
      await page.getByLabel("Language code").fill(code);
      await page.getByRole("button", { name: "Add language" }).click();
      await page.getByRole("row", { name: new RegExp(code) }).getByText(name).waitFor();
    }

    await page.getByLabel("Language code").fill("ES-419");
    await page.getByRole("button", { name: "Add language" }).click();
    await page.getByRole("form", { name: "Add a language" }).getByRole("alert").getByText("Language es-419 is already in this project").waitFor();

    await page.getByRole("button", { name: "Remove zh-Hant-TW" }).click();
    const dialog = page.getByRole("dialog");
    expect(await dialog.textContent()).toContain("Published releases keep their files");
    await dialog.getByRole("button", { name: "Remove zh-Hant-TW" }).click();
    await page.getByRole("row", { name: /zh-Hant-TW/ }).waitFor({ state: "detached" });
    expect((await f.api.get(`/projects/${pid}/languages`)).body.items.map((l: { code: string }) => l.code)).toEqual(["en", "es-419"]);
    expect(problems).toEqual([]);
  });
});

describe("dashboard: a developer sees the content but none of the admin controls", () => {
  test("no create, settings or language forms for a developer; a note says why", async () => {
    const pid = await f.api.project("Members", "en", ["de"]);
    const mia = await f.api.post("/users", { email: "mia@example.test", name: "Mia", password: "member password", role: "member" });
    await f.api.put(`/projects/${pid}/members/${mia.body.id}`, { role: "developer" }); // a member's old rights (docs/dashboard-api.md "Project roles")
    const { page } = await f.page(undefined, "mia@example.test", "member password");
    await page.getByRole("link", { name: "Members" }).waitFor();
    expect(await page.getByRole("button", { name: "Create project" }).count()).toBe(0);
    await page.goto(`/dashboard/projects/${pid}/languages`);
    await page.getByText("Only a publisher or an admin of the project can add languages.").waitFor();
    expect(await page.getByRole("button", { name: /Remove/ }).count()).toBe(0);
    // No settings tab for a developer; the page itself still says who may.
    expect(await page.getByRole("link", { name: "Settings", exact: true }).count()).toBe(0);
    await page.goto(`/dashboard/projects/${pid}/settings`);
    await page.getByText("Only admins can change project settings.").waitFor();
  });
});
