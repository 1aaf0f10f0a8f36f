/**
 * The dashboard (docs/dashboard.md): login and logout, and the first-run screen that creates the admin when no user
 * exists (unless the bootstrap settings already did).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server.ts";
import { BROWSER_TEST_TIMEOUT_MS, launchBrowser, openPage, type TestBrowser } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

let browser: TestBrowser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function withServer(env: Record<string, string>, body: (server: TestServer) => Promise<void>): Promise<void> {
  const server = await startServer({ env });
  try {
    await body(server);
  } finally {
    await server.stop();
  }
}

describe("dashboard: login, logout, first run", () => {
  test("with no user and no bootstrap settings, the dashboard asks for the first admin, creates it and logs in", async () => {
    await withServer({ PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" }, async (server) => {
      const { page, context, problems } = await openPage(browser, server);
      await page.goto("/dashboard");
      await page.getByRole("heading", { name: "Welcome to Phrasebook" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/dashboard/setup");
      // Typed straight away: the first field has focus.
      await page.keyboard.type("Ada Admin");
      await page.getByLabel("Email").fill("ada@example.test");
      await page.getByLabel("Password").fill("short");
      await page.getByRole("button", { name: "Create admin and continue" }).click();
      // The browser's own check stops a too-short password before it is sent.
      expect(await page.getByLabel("Password").evaluate((el: HTMLInputElement) => el.validity.tooShort)).toBe(true);
      await page.getByLabel("Password").fill("a long enough password");
      await page.getByRole("button", { name: "Create admin and continue" }).click();
      await page.getByRole("heading", { name: "Projects" }).waitFor();
      await page.getByText("Ada Admin").waitFor();

      // Setup is done: the screen is gone for everyone.
      await page.goto("/dashboard/setup");
      await page.getByRole("heading", { name: "Projects" }).waitFor();
      const other = await openPage(browser, server);
      await other.page.goto("/dashboard/setup");
      await other.page.getByRole("heading", { name: "Log in to Phrasebook" }).waitFor();
      await other.context.close();
      expect(problems).toEqual([]);
      await context.close();
    });
  });

  test("with bootstrap settings there is no first-run screen, only the login", async () => {
    await withServer({}, async (server) => {
      const { page, context } = await openPage(browser, server);
      await page.goto("/dashboard/setup");
      await page.getByRole("heading", { name: "Log in to Phrasebook" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/dashboard/login");
      await context.close();
    });
  });

  test("a wrong password is reported under the form; a deep link survives the login; logout ends the session", async () => {
    await withServer({}, async (server) => {
      const { page, context, problems } = await openPage(browser, server);
      await page.goto("/dashboard/users");
      await page.getByRole("heading", { name: "Log in to Phrasebook" }).waitFor();
      expect(page.url()).toContain("next=%2Fdashboard%2Fusers");

      await page.getByLabel("Email").fill(ADMIN_EMAIL);
      await page.getByLabel("Password").fill("not the password");
      await page.keyboard.press("Enter");
      const alert = page.getByRole("form", { name: "Log in" }).getByRole("alert");
      await alert.getByText("Wrong email or password").waitFor();

      await page.getByLabel("Password").fill(ADMIN_PASSWORD);
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Users" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/dashboard/users");
      expect(await alert.count()).toBe(0);

      // A reload keeps the session (cookie + GET /me).
      await page.reload();
      await page.getByRole("heading", { name: "Users" }).waitFor();

      await page.getByRole("button", { name: "Log out" }).click();
      await page.getByRole("heading", { name: "Log in to Phrasebook" }).waitFor();
      await page.goto("/dashboard");
      await page.getByRole("heading", { name: "Log in to Phrasebook" }).waitFor();
      expect(problems).toEqual([]);
      await context.close();
    });
  });

  test("a ?next= pointing off the dashboard is ignored after login", async () => {
    await withServer({}, async (server) => {
      const { page, context } = await openPage(browser, server);
      await page.goto("/dashboard/login?next=//evil.example/x");
      await page.getByLabel("Email").fill(ADMIN_EMAIL);
      await page.getByLabel("Password").fill(ADMIN_PASSWORD);
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Projects" }).waitFor();
      expect(page.url()).toBe(`${server.url}/dashboard`);
      await context.close();
    });
  });
});
