/**
 * The key grid for real teams (product §8, docs/dashboard.md "The key grid"), in Chromium at
 * 1280 and 390 px: the languages shown are chosen on the grid and remembered per user and project
 * (another browser of the same user gets them, another user does not), and the key list is asked
 * for those languages only; filters by state and language, with counts, combine with search, live
 * in the URL (a shared link opens the same view) and the back button steps through them.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, eventually, gridCell, horizontalOverflow, PHONE, useDashboard } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const f = useDashboard();

/** The languages of the key list's requests, as the page sent them. */
function keyListLanguages(page: Page): string[][] {
  const seen: string[][] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (/\/dashboard\/api\/projects\/[^/]+\/keys$/.test(url.pathname)) seen.push((url.searchParams.get("languages") ?? "(all)").split(","));
  });
  return seen;
}

/** The languages with a cell for `key` in the grid, in order. */
async function columnsOf(page: Page, key: string): Promise<string[]> {
  return page.locator("textarea[data-lang]").evaluateAll((areas, k) => areas.filter((a) => a.getAttribute("aria-label")!.endsWith(` translation of ${k}`)).map((a) => a.getAttribute("data-lang")!), key);
}

/** The keys the grid shows, in order. */
async function rowsOf(page: Page): Promise<string[]> {
  return page.locator("tbody th code.key").allTextContents();
}

