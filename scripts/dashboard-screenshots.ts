/**
 * Regenerates docs/screenshots/*.png from a fresh `phrasebook demo`, driven by the same Chromium
 * setup as the browser tests: `bun scripts/dashboard-screenshots.ts` (PHRASEBOOK_BIN=dist/phrasebook
 * to shoot the compiled binary). A webhook endpoint on a local HTTPS receiver gives the
 * integrations pages a real delivery to show.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { DESKTOP, launchBrowser, logIn, openPage, PHONE } from "../test/dashboard/browser.ts";
import { DashboardClient } from "../test/helpers/dashboard-client.ts";
import { startReceiver, testCa } from "../test/helpers/https-receiver.ts";
import { ROOT, startServer } from "../test/helpers/server.ts";

const OUT = join(ROOT, "docs", "screenshots");
mkdirSync(OUT, { recursive: true });

const receiver = await startReceiver({ handler: () => Response.json({ received: true }) });
const server = await startServer({
  args: ["demo"],
  env: { PHRASEBOOK_WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", NODE_EXTRA_CA_CERTS: testCa().caFile, PHRASEBOOK_WEBHOOK_RETRY_DELAYS: "0.2,0.2,0.2,0.2" },
});
const browser = await launchBrowser();

async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage });
  console.log(`docs/screenshots/${name}.png`);
}

try {
  const api = await DashboardClient.loggedIn(server.url);
  const pid: string = (await api.get("/projects")).body.items[0].id;
  const releases = (await api.get(`/projects/${pid}/releases`)).body.items as { id: string; status: string }[];
  const published = releases.find((r) => r.status === "published")!;
  const hook = await api.post(`/projects/${pid}/webhooks`, { url: receiver.url("/phrasebook"), events: ["release_published", "translation_approved"] });
  await api.post(`/projects/${pid}/webhooks/${hook.body.id}/test`, { event: "release_published" });
  await receiver.waitFor(1);

  const { page, context } = await openPage(browser, server, DESKTOP);
  await page.goto("/dashboard/login");
  await shot(page, "login");
  await logIn(page);
  await shot(page, "projects");
  await page.goto(`/dashboard/projects/${pid}/keys`);
  await page.getByRole("table").waitFor();
  await shot(page, "keys");
  await page.goto(`/dashboard/projects/${pid}/releases/${published.id}`);
  await page.getByRole("heading", { name: "Download URLs" }).waitFor();
  await shot(page, "release", true);
  await page.goto(`/dashboard/projects/${pid}/releases`);
  await shot(page, "releases", true);
  await page.goto(`/dashboard/projects/${pid}/tokens`);
  await page.getByLabel("Name").fill("Website build");
  await page.getByRole("button", { name: "Create token" }).click();
  await page.getByText("shown only once").waitFor();
  await shot(page, "tokens");
  await page.goto(`/dashboard/projects/${pid}/integrations/${hook.body.id}`);
  await page.getByRole("link", { name: "release_published" }).first().click();
  await page.getByRole("heading", { name: "Attempts" }).waitFor();
  await shot(page, "delivery", true);
  await page.goto(`/dashboard/projects/${pid}/languages`);
  await shot(page, "languages");
  await context.close();

  const phone = await openPage(browser, server, PHONE);
  await logIn(phone.page);
  await phone.page.goto(`/dashboard/projects/${pid}/keys`);
  await phone.page.getByRole("table").waitFor();
  // Show the cards the grid becomes on a phone, not just the header above them.
  await phone.page.locator(".search-row").evaluate((el) => el.scrollIntoView());
  await shot(phone.page, "keys-phone");
  await phone.context.close();
} finally {
  await browser.close();
  await server.stop();
  await receiver.stop();
}
