/**
 * Single sign-on in the browser, as a person does it (docs/dashboard.md "Login"):
 * the compiled server, a real provider on loopback (oidc-provider), and Chromium clicking through
 * both; the audit log page shows what happened. The rules of the flow are test/accounts/oidc.test.ts.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { freePort, serverCommand, startServer, type TestServer } from "../helpers/server.ts";
import type { TestProvider } from "../helpers/oidc-provider.ts";
import { oidcEnv, people, providerFor } from "../accounts/oidc-world.ts";
import { BROWSER_TEST_TIMEOUT_MS, launchBrowser, openPage, type OpenPage, type TestBrowser } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

let browser: TestBrowser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A server on a port chosen first, so the provider knows its redirect URI, with the provider beside it. */
async function withSso(env: Record<string, string>, body: (server: TestServer, provider: TestProvider) => Promise<void>): Promise<void> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const provider = await providerFor(people(), { origin });
  const server = await startServer({ port, env: { ...oidcEnv(provider), ...env } });
  try {
    await body(server, provider);
  } finally {
    await server.stop();
    await provider.stop();
  }
}

/** Page problems, but for the visit to the provider, which is the point of single sign-on. */
function problemsBesides(tab: OpenPage, provider: TestProvider): string[] {
  return tab.problems.filter((p) => !p.includes(provider.issuer));
}

async function signInAtProvider(tab: OpenPage, login: string): Promise<void> {
  const { page } = tab;
  await page.getByRole("link", { name: "Sign in with Example SSO" }).click();
  await page.getByRole("heading", { name: "Test identity provider" }).waitFor();
  await page.getByLabel("Username").fill(login);
  await page.getByRole("button", { name: "Sign in at the provider" }).click();
}

describe("dashboard: single sign-on", () => {
  test("a person signs in at the provider, lands on the page they asked for, and an admin reads the audit log", () =>
    withSso({}, async (server, provider) => {
      // A refusal first: an unverified email comes back to the login page with the reason.
      const refused = await openPage(browser, server);
      await refused.page.goto("/dashboard");
      await refused.page.getByRole("heading", { name: "Log in to Phrasebook" }).waitFor();
      await signInAtProvider(refused, "eve");
      await refused.page.getByRole("alert").getByText("Your email address is not verified by the identity provider.").waitFor();
      expect(new URL(refused.page.url()).pathname).toBe("/dashboard/login");
      expect(server.query("SELECT count(*) AS n FROM users WHERE email = 'eve@example.test'")).toEqual([{ n: 0 }]);
      await refused.context.close();

      const tab = await openPage(browser, server);
      const { page } = tab;
      await page.goto("/dashboard/users");
      await page.getByRole("heading", { name: "Log in to Phrasebook" }).waitFor();
      // Both ways are offered: the button and the password form.
      await page.getByLabel("Password").waitFor();
      await signInAtProvider(tab, "ada");
      await page.getByRole("heading", { name: "Users" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/dashboard/users");
      await page.getByRole("row", { name: /Ada Admin/ }).waitFor();
      await page.getByText("admin", { exact: true }).first().waitFor();

      await page.getByRole("link", { name: "Audit log" }).click();
      await page.getByRole("heading", { name: "Audit log" }).waitFor();
      const log = page.getByRole("table", { name: "Audit log" });
      await log.getByRole("row", { name: /sign_in_failed/ }).waitFor();
      await log.getByRole("row", { name: /sign_in .*Ada Admin/ }).waitFor();
      await page.getByLabel("Action").selectOption("sign_in_failed");
      await page.waitForURL(/action=sign_in_failed/);
      // The filtered list replaces the whole one once its answer is in: until then the old rows,
      // sign_in_failed among them, are still shown. Waits for the other actions' rows to go.
      await log.getByRole("row", { name: /user_created/ }).first().waitFor({ state: "detached" });
      await log.getByRole("row", { name: /sign_in_failed/ }).first().waitFor();
      expect(await log.getByRole("row", { name: /user_created/ }).count()).toBe(0);

      // Logging out ends the provider's session too, which sends the browser back to the login page.
      await page.getByRole("button", { name: "Log out" }).click();
      await page.waitForURL(new RegExp(`^${provider.issuer}/session/end`));
      await page.getByRole("button", { name: /sign me out/i }).click();
      await page.getByRole("heading", { name: "Log in to Phrasebook" }).waitFor();
      expect(problemsBesides(tab, provider)).toEqual([]);
      await tab.context.close();
    }));

  test("with password sign-in off, the form is gone but for break-glass accounts, which are marked in the user list", () =>
    withSso({ PHRASEBOOK_PASSWORD_LOGIN: "false" }, async (server) => {
      const made = Bun.spawnSync([...serverCommand(), "user", "create", "--email", "glass@example.test", "--name", "Break Glass", "--role", "admin"], {
        env: { ...server.env, PHRASEBOOK_PASSWORD: "break-glass-password" },
        cwd: server.dataDir,
      });
      expect(made.stdout.toString()).toContain("break-glass");
      const tab = await openPage(browser, server);
      const { page } = tab;
      await page.goto("/dashboard/login");
      await page.getByRole("link", { name: "Sign in with Example SSO" }).waitFor();
      expect(await page.getByLabel("Password").isVisible()).toBe(false);
      await page.getByRole("button", { name: "Sign in with a break-glass account" }).click();
      await page.getByLabel("Email").fill("glass@example.test");
      await page.getByLabel("Password").fill("break-glass-password");
      await page.getByRole("button", { name: "Log in" }).click();
      await page.getByRole("heading", { name: "Projects" }).waitFor();
      await page.getByRole("link", { name: "Users" }).click();
      await page.getByRole("row", { name: /Break Glass/ }).getByText("break-glass").waitFor();
      expect(await page.getByRole("row", { name: /Admin/ }).first().getByText("break-glass").count()).toBe(0);
      expect(tab.problems).toEqual([]);
      await tab.context.close();
    }));
});
