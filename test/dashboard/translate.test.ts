/**
 * Translating one language (product §8, docs/dashboard.md "Translating one language",
 * "Plural and select forms", "History"), in Chromium at 1280 and 390 px: the base text and the
 * context beside the translation, key after key, keyboard only (save and next, previous, approve,
 * undo), starting at and moving to the next missing string by itself; plurals edited as one field
 * per category of the target language plus the base's `=N` cases, placeholders as chips, written
 * back as valid ICU; each translation's history with who, when and the value before, and a restore
 * that is itself a new entry and a webhook event.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, eventually, gridCell, horizontalOverflow, PHONE, useDashboard } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const f = useDashboard();

/** The field of the one-language editor (or a case of it) that has the focus. */
async function focusedField(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? null);
}

async function translation(pid: string, key: string, code: string): Promise<{ value: string; status: string; problems: unknown[] } | undefined> {
  const items = (await f.api.get(`/projects/${pid}/keys?search=${encodeURIComponent(key)}`)).body.items as { key: string; translations: Record<string, any> }[];
  return items.find((i) => i.key === key)?.translations[code];
}

/** The key on screen in the one-language mode. */
function currentKey(page: Page) {
  return page.locator(".translate h2 code.key");
}

for (const viewport of [DESKTOP, PHONE]) {
  describe(`translating one language at ${viewport.width} px`, () => {
    test("product §8 point 3: keyboard only, the base text and context beside the target, save and next, previous, approve, undo; the next missing string comes by itself", async () => {
      const pid = await f.api.project(`One language ${viewport.width}`, "en", ["fr"]);
      await f.api.key(pid, "k1.done", { en: "Done", fr: "Fait" });
      await f.api.key(pid, "k2.save", { en: "Save" });
      await f.api.key(pid, "k3.cancel", { en: "Cancel", fr: "Annuler" });
      await f.api.key(pid, "k4.delete", { en: "Delete" }, "Button that removes the file for good");
      await f.api.key(pid, "k5.close", { en: "Close" });
      const { page, problems } = await f.page(viewport);
      await page.goto(`/dashboard/projects/${pid}/keys`);
      // To the one-language mode from the grid, by keyboard.
      await page.getByRole("link", { name: "Translate French one by one" }).focus();
      await page.keyboard.press("Enter");

      // The first missing French string, the English text beside it, the field focused.
      await currentKey(page).getByText("k2.save").waitFor();
      await page.getByText("3 keys missing in French").waitFor();
      expect(await page.locator(".base-text").textContent()).toBe("Save");
      expect(await focusedField(page)).toBe("fr translation of k2.save");
      await page.keyboard.type("Enregistrer");
      await page.keyboard.press("Control+Enter");

      // Saved, and on to the next missing one (k3 has a value): its context is shown.
      await currentKey(page).getByText("k4.delete").waitFor();
      expect(await page.locator(".context").textContent()).toBe("Button that removes the file for good");
      expect(await translation(pid, "k2.save", "fr")).toMatchObject({ value: "Enregistrer", status: "translated" });
      await page.getByText("2 keys missing in French").waitFor();

      // Escape undoes what was typed; Alt+Up goes back (nothing to save), where approving moves on.
      await page.keyboard.type("Effacer");
      await page.keyboard.press("Escape");
      expect(await page.getByRole("textbox", { name: "fr translation of k4.delete" }).textContent()).toBe("");
      await page.keyboard.press("Alt+ArrowUp");
      await currentKey(page).getByText("k2.save").waitFor();
      expect(await focusedField(page)).toBe("fr translation of k2.save");
      await page.keyboard.press("Control+Shift+Enter");
      await currentKey(page).getByText("k4.delete").waitFor();
      expect(await translation(pid, "k2.save", "fr")).toMatchObject({ value: "Enregistrer", status: "approved" });

      // Alt+Down leaves a string as it is (here still missing), to the last missing one.
      await page.keyboard.press("Alt+ArrowDown");
      await currentKey(page).getByText("k5.close").waitFor();
      expect(await translation(pid, "k4.delete", "fr")).toBeUndefined();
      await page.keyboard.type("Fermer");
      // Approving a string typed just now saves it first.
      await page.keyboard.press("Control+Shift+Enter");
      // The one skipped is still missing: the end says so, and the count too.
      await page.getByText("No more keys missing in French ahead: 1 key you passed by is still to do.").waitFor();
      expect(await translation(pid, "k5.close", "fr")).toMatchObject({ value: "Fermer", status: "approved" });
      await page.getByText("1 key missing in French").waitFor();
      // Going through them again starts at the one skipped; translated, none is left.
      await page.getByRole("button", { name: "Go through them again" }).focus();
      await page.keyboard.press("Enter");
      await currentKey(page).getByText("k4.delete").waitFor();
      expect(await focusedField(page)).toBe("fr translation of k4.delete");
      await page.keyboard.type("Supprimer");
      await page.keyboard.press("Control+Enter");
      await page.getByText("Every key has a French translation.").waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      expect(problems).toEqual([]);
    });

    test("product §8 point 4: a plural is one field per category of the language (Polish one/few/many/other, Japanese other) plus =N; placeholders are chips; valid ICU is written back", async () => {
      const pid = await f.api.project(`Plurals ${viewport.width}`, "en", ["ja", "pl"]);
      await f.api.key(pid, "files", { en: "{count, plural, =0 {No files} one {# file} other {# files}}" });
      await f.api.key(pid, "greeting", { en: "Hello {name}, you have {points, number} points" });
      const { page, problems } = await f.page(viewport);
      await page.goto(`/dashboard/projects/${pid}/translate?lang=pl`);
      await currentKey(page).getByText("files").waitFor();
      const field = (name: string) => page.getByRole("textbox", { name: `pl translation of files, count ${name}`, exact: true });
      expect(await page.locator(".target .run").evaluateAll((runs) => runs.map((r) => r.getAttribute("aria-label")))).toEqual(
        ["=0", "one", "few", "many", "other"].map((c) => `pl translation of files, count ${c}`),
      );
      // The base's forms beside them.
      expect(await page.locator(".base-text dt").allTextContents()).toEqual(["=0", "one", "other"]);

      // Keyboard only: each form typed, `#` becomes the number's chip; Tab passes the field's
      // insert button (the number) to the next form.
      expect(await focusedField(page)).toBe("pl translation of files, count =0");
      for (const [i, text] of ["Brak plików", "# plik", "# pliki", "# plików", "# pliku"].entries()) {
        if (i > 0) {
          await page.keyboard.press("Tab");
          expect(await focusedField(page)).toBe("Insert the number #");
          await page.keyboard.press("Tab");
        }
        await page.keyboard.type(text);
      }
      expect(await field("one").locator(".ph").allTextContents()).toEqual(["#"]);
      await page.keyboard.press("Control+Enter");

      // Next key: a placeholder typed as {name} becomes a chip; one inserted from the base with its button.
      await currentKey(page).getByText("greeting").waitFor();
      expect(await translation(pid, "files", "pl")).toEqual({
        value: "{count, plural, =0 {Brak plików} one {# plik} few {# pliki} many {# plików} other {# pliku}}",
        status: "translated",
        problems: [],
      });
      await page.keyboard.type("Cześć {name}, masz ");
      const greeting = page.getByRole("textbox", { name: "pl translation of greeting", exact: true });
      expect(await greeting.locator(".ph").allTextContents()).toEqual(["name"]);
      // The insert buttons follow the field: Tab reaches {name}, then {points, number}.
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      expect(await focusedField(page)).toBe("Insert placeholder {points, number}");
      await page.keyboard.press("Enter");
      expect(await focusedField(page)).toBe("pl translation of greeting");
      expect(await greeting.locator(".ph").allTextContents()).toEqual(["name", "points"]);
      // A chip is one character: one Backspace deletes it whole, and the button puts it back.
      await page.keyboard.press("Backspace");
      expect(await greeting.locator(".ph").allTextContents()).toEqual(["name"]);
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      await page.keyboard.type(" punktów");
      expect(await greeting.locator(".ph").allTextContents()).toEqual(["name", "points"]);
      await page.keyboard.press("Control+Enter");
      await page.getByText("Every key has a Polish translation.").waitFor();
      expect(await translation(pid, "greeting", "pl")).toEqual({ value: "Cześć {name}, masz {points, number} punktów", status: "translated", problems: [] });

      // Japanese has only `other`; the base's =0 stays.
      await page.goto(`/dashboard/projects/${pid}/translate?lang=ja`);
      await currentKey(page).getByText("files").waitFor();
      expect(await page.locator(".target .run").evaluateAll((runs) => runs.map((r) => r.getAttribute("aria-label")))).toEqual(["ja translation of files, count =0", "ja translation of files, count other"]);
      // Braces typed as text are text, written back quoted.
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await page.keyboard.type("# 件 {x}");
      await page.keyboard.press("Control+Enter");
      await currentKey(page).getByText("greeting").waitFor();
      expect(await translation(pid, "files", "ja")).toMatchObject({ value: "{count, plural, other {# 件 '{'x'}'}}", problems: [] });
      expect(await horizontalOverflow(page)).toBe(0);
      expect(problems).toEqual([]);
    });

    test("product §8 point 5: each translation shows who changed it (user, token, import), when and the value before; one click restores, as a new entry and a webhook event", async () => {
      const pid = await f.api.project(`History ${viewport.width}`, "en", ["de"]);
      // An endpoint subscribed to translation_updated keeps those events in the outbox (one nobody
      // subscribes to is dropped: docs/webhooks.md), so the restore's event can be counted.
      expect((await f.api.post(`/projects/${pid}/webhooks`, { url: "https://hooks.example.test/history", events: ["translation_updated"] })).status).toBe(201);
      const keyId = await f.api.key(pid, "title", { en: "Checkout", de: "Kasse" });
      const token = (await f.api.post(`/projects/${pid}/tokens`, { name: "CI writer", scopes: ["write"] })).body.token;
      const byToken = await fetch(`${f.server.url}/dashboard/api/projects/${pid}/keys/${keyId}/translations/de`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ value: "Zur Kasse" }),
      });
      expect(byToken.status).toBe(200);
      expect((await f.api.post(`/projects/${pid}/import`, { language_code: "de", format: "json", content: JSON.stringify({ title: "Bezahlen" }) })).status).toBe(200);
      const { page, problems } = await f.page(viewport);
      await page.goto(`/dashboard/projects/${pid}/keys`);
      await page.getByRole("button", { name: "History of title" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.locator(".history-entry").first().waitFor();
      const heads = () => dialog.locator(".history-head").allTextContents();
      expect((await heads()).map((t) => t.replace(/just now|\d+ seconds? ago/, "T"))).toEqual([
        "deImported by Admin Tcurrent",
        "deEdited by token “CI writer” T",
        "deEdited by Admin T",
        "enEdited by Admin Tcurrent",
      ]);
      expect(await dialog.locator(".history-entry").first().locator(".before").textContent()).toBe("Before: Zur Kasse");
      expect(await dialog.locator(".history-entry").nth(2).locator(".before").textContent()).toBe("Before: (no value: the key was missing in this language)");

      const eventsBefore = f.server.query<{ n: number }>("SELECT count(*) AS n FROM outbox_events WHERE event = 'translation_updated'")[0]!.n;
      await dialog.getByRole("button", { name: "Restore de “Kasse”" }).click();
      // The grid's cell shows the value restored; the list has a new newest entry, the old ones stay.
      await eventually(async () => ((await heads()).length === 5 ? true : undefined));
      // Only the newest entry holding the value now is "current": the first "Kasse" is not.
      expect((await heads()).map((t) => t.replace(/just now|\d+ seconds? ago/, "T"))).toEqual([
        "deEdited by Admin Tcurrent",
        "deImported by Admin T",
        "deEdited by token “CI writer” T",
        "deEdited by Admin T",
        "enEdited by Admin Tcurrent",
      ]);
      expect(await dialog.locator(".history-entry").first().locator(".before").textContent()).toBe("Before: Bezahlen");
      expect(await translation(pid, "title", "de")).toMatchObject({ value: "Kasse", status: "translated" });
      const events = f.server.query<{ n: number }>("SELECT count(*) AS n FROM outbox_events WHERE event = 'translation_updated'")[0]!.n;
      expect(events).toBe(eventsBefore + 1);
      await page.keyboard.press("Escape");
      expect(await gridCell(page, "de", "title").inputValue()).toBe("Kasse");

      // In the one-language mode, the translation's own history, restorable from the keyboard.
      await page.goto(`/dashboard/projects/${pid}/translate?lang=de&status=`);
      await currentKey(page).getByText("title").waitFor();
      await page.getByText("History of this translation").focus();
      await page.keyboard.press("Enter");
      const panel = page.locator(".history-box");
      await panel.locator(".history-entry").first().waitFor();
      expect(await panel.locator(".history-entry").count()).toBe(4); // de only
      await panel.getByRole("button", { name: "Restore de “Zur Kasse”" }).focus();
      await page.keyboard.press("Enter");
      await page.getByRole("textbox", { name: "de translation of title" }).getByText("Zur Kasse").waitFor();
      await eventually(async () => ((await panel.locator(".history-entry").count()) === 5 ? true : undefined));
      expect((await f.api.get(`/projects/${pid}/keys/${keyId}/history`)).body.items[0]).toMatchObject({ language_code: "de", value: "Zur Kasse", previous_value: "Kasse", via: "edit", by: { kind: "user", name: "Admin" } });
      expect(await horizontalOverflow(page)).toBe(0);
      expect(problems).toEqual([]);
    });
  });
}

