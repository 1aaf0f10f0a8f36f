/**
 * The dashboard (docs/dashboard.md): API tokens (created with their scopes, read preselected (product §6),
 * the value shown once with a copy button and a ready curl or client line; listed by name with scopes and
 * created/last-used; deleted) and users (add, change role, delete).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { BROWSER_TEST_TIMEOUT_MS, eventually, horizontalOverflow, PHONE, useDashboard } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const f = useDashboard();

describe("dashboard: API tokens", () => {
  test("product §6: read is preselected; the value is shown once with copy and curl; the list shows name, scopes, created and last used; delete revokes it", async () => {
    const pid = await f.api.project("Tokens", "en");
    const { page, context, problems } = await f.page();
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(`/dashboard/projects/${pid}/tokens`);
    await page.getByText("No tokens yet.").waitFor();
    // A token made as before scopes existed reads the public API, and nothing more.
    expect(await page.getByRole("checkbox", { name: /^read/ }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: /^write/ }).isChecked()).toBe(false);
    expect(await page.getByRole("checkbox", { name: /^publish/ }).isChecked()).toBe(false);
    await page.getByLabel("Name").fill("Website build");
    await page.keyboard.press("Enter");
    await page.getByText("Copy it now: it is shown only once.").waitFor();
    const token = await page.getByTestId("new-token").inputValue();
    expect(token).toMatch(/^pb_[A-Za-z0-9]{43}$/);
    expect(await page.getByTestId("curl-line").inputValue()).toBe(`curl -H "Authorization: Bearer ${token}" ${f.server.url}/v1/releases`);
    await page.getByRole("button", { name: "Copy token" }).click();
    await page.getByRole("button", { name: "Copy token" }).getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    const row = page.getByRole("row", { name: /Website build/ });
    await row.getByText("never").waitFor();
    expect((await row.locator(".scope-list").textContent())?.trim()).toBe("read");
    expect(await page.getByTestId("client-line").count()).toBe(0);
    expect((await fetch(`${f.server.url}/v1/projects`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await page.reload();
    await page.getByRole("row", { name: /Website build/ }).getByText("never").waitFor({ state: "detached" });
    // Shown once: after a reload the value is nowhere on the page.
    expect(await page.content()).not.toContain(token);

    await page.getByRole("button", { name: "Delete token Website build" }).click();
    expect(await page.getByRole("dialog").textContent()).toContain("rotate the project slug");
    await page.getByRole("dialog").getByRole("button", { name: "Delete token" }).click();
    await page.getByText("No tokens yet.").waitFor();
    await eventually(async () => ((await fetch(`${f.server.url}/v1/projects`, { headers: { authorization: `Bearer ${token}` } })).status === 401 ? true : undefined));
    expect(problems).toEqual([]);
  });
});

describe("dashboard: API tokens for CI (product §6)", () => {
  for (const [label, viewport] of [["1280", undefined], ["390", PHONE]] as const) {
    test(`at ${label} px: scopes are chosen when a token is made and shown in the list; the token then pushes with the client's line`, async () => {
      const pid = await f.api.project(`CI ${label}`, "en");
      const { page, problems } = await f.page(viewport);
      await page.goto(`/dashboard/projects/${pid}/tokens`);
      await page.getByLabel("Name").fill("GitHub Actions");
      await page.getByRole("checkbox", { name: /^read/ }).uncheck();
      await page.getByRole("checkbox", { name: /^write/ }).check();
      await page.getByRole("checkbox", { name: /^publish/ }).check();
      await page.getByRole("button", { name: "Create token" }).click();
      await page.getByText("Copy it now: it is shown only once.").waitFor();
      const token = await page.getByTestId("new-token").inputValue();
      // No read scope: no curl line for the public API; the client's line instead.
      expect(await page.getByTestId("curl-line").count()).toBe(0);
      expect(await page.getByTestId("client-line").inputValue()).toBe(`PHRASEBOOK_SERVER=${f.server.url} PHRASEBOOK_TOKEN=${token} phrasebook push`);
      const row = page.getByRole("row", { name: /GitHub Actions/ });
      expect((await row.locator(".scope-list .badge").allTextContents())).toEqual(["write", "publish"]);
      await row.getByText("never").waitFor();
      // The new form is back to read alone.
      expect(await page.getByRole("checkbox", { name: /^read/ }).isChecked()).toBe(true);
      expect(await page.getByRole("checkbox", { name: /^write/ }).isChecked()).toBe(false);

      // Used by CI: the list shows when, after a reload.
      const push = await fetch(`${f.server.url}/dashboard/api/projects/${pid}/import`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ language_code: "en", format: "json", content: '{"hello":"Hello"}' }),
      });
      expect(push.status).toBe(200);
      await page.reload();
      await page.getByRole("row", { name: /GitHub Actions/ }).getByText("never").waitFor({ state: "detached" });

      // No scope at all is refused in place, naming the field.
      await page.getByLabel("Name").fill("Nothing");
      await page.getByRole("checkbox", { name: /^read/ }).uncheck();
      await page.getByRole("button", { name: "Create token" }).click();
      await page.getByRole("form", { name: "New token" }).getByRole("alert").getByText(/scopes/).waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      expect(problems).toEqual([]);
    });
  }
});

describe("dashboard: users", () => {
  test("an admin adds a user, changes the role, sees a duplicate refused in place, and deletes the user", async () => {
    const { page, problems } = await f.page();
    await page.getByRole("link", { name: "Users" }).click();
    await page.getByRole("heading", { name: "Users" }).waitFor();
    // The admin cannot demote or delete themself from here.
    const me = page.getByRole("row", { name: /you/ });
    expect(await me.getByRole("combobox").count()).toBe(0);

    const add = page.getByRole("form", { name: "Add a user" });
    await add.getByLabel("Name").fill("Tom Translator");
    await add.getByLabel("Email").fill("tom@example.test");
    await add.getByLabel("Password").fill("tom's password");
    await add.getByRole("button", { name: "Add user" }).click();
    const tom = page.getByRole("row", { name: /tom@example.test/ });
    await tom.waitFor();
    expect(await tom.getByRole("combobox").inputValue()).toBe("member");

    await tom.getByRole("combobox").selectOption("admin");
    await eventually(async () => {
      const users = (await f.api.get("/users")).body.items as { email: string; role: string }[];
      return users.find((u) => u.email === "tom@example.test")?.role === "admin" ? true : undefined;
    });

    const again = page.getByRole("form", { name: "Add a user" });
    await again.getByLabel("Name").fill("Tom again");
    await again.getByLabel("Email").fill("TOM@example.test");
    await again.getByLabel("Password").fill("another password");
    await again.getByRole("button", { name: "Add user" }).click();
    await again.getByRole("alert").getByText("A user with email tom@example.test already exists").waitFor();

    await page.getByRole("button", { name: "Delete tom@example.test" }).click();
    expect(await page.getByRole("dialog").textContent()).toContain("Releases they created stay listed");
    await page.getByRole("dialog").getByRole("button", { name: "Delete user" }).click();
    await tom.waitFor({ state: "detached" });
    expect(problems).toEqual([]);
  });

  test("a member sees the team but cannot add, change or delete users", async () => {
    await f.api.post("/users", { email: "max@example.test", name: "Max", password: "member password", role: "member" });
    const { page } = await f.page(undefined, "max@example.test", "member password");
    await page.goto("/dashboard/users");
    await page.getByText("Only admins can add users or change roles.").waitFor();
    expect(await page.getByRole("combobox").count()).toBe(0);
    expect(await page.getByRole("button", { name: /Delete/ }).count()).toBe(0);
  });
});