for (const viewport of [DESKTOP, PHONE]) {
  describe(`the key grid at ${viewport.width} px`, () => {
    test("product §8 point 1: the languages shown are chosen on the grid, remembered per user and project in every browser, and only they are fetched", async () => {
      const pid = await f.api.project(`Columns ${viewport.width}`, "en", ["de", "es", "fr", "it", "ja", "pl", "pt-BR"]);
      await f.api.key(pid, "greeting", { en: "Hello", pl: "Cześć" });
      const { page, problems } = await f.page(viewport);
      const requested = keyListLanguages(page);
      await page.goto(`/dashboard/projects/${pid}/keys`);
      await gridCell(page, "en", "greeting").waitFor();
      // Never chosen: the base language and the next three in code order.
      expect(await columnsOf(page, "greeting")).toEqual(["en", "de", "es", "fr"]);
      expect(requested.at(-1)).toEqual(["en", "de", "es", "fr"]);

      // From the keyboard: open the list, tick Polish, untick German, close with Escape.
      const button = page.getByRole("button", { name: "Languages: 4 of 8" });
      await button.focus();
      await page.keyboard.press("Enter");
      expect(await button.getAttribute("aria-expanded")).toBe("true");
      expect(await page.getByRole("checkbox", { name: /en English/ }).isDisabled()).toBe(true); // the base is always shown
      await page.getByRole("checkbox", { name: /pl Polish/ }).focus();
      await page.keyboard.press("Space");
      await page.getByRole("checkbox", { name: /de German/ }).focus();
      await page.keyboard.press("Space");
      await page.keyboard.press("Escape");
      expect(await button.getAttribute("aria-expanded")).toBe("false");
      expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
      await gridCell(page, "pl", "greeting").waitFor();
      expect(await columnsOf(page, "greeting")).toEqual(["en", "es", "fr", "pl"]);
      expect(await gridCell(page, "pl", "greeting").inputValue()).toBe("Cześć");
      expect(requested.at(-1)).toEqual(["en", "es", "fr", "pl"]);
      await page.getByRole("button", { name: "Languages: 4 of 8" }).waitFor();

      // Saved for this user and project on the server ...
      await eventually(async () => {
        const saved = (await f.api.get(`/projects/${pid}/editor-preferences`)).body.languages;
        return JSON.stringify(saved) === JSON.stringify(["en", "es", "fr", "pl"]) ? true : undefined;
      });
      // ... so another browser of the same user opens on the same columns,
      const other = await f.page(viewport);
      await other.page.goto(`/dashboard/projects/${pid}/keys`);
      await gridCell(other.page, "pl", "greeting").waitFor();
      expect(await columnsOf(other.page, "greeting")).toEqual(["en", "es", "fr", "pl"]);
      // ... and another user keeps their own.
      const email = `cols-${viewport.width}@example.test`;
      const made = await f.api.post("/users", { email, name: `Cols ${viewport.width}`, password: "member password", role: "member" });
      await f.api.put(`/projects/${pid}/members/${made.body.id}`, { role: "developer" }); // a member's old rights
      const member = await f.page(viewport, email, "member password");
      await member.page.goto(`/dashboard/projects/${pid}/keys`);
      await gridCell(member.page, "de", "greeting").waitFor();
      expect(await columnsOf(member.page, "greeting")).toEqual(["en", "de", "es", "fr"]);
      expect(await horizontalOverflow(page)).toBe(0);
      expect([...problems, ...other.problems, ...member.problems]).toEqual([]);
    });

    test("product §8 point 2: missing, translated, approved and problems per language, with counts, combined with search; in the URL, shareable, and the back button works", async () => {
      const pid = await f.api.project(`Filters ${viewport.width}`, "en", ["de", "fr"]);
      const one = await f.api.key(pid, "a.one", { en: "One", de: "Eins" });
      await f.api.post(`/projects/${pid}/keys/${one}/translations/de/approve`);
      await f.api.key(pid, "a.two", { en: "Two {n}", de: "Zwei {x}" }); // a problem: {x} is not in the English text
      await f.api.key(pid, "b.three", { en: "Three" });
      await f.api.key(pid, "b.four", { en: "Four needle", fr: "Quatre" });
      const { page, problems } = await f.page(viewport);
      await page.goto(`/dashboard/projects/${pid}/keys`);
      await page.getByText("4 keys", { exact: true }).waitFor();

      // The counts are about the filter's language; German: 2 missing, 1 translated, 1 approved, 1 with a problem.
      await page.getByLabel("Language of the filter").selectOption("de");
      await page.getByRole("radio", { name: "Missing 2" }).waitFor();
      for (const name of ["All 4", "Translated 1", "Approved 1", "Problems 1"]) await page.getByRole("radio", { name }).waitFor();

      await page.getByRole("radio", { name: "Missing 2" }).check();
      await page.getByText("2 keys missing in German").waitFor();
      expect(await rowsOf(page)).toEqual(["b.four", "b.three"]);
      expect(new URL(page.url()).searchParams.get("status")).toBe("missing");
      expect(new URL(page.url()).searchParams.get("lang")).toBe("de");

      // A search narrows the filter, and the counts follow it.
      await page.getByLabel("Search keys").fill("needle");
      await page.keyboard.press("Enter");
      await page.getByText("1 key match “needle”, missing in German").waitFor();
      expect(await rowsOf(page)).toEqual(["b.four"]);
      await page.getByRole("radio", { name: "All 1" }).waitFor();
      await page.getByRole("radio", { name: "Missing 1" }).waitFor();
      expect(new URL(page.url()).searchParams.get("q")).toBe("needle");

      // From the keyboard: arrows move through the states.
      await page.getByRole("radio", { name: "Missing 1" }).focus();
      await page.keyboard.press("ArrowLeft");
      await page.getByText("1 key match “needle”", { exact: true }).waitFor();

      // Back: the search without "all"; back: the filter without the search; back: where it began.
      await page.goBack();
      await page.getByText("1 key match “needle”, missing in German").waitFor();
      await page.goBack();
      await page.getByText("2 keys missing in German").waitFor();
      expect(await page.getByLabel("Search keys").inputValue()).toBe("");
      expect(await page.getByRole("radio", { name: "Missing 2" }).isChecked()).toBe(true);
      await page.goBack();
      await page.getByText("4 keys", { exact: true }).waitFor();
      expect(await page.getByRole("radio", { name: /^All/ }).isChecked()).toBe(true);
      await page.goForward();
      await page.getByText("2 keys missing in German").waitFor();

      // A shared link opens the same view in another browser: German problems, then French translated.
      const shared = await f.page(viewport);
      await shared.page.goto(`/dashboard/projects/${pid}/keys?status=problems&lang=de`);
      await shared.page.getByText("1 key with problems in German").waitFor();
      expect(await rowsOf(shared.page)).toEqual(["a.two"]);
      expect(await shared.page.getByRole("radio", { name: "Problems 1" }).isChecked()).toBe(true);
      await shared.page.goto(`/dashboard/projects/${pid}/keys?status=translated&lang=fr`);
      await shared.page.getByText("1 key translated in French, not yet approved").waitFor();
      expect(await rowsOf(shared.page)).toEqual(["b.four"]);
      await shared.page.goto(`/dashboard/projects/${pid}/keys?status=approved&lang=de`);
      await shared.page.getByText("1 key approved in German").waitFor();
      expect(await rowsOf(shared.page)).toEqual(["a.one"]);
      // The filter's language is shown even when not chosen as a column.
      expect(await columnsOf(shared.page, "a.one")).toContain("de");

      // A progress card's missing count opens the grid filtered to them.
      await page.goto(`/dashboard/projects/${pid}/keys`);
      await page.getByRole("link", { name: "3 strings missing in fr: show them" }).click();
      await page.getByText("3 keys missing in French").waitFor();
      expect(await rowsOf(page)).toEqual(["a.one", "a.two", "b.three"]);

      // Translating a missing key moves the counts.
      await gridCell(page, "fr", "b.three").fill("Trois");
      await page.getByLabel("Search keys").focus();
      await page.getByRole("radio", { name: "Missing 2" }).waitFor();
      await page.getByRole("radio", { name: "Translated 2" }).waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      expect([...problems, ...shared.problems]).toEqual([]);
    });
  });
}