describe("translating past one batch of keys", () => {
  test("product §8 point 3: the next missing string comes by itself past the first batch of 25, and a key passed by is not lost", async () => {
    const pid = await f.api.project("Batches", "en", ["fr"]);
    const names = Array.from({ length: 30 }, (_, i) => `k${String(i + 1).padStart(2, "0")}`);
    for (const name of names) await f.api.key(pid, name, { en: `Text ${name}` });
    const { page, problems } = await f.page(DESKTOP);
    await page.goto(`/dashboard/projects/${pid}/translate?lang=fr`);
    for (const name of names) {
      await currentKey(page).getByText(name, { exact: true }).waitFor();
      if (name === "k02") {
        await page.keyboard.press("Alt+ArrowDown"); // passed by, still missing
        continue;
      }
      await page.keyboard.type(`Texte ${name}`);
      await page.keyboard.press("Control+Enter");
    }
    // Saving took 24 of the first 25 out of "missing": the second batch still began at k26.
    await page.getByText("No more keys missing in French ahead: 1 key you passed by is still to do.").waitFor();
    expect(await translation(pid, "k26", "fr")).toMatchObject({ value: "Texte k26" });
    expect(await translation(pid, "k30", "fr")).toMatchObject({ value: "Texte k30" });
    expect(await translation(pid, "k02", "fr")).toBeUndefined();
    expect(problems).toEqual([]);
  });
});

