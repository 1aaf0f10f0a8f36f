/**
 * The dashboard (docs/dashboard.md): the grid of keys by languages: inline editing, status and approve, untranslated
 * cells at a glance, per-language progress, search, paging, key edits, and import.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { FORMATS } from "../../src/formats/registry.ts";
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, eventually, gridCell, horizontalOverflow, PHONE, useDashboard } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const f = useDashboard();

async function project(name: string, extra: string[] = ["de"]): Promise<string> {
  return f.api.project(name, "en", extra);
}

describe("dashboard: keys and translations", () => {
  test("a cell saves when left, Escape restores the saved value, Ctrl+Enter moves down a row; status and approve follow", async () => {
    const pid = await project("Grid");
    await f.api.key(pid, "a.first", { en: "First" });
    await f.api.key(pid, "b.second", { en: "Second" });
    const { page, problems } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/keys`);

    const deFirst = gridCell(page, "de", "a.first");
    const deCell = page.locator("td", { has: deFirst });
    expect(await deCell.getAttribute("class")).toContain("missing");
    expect(await deFirst.getAttribute("placeholder")).toBe("Untranslated");

    await deFirst.fill("Erste");
    await page.keyboard.press("Escape");
    expect(await deFirst.inputValue()).toBe("");

    await deFirst.fill("Erste");
    await page.keyboard.press("Control+Enter");
    expect(await gridCell(page, "de", "b.second").evaluate((el) => el === document.activeElement)).toBe(true);
    await deCell.getByText("Saved").waitFor();
    expect(await deCell.getAttribute("class")).toContain("translated");
    expect((await f.api.get(`/projects/${pid}/keys?search=a.first`)).body.items[0].translations.de).toEqual({ value: "Erste", status: "translated", problems: [] });

    await page.getByRole("button", { name: "Approve de translation of a.first" }).click();
    await deCell.getByText("approved", { exact: true }).waitFor();
    expect((await f.api.get(`/projects/${pid}/keys?search=a.first`)).body.items[0].translations.de.status).toBe("approved");

    // product §4: an edit resets approved to translated, and the cell says so.
    await deFirst.fill("Die Erste");
    await gridCell(page, "en", "a.first").focus();
    await deCell.getByText("translated", { exact: true }).waitFor();
    expect((await f.api.get(`/projects/${pid}/keys?search=a.first`)).body.items[0].translations.de).toEqual({ value: "Die Erste", status: "translated", problems: [] });
    expect(problems).toEqual([]);
  });

  test("per-language progress counts every key and updates after an edit", async () => {
    const pid = await project("Progress", ["fr"]);
    for (let i = 0; i < 3; i++) await f.api.key(pid, `k${i}`, { en: `E${i}` });
    const { page } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/keys`);
    await page.getByRole("img", { name: "fr: 0 of 3 translated, 0 approved" }).waitFor();
    await page.getByText("3 strings missing").waitFor();
    await gridCell(page, "fr", "k1").fill("F1");
    await gridCell(page, "fr", "k2").focus();
    await page.getByRole("img", { name: "fr: 1 of 3 translated, 0 approved" }).waitFor();
  });

  test('a key the base file marks not to be translated shows the mark, and other languages\' progress leaves it out (docs/formats.md "Not translatable")', async () => {
    const pid = await project("Not translatable");
    const content = '<resources><string name="brand" translatable="false">Phrasebook</string><string name="hello">Hello</string></resources>';
    expect((await f.api.post(`/projects/${pid}/import`, { format: "android", language_code: "en", content })).status).toBe(200);
    const { page, problems } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/keys`);
    await page.locator("th.keycell", { hasText: "brand" }).getByText("not translatable").waitFor();
    expect(await page.locator("th.keycell", { hasText: "hello" }).getByText("not translatable").count()).toBe(0);
    await page.getByRole("img", { name: "de: 0 of 1 translated, 0 approved" }).waitFor();
    await page.getByText("1 string missing").waitFor();
    // Translating German through all keys: the key without a value is "not translatable", not "missing".
    await page.goto(`/dashboard/projects/${pid}/translate?lang=de&status=`);
    await page.locator(".translate h2 code.key", { hasText: "brand" }).waitFor();
    expect(await page.locator(".translate .translate-head").first().textContent()).toContain("not translatable");
    expect(await page.locator(".translate .translate-head .badge.missing").count()).toBe(0);
    expect(problems).toEqual([]);
  });

  test("search filters by key, context or translation; paging walks 50 keys a page", async () => {
    const pid = await project("Paging", []);
    for (let i = 1; i <= 60; i++) await f.api.key(pid, `key.${String(i).padStart(2, "0")}`, i === 7 ? { en: "needle in a haystack" } : {});
    const { page } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/keys`);
    await page.getByText("60 keys").waitFor();
    expect(await page.locator("tbody tr").count()).toBe(50);
    await page.getByText("Page 1 of 2").waitFor();
    await page.getByRole("button", { name: "Next ›" }).click();
    await page.getByText("Page 2 of 2").waitFor();
    expect(await page.locator("tbody tr").count()).toBe(10);
    expect(page.url()).toContain("page=2");

    await page.getByLabel("Search keys").fill("haystack");
    await page.getByText("1 key match “haystack”").waitFor();
    expect(await page.locator("tbody tr").count()).toBe(1);
    await gridCell(page, "en", "key.07").waitFor();

    await page.getByLabel("Search keys").fill("nothing-like-this");
    await page.getByText("No key matches “nothing-like-this”.").waitFor();
  });

  test("adding a key puts it at the top ready to translate; Edit renames it, sets context, deletes it", async () => {
    const pid = await project("Edit");
    const { page } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/keys`);
    await page.getByText("No keys yet.").waitFor();
    await page.getByLabel("New key").fill("home.title");
    await page.getByLabel("Context (optional)").fill("Top of the home screen");
    await page.keyboard.press("Enter");
    expect(await gridCell(page, "en", "home.title").evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByText("Top of the home screen").waitFor();

    // A duplicate key is refused where it was typed.
    await page.getByLabel("New key").fill("home.title");
    await page.getByRole("button", { name: "Add key" }).click();
    await page.getByRole("alert").getByText('Key "home.title" already exists in this project').waitFor();

    await page.getByRole("button", { name: "Edit key home.title" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Key", { exact: true }).fill("home.heading");
    await dialog.getByLabel("Context").fill("Largest text on the home screen");
    await dialog.getByRole("button", { name: "Save key" }).click();
    await gridCell(page, "en", "home.heading").waitFor();
    await page.getByText("Largest text on the home screen").waitFor();

    await page.getByRole("button", { name: "Edit key home.heading" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete key" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete key" }).click();
    await page.getByText("No keys yet.").waitFor();
    expect((await f.api.get(`/projects/${pid}/keys`)).body.items).toEqual([]);
  });

  test("import: a JSON file into one language, an ARB file whose @@locale picks the language", async () => {
    const pid = await project("Import");
    const { page } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/keys`);
    await page.getByRole("link", { name: "Import file…" }).click();
    // docs/formats.md: the choices and the file picker's accept are the format registry's.
    await page.getByLabel("Format").locator("option").first().waitFor({ state: "attached" });
    const options = await page.getByLabel("Format").locator("option").evaluateAll((els) => els.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    expect(options).toEqual(FORMATS.map((x) => [x.name, x.label]));
    const accept = (await page.getByLabel("File").getAttribute("accept"))!.split(",");
    expect(accept).toEqual([...new Set([...FORMATS.flatMap((x) => x.extensions.map((ext) => `.${ext}`)), ...FORMATS.map((x) => x.contentType.split(";")[0])])]);
    await page.getByLabel("File").setInputFiles({ name: "de.YML", mimeType: "application/yaml", buffer: Buffer.from("a: b\n") });
    expect(await page.getByLabel("Format").inputValue()).toBe("yaml");
    await page.getByLabel("File").setInputFiles({ name: "en.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify({ "a.one": "One", "a.two": "Two" })) });
    expect(await page.getByLabel("Format").inputValue()).toBe("json");
    // The dry run's preview shows on the page before anything changes (docs/dashboard.md "Import").
    await page.getByRole("button", { name: "Preview import" }).click();
    const preview = page.getByRole("region", { name: "Preview of the import" });
    await preview.getByText("Preview for en, nothing changed yet: 2 new keys, 2 translations to set, 0 keys to delete, 0 unchanged.").waitFor();
    expect(await preview.locator("li").allTextContents()).toEqual(["+ a.one", "+ a.two"]);
    expect((await f.api.get(`/projects/${pid}/keys`)).body.items).toEqual([]);
    await preview.getByRole("button", { name: "Import" }).click();
    await page.getByText("Imported into en: 2 new keys, 2 translations set.").waitFor();
    expect((await f.api.get(`/projects/${pid}/keys`)).body.items.length).toBe(2);

    const arb = JSON.stringify({ "@@locale": "de", aOne: "Eins", "@aOne": { description: "first" } });
    await page.getByLabel("File").setInputFiles({ name: "app_de.arb", mimeType: "application/json", buffer: Buffer.from(arb) });
    expect(await page.getByLabel("Format").inputValue()).toBe("arb");
    expect(await page.getByLabel("Language").inputValue()).toBe("de");

    // A file of several languages (XLIFF) picks "named in the file", and the preview says which it sets.
    const xliff = `<?xml version="1.0"?><xliff version="1.2"><file source-language="en" target-language="de"><body><trans-unit id="a.one"><source>One</source><target>Eins</target></trans-unit></body></file></xliff>`;
    await page.getByLabel("File").setInputFiles({ name: "de.xlf", mimeType: "application/xliff+xml", buffer: Buffer.from(xliff) });
    expect(await page.getByLabel("Format").inputValue()).toBe("xliff");
    expect(await page.getByLabel("Language").inputValue()).toBe("");
    await page.getByRole("button", { name: "Preview import" }).click();
    await preview.getByText("Preview for en, de, nothing changed yet: 0 new keys, 1 translation to set, 0 keys to delete, 0 unchanged.").waitFor();
    expect(await preview.locator("li").allTextContents()).toEqual(["~ a.one"]);

    // A broken UTF-16 file (a lone surrogate) is refused as it is read, never imported with U+FFFD.
    const broken = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('"a.one" = "', "utf16le"), Buffer.from([0x00, 0xd8]), Buffer.from('";\n', "utf16le")]);
    await page.getByLabel("File").setInputFiles({ name: "de.strings", mimeType: "text/plain", buffer: broken });
    await page.getByText("de.strings: not valid UTF-16 (a lone surrogate, or an odd number of bytes)", { exact: false }).waitFor();
    expect(await page.getByLabel("…or paste the content").inputValue()).toBe("");

    // Bad content: the server's reason shows under the form, and there is no preview.
    await page.getByLabel("…or paste the content").fill("{ not json");
    await page.getByLabel("Format").selectOption("json");
    await page.getByLabel("Language").selectOption("en");
    await page.getByRole("button", { name: "Preview import" }).click();
    expect(await page.getByRole("alert").first().textContent()).toMatch(/json/i);
  });

  test("at 390 px wide the grid turns into cards and nothing scrolls sideways", async () => {
    const pid = await project("Phone", ["de", "pt-BR"]);
    await f.api.key(pid, "a.really.long.key.name.that.would.not.fit.on.a.phone.screen", { en: "A long English sentence that wraps on a phone." });
    const { page, problems } = await f.page(PHONE);
    await page.goto(`/dashboard/projects/${pid}/keys`);
    await gridCell(page, "pt-BR", "a.really.long.key.name.that.would.not.fit.on.a.phone.screen").waitFor();
    expect(await page.locator("thead").isVisible()).toBe(false);
    expect(await page.locator(".cell-lang").first().isVisible()).toBe(true);
    expect(await horizontalOverflow(page)).toBe(0);
    expect(problems).toEqual([]);
  });

  for (const viewport of [DESKTOP, PHONE]) {
    test(`product §7: a problem shows under the cell while the value is typed, as saving stores it; a new base value rechecks the row (${viewport.width} px)`, async () => {
      const pid = await project(`Checks ${viewport.width}`, ["fr", "ja"]);
      await f.api.key(pid, "files", { en: "{count, plural, one {# file} other {# files}}" });
      await f.api.key(pid, "greeting", { en: "Hello {name}" });
      const { page, problems } = await f.page(viewport);
      await page.goto(`/dashboard/projects/${pid}/keys`);
      const found = (code: string, key: string) => page.getByLabel(`Problems in ${code} translation of ${key}`, { exact: true });

      // A French plural one brace short: shown while typing, before any save.
      await gridCell(page, "fr", "files").fill("Message {count, plural, one {# truc} other {# trucs}");
      await found("fr", "files").getByText("The { at character 9 is never closed: a } is missing").waitFor();
      expect(await found("fr", "files").locator("li.error").count()).toBe(1);
      expect((await f.api.get(`/projects/${pid}/keys?search=files`)).body.items[0].translations.fr).toBeUndefined();
      await gridCell(page, "fr", "files").fill("{count, plural, one {# truc} many {# de trucs} other {# trucs}}");
      await eventually(async () => ((await found("fr", "files").locator("li").count()) === 0 ? true : undefined));

      // A Japanese message with an unknown placeholder: saved, the server stores what was shown.
      await gridCell(page, "ja", "greeting").fill("メッセージ {cnt}");
      await found("ja", "greeting").getByText("{cnt} is not in the English text; use {name}").waitFor();
      await gridCell(page, "en", "files").focus();
      await page.getByRole("cell").filter({ has: gridCell(page, "ja", "greeting") }).getByText("Saved").waitFor();
      const stored = (await f.api.get(`/projects/${pid}/keys?search=greeting`)).body.items[0].translations.ja.problems;
      expect(stored.map((p: any) => p.message)).toEqual(["`{cnt}` is not in the English text; use `{name}`", "`{name}` from the English text is missing"]);
      expect(await found("ja", "greeting").locator("li").allTextContents()).toEqual(stored.map((p: any) => `${p.severity}: ${p.message.replaceAll("`", "")}`));
      await page.getByText("1 error · 1 warning").waitFor(); // the ja progress card

      // The base value now uses {cnt}: the Japanese cell is checked against it at once.
      await gridCell(page, "en", "greeting").fill("Hello {cnt}");
      await gridCell(page, "en", "files").focus();
      await eventually(async () => ((await found("ja", "greeting").locator("li").count()) === 0 ? true : undefined));
      expect((await f.api.get(`/projects/${pid}/keys?search=greeting`)).body.items[0].translations.ja.problems).toEqual([]);
      expect(await horizontalOverflow(page)).toBe(0);
      expect(problems).toEqual([]);
    });
  }
});
