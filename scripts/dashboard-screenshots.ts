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

  // The editor for real teams (docs/dashboard.md "The key grid"): a filter with its counts, the
  // languages shown, one language at a time, plural forms, and a key's history.
  await page.goto(`/dashboard/projects/${pid}/keys?status=missing&lang=pt-BR`);
  await page.getByText("keys missing in Brazilian Portuguese").waitFor();
  await page.getByRole("radio", { name: /^Missing \d/ }).waitFor();
  await shot(page, "keys-filter");
  // The language picker is shown on a project of 13 languages (the demo has 3).
  const travel = await api.project("Travel app", "en", ["de", "es", "fr", "it", "ja", "ko", "nl", "pl", "pt-BR", "sv", "tr", "zh-Hans"]);
  for (const [key, en, de, fr] of [
    ["booking.confirm", "Confirm booking", "Buchung bestätigen", "Confirmer la réservation"],
    ["booking.nights", "{count, plural, one {# night} other {# nights}}", "{count, plural, one {# Nacht} other {# Nächte}}", "{count, plural, one {# nuit} many {# de nuits} other {# nuits}}"],
    ["search.placeholder", "Where to?", "Wohin?", "Où aller ?"],
  ]) await api.key(travel, key!, { en: en!, de: de!, fr: fr! });
  await api.put(`/projects/${travel}/editor-preferences`, { languages: ["de", "fr", "pl"] });
  await page.goto(`/dashboard/projects/${travel}/keys`);
  await page.getByRole("button", { name: /^Languages:/ }).click();
  await page.getByRole("checkbox", { name: /de German/ }).waitFor();
  await shot(page, "keys-languages");
  await page.goto(`/dashboard/projects/${pid}/translate?lang=pt-BR&status=missing`);
  await page.locator(".translate").waitFor();
  await page.keyboard.type("Este campo é obrigatório");
  await shot(page, "translate");
  await page.goto(`/dashboard/projects/${pid}/translate?lang=pt-BR&status=&q=cart.items_count`);
  await page.getByRole("textbox", { name: "pt-BR translation of cart.items_count, count many" }).waitFor();
  await shot(page, "plural-forms");
  // A change by a token and one by the admin, so the history has several kinds of entries.
  const key = (await api.get(`/projects/${pid}/keys?search=app.title`)).body.items[0];
  const writer = (await api.post(`/projects/${pid}/tokens`, { name: "CI sync", scopes: ["write"] })).body.token;
  await fetch(`${server.url}/dashboard/api/projects/${pid}/keys/${key.id}/translations/pt-BR`, {
    method: "PUT",
    headers: { authorization: `Bearer ${writer}`, "content-type": "application/json" },
    body: JSON.stringify({ value: "Loja de demonstração" }),
  });
  await api.put(`/projects/${pid}/keys/${key.id}/translations/pt-BR`, { value: "Loja Demo!" });
  await page.goto(`/dashboard/projects/${pid}/keys?q=app.title`);
  await page.getByRole("button", { name: "History of app.title" }).click();
  await page.getByRole("dialog").locator(".history-entry").first().waitFor();
  await shot(page, "history");
  await context.close();

  const phone = await openPage(browser, server, PHONE);
  await logIn(phone.page);
  await phone.page.goto(`/dashboard/projects/${pid}/keys`);
  await phone.page.getByRole("table").waitFor();
  // Show the cards the grid becomes on a phone, not just the header above them.
  await phone.page.locator(".search-row").evaluate((el) => el.scrollIntoView());
  await shot(phone.page, "keys-phone");
  await phone.page.goto(`/dashboard/projects/${pid}/translate?lang=pt-BR&status=&q=cart.items_count`);
  await phone.page.locator(".translate").waitFor();
  await phone.page.locator(".translate").evaluate((el) => el.scrollIntoView());
  await shot(phone.page, "translate-phone");
  await phone.context.close();
} finally {
  await browser.close();
  await server.stop();
  await receiver.stop();
}