describe("the forms editor in the grid", () => {
  test("product §8 point 4: a plural cell opens its forms, and the value comes back to the cell as valid ICU", async () => {
    const pid = await f.api.project("Grid forms", "en", ["pl"]);
    await f.api.key(pid, "files", { en: "{count, plural, one {# file} other {# files}}" });
    const { page, problems } = await f.page(DESKTOP);
    await page.goto(`/dashboard/projects/${pid}/keys`);
    await page.getByRole("button", { name: "Edit forms of pl translation of files" }).click();
    const dialog = page.getByRole("dialog");
    for (const [c, text] of [["one", "# plik"], ["few", "# pliki"], ["many", "# plików"], ["other", "# pliku"]]) {
      await dialog.getByRole("textbox", { name: `pl translation of files, count ${c}`, exact: true }).click();
      await page.keyboard.type(text!);
    }
    await dialog.getByRole("button", { name: "Use these forms" }).click();
    const value = "{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}";
    expect(await gridCell(page, "pl", "files").inputValue()).toBe(value);
    await eventually(async () => ((await translation(pid, "files", "pl"))?.value === value ? true : undefined));
    expect(problems).toEqual([]);
  });
});

describe("placeholders a gen-l10n template declares", () => {
  test("docs/formats.md \"ARB metadata\": the key grid and the translate page list each placeholder with its type, format and example", async () => {
    const pid = await f.api.project("Template notes", "en", ["de"]);
    const template = {
      "@@locale": "en",
      createdOn: "Created on {date} by {user}",
      "@createdOn": { description: "When the list was made", placeholders: { date: { type: "DateTime", format: "yMMMd", example: "2026-11-20" }, user: { type: "String" } } },
    };
    expect((await f.api.post(`/projects/${pid}/import`, { language_code: "en", format: "arb", content: JSON.stringify(template) })).status).toBe(200);
    const { page, problems } = await f.page(DESKTOP);
    await page.goto(`/dashboard/projects/${pid}/keys`);
    const grid = page.locator(".keycell .placeholder-notes li");
    await grid.first().waitFor();
    expect(await grid.allTextContents()).toEqual(["{date} DateTime, yMMMd e.g. 2026-11-20", "{user} String"]);
    await page.goto(`/dashboard/projects/${pid}/translate?lang=de`);
    await currentKey(page).getByText("createdOn").waitFor();
    expect(await page.locator(".source .placeholder-notes li").allTextContents()).toEqual(["{date} DateTime, yMMMd e.g. 2026-11-20", "{user} String"]);
    expect(problems).toEqual([]);
  });
});

