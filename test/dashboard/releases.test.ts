/**
 * The dashboard (docs/dashboard.md): releases: drafts and published ones listed, create, rename, publish with a
 * confirmation that says what will ship, delete, rotate a release slug, every download URL
 * (copyable) and the `latest` URLs.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, eventually, horizontalOverflow, inputWithValue, PHONE, useDashboard } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const f = useDashboard();

async function projectWithStrings(name: string): Promise<string> {
  const pid = await f.api.project(name, "en", ["de"]);
  await f.api.key(pid, "hello", { en: "Hello", de: "Hallo" });
  await f.api.key(pid, "bye", { en: "Bye" });
  return pid;
}

describe("dashboard: releases", () => {
  test("publishing asks first, saying which languages ship and what is left out; then every URL is listed and works", async () => {
    const pid = await projectWithStrings("Ship");
    const { page, context, problems } = await f.page();
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(`/dashboard/projects/${pid}/releases`);
    await page.getByText("No releases yet.").waitFor();
    await page.getByLabel("Name").fill("Spring");
    await page.getByLabel("Tag").fill("v2.0");
    await page.keyboard.press("Enter");
    await page.getByText("A draft has no files yet.").waitFor();

    await page.getByRole("button", { name: "Publish…" }).click();
    const dialog = page.getByRole("dialog");
    const text = await dialog.textContent();
    expect(text).toContain("Publishing snapshots 2 keys in 2 languages and writes 6 files");
    expect(text).toContain("en (base): 2 strings");
    expect(text).toContain("de: 1 string (1 untranslated, left out: apps fall back to en)");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect((await f.api.get(`/projects/${pid}/releases`)).body.items[0].status).toBe("draft");

    await page.getByRole("button", { name: "Publish…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Publish now" }).click();
    await page.getByRole("heading", { name: "Download URLs" }).waitFor();
    const detail = (await f.api.get(`/projects/${pid}/releases/${(await f.api.get(`/projects/${pid}/releases`)).body.items[0].id}`)).body;
    for (const lang of detail.languages) {
      for (const [ext, url] of Object.entries(lang.download_urls as Record<string, string>)) {
        expect(await page.getByLabel(`${lang.code} ${ext.toUpperCase()} URL`, { exact: true }).first().inputValue()).toBe(url);
        expect((await fetch(url)).status).toBe(200);
      }
    }
    // The copy button puts the exact URL on the clipboard.
    await page.getByRole("button", { name: "Copy de YAML URL" }).first().click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(detail.languages.find((l: { code: string }) => l.code === "de").download_urls.yaml);

    // It is the latest release: the latest URLs are shown and serve the same file.
    await page.getByRole("heading", { name: "Latest URLs" }).waitFor();
    const latest = await page.getByRole("table", { name: "Latest URLs" }).getByLabel("de JSON URL", { exact: true }).inputValue();
    expect(latest).toContain("/r/latest/de.json");
    expect(await (await fetch(latest)).json()).toEqual({ hello: "Hallo" });
    expect(problems).toEqual([]);
  });

  test("docs/formats.md Export: a published release downloads in any format of the registry, as an attachment", async () => {
    const pid = await projectWithStrings("Native files");
    const draft = (await f.api.post(`/projects/${pid}/releases`, { name: "One", tag: "v1" })).body;
    await f.api.post(`/projects/${pid}/releases/${draft.id}/publish`);
    const { page, problems } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/releases/${draft.id}`);
    await page.getByRole("heading", { name: "Export" }).waitFor();
    await page.getByLabel("Export language").selectOption("de");
    await page.getByLabel("Export format").selectOption("android");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toBe("Native-files-v1-de.xml");
    const text = await (await import("node:fs")).promises.readFile((await download.path())!, "utf8");
    expect(text).toContain('<string name="hello">Hallo</string>');
    expect(problems).toEqual([]);
  });

  test("the list shows drafts and published ones; rename and delete a draft", async () => {
    const pid = await projectWithStrings("List");
    const published = (await f.api.post(`/projects/${pid}/releases`, { name: "One", tag: "v1" })).body.id;
    await f.api.post(`/projects/${pid}/releases/${published}/publish`);
    const draft = (await f.api.post(`/projects/${pid}/releases`, { name: "Two", tag: "v2" })).body.id;
    const { page } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/releases`);
    const one = page.getByRole("row", { name: /One/ });
    await one.getByText("published").waitFor();
    await one.getByText("latest").waitFor();
    await page.getByRole("row", { name: /Two/ }).getByText("draft").waitFor();

    await page.getByRole("link", { name: "Two" }).click();
    await page.getByText("A draft has no files yet.").waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Two, renamed");
    await page.getByLabel("Tag").fill("v1");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("form", { name: "Rename release" }).getByRole("alert").getByText('A release tagged "v1" already exists in this project').waitFor();
    await page.getByLabel("Tag").fill("v2.1");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: /Two, renamed/ }).waitFor();

    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete release" }).click();
    await page.getByRole("heading", { name: "Releases", exact: true }).waitFor();
    expect(await page.getByRole("link", { name: "Two, renamed" }).count()).toBe(0);
    expect((await f.api.get(`/projects/${pid}/releases/${draft}`)).status).toBe(404);
  });

  test("rotating a release slug warns, then the old URLs 404 and the page shows the new ones", async () => {
    const pid = await projectWithStrings("Rotate");
    const rid = (await f.api.post(`/projects/${pid}/releases`, { name: "R", tag: "r1" })).body.id;
    await f.api.post(`/projects/${pid}/releases/${rid}/publish`);
    const oldUrl = (await f.api.get(`/projects/${pid}/releases/${rid}`)).body.languages[0].download_urls.json;
    const { page } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/releases/${rid}`);
    await page.getByRole("button", { name: "Rotate slug…" }).click();
    expect(await page.getByRole("dialog").textContent()).toContain("Every pinned download URL of this release stops working at once");
    await page.getByRole("dialog").getByRole("button", { name: "Rotate slug" }).click();
    const newUrl = await eventually(async () => {
      const url: string = (await f.api.get(`/projects/${pid}/releases/${rid}`)).body.languages[0].download_urls.json;
      return url === oldUrl ? undefined : url;
    });
    await inputWithValue(page, newUrl);
    expect((await fetch(oldUrl)).status).toBe(404);
    expect((await fetch(newUrl)).status).toBe(200);
  });

  test("deleting the latest published release says that latest moves back", async () => {
    const pid = await projectWithStrings("Latest");
    for (const tag of ["a", "b"]) {
      const rid = (await f.api.post(`/projects/${pid}/releases`, { name: tag, tag })).body.id;
      await f.api.post(`/projects/${pid}/releases/${rid}/publish`);
    }
    const { page } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/releases`);
    await page.getByRole("row", { name: /^b/ }).getByText("latest").waitFor();
    await page.getByRole("row", { name: /^b/ }).getByRole("link", { name: "b", exact: true }).click();
    await page.getByRole("button", { name: "Delete…" }).click();
    expect(await page.getByRole("dialog").textContent()).toContain("It is the latest release: the latest URLs move to the previous published release");
    await page.getByRole("dialog").getByRole("button", { name: "Delete release" }).click();
    await page.getByRole("row", { name: /^a/ }).getByText("latest").waitFor();
  });

  for (const viewport of [DESKTOP, PHONE]) {
    test(`product §7: a publish blocked by errors lists them with links to their keys; an admin publishes anyway and the release says so (${viewport.width} px)`, async () => {
      const pid = await f.api.project(`Blocked ${viewport.width}`, "en", ["fr"]);
      await f.api.key(pid, "files.count", { en: "{count, plural, one {# file} other {# files}}", fr: "Message {count, plural, one {# truc} other {# trucs}" });
      await f.api.key(pid, "hello", { en: "Hello", fr: "Bonjour" });
      const rid = (await f.api.post(`/projects/${pid}/releases`, { name: "Spring", tag: "v1" })).body.id;
      const { page, problems } = await f.page(viewport);
      const releasePage = `/dashboard/projects/${pid}/releases/${rid}`;
      await page.goto(releasePage);

      await page.getByRole("button", { name: "Publish…" }).click();
      const text = await page.getByRole("dialog").textContent();
      expect(text).toContain("fr: 2 strings, 1 error");
      expect(text).toContain("Messages have 1 error: publishing is refused until they are fixed.");
      await page.getByRole("dialog").getByRole("button", { name: "Publish now" }).click();
      const refusal = page.getByRole("region", { name: "Errors block publishing" });
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain("files.count fr The { at character 9 is never closed: a } is missing");
      expect((await f.api.get(`/projects/${pid}/releases/${rid}`)).body.status).toBe("draft");
      expect(await horizontalOverflow(page)).toBe(0);

      // The link leads to the key in the grid, where the cell says the same.
      await refusal.getByRole("link", { name: "files.count" }).click();
      await page.getByLabel("Problems in fr translation of files.count", { exact: true }).getByText("The { at character 9 is never closed: a } is missing").waitFor();
      expect(new URL(page.url()).searchParams.get("q")).toBe("files.count");

      await page.goto(releasePage);
      await page.getByRole("button", { name: "Publish…" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Publish now" }).click();
      await page.getByRole("button", { name: "Publish anyway…" }).click();
      expect(await page.getByRole("dialog").textContent()).toContain("Apps get these messages exactly as they are");
      await page.getByRole("dialog").getByRole("button", { name: "Publish anyway" }).click();
      await page.getByRole("heading", { name: "Download URLs" }).waitFor();
      await page.getByText("published with errors").waitFor();
      expect((await f.api.get(`/projects/${pid}/releases/${rid}`)).body).toMatchObject({ status: "published", forced: true });
      expect(await horizontalOverflow(page)).toBe(0);
      expect(problems).toEqual([]);
    });
  }
});