describe("an i18next plural form the base language lacks", () => {
  test("docs/messages.md \"i18next plural forms\": items_few shows English's items_other as its base text, and saves against it", async () => {
    const pid = (await f.api.post("/projects", { name: "Web plurals", base_language_code: "en", message_syntax: "i18next" })).body.id as string;
    expect((await f.api.post(`/projects/${pid}/languages`, { code: "ru" })).status).toBe(201);
    const imported = async (code: string, values: object) => expect((await f.api.post(`/projects/${pid}/import`, { language_code: code, format: "json", content: JSON.stringify(values) })).status).toBe(200);
    await imported("en", { items_one: "{{count}} item", items_other: "{{count}} items in your cart" });
    await imported("ru", { items_one: "{{count}} товар", items_many: "{{count}} товаров", items_other: "{{count}} товара" });
    await f.api.key(pid, "items_few", {});
    const { page, problems } = await f.page(DESKTOP);
    await page.goto(`/dashboard/projects/${pid}/translate?lang=ru&status=missing`);
    await currentKey(page).getByText("items_few").waitFor();
    expect(await page.locator(".source .base-text").innerText()).toContain("items in your cart");
    expect(await page.locator(".source").innerText()).toContain("English has no such plural form: this is its items_other.");
    expect(await page.getByText("No base text yet.").count()).toBe(0);
    // The live check compares with items_other: leaving out {{count}} is said at once.
    await page.keyboard.type("товара");
    await page.getByText("{{count}} from the English text is missing").first().waitFor();
    await page.keyboard.press("Control+a");
    await page.keyboard.type("{{count}} товара");
    await page.keyboard.press("Control+Enter");
    const saved = await eventually(async () => {
      const t = await translation(pid, "items_few", "ru");
      return t?.value === "{{count}} товара" ? t : undefined;
    });
    expect(saved).toMatchObject({ value: "{{count}} товара", problems: [] });
    expect(problems).toEqual([]);
  });
});
