/**
 * The dashboard (docs/dashboard.md): the whole flow a new user takes, in a real browser against the real server:
 * log in, create a project, add a language, add keys, translate, approve, create and publish a
 * release, open a download URL, create a token and call the public API with it, add a webhook
 * endpoint and see a delivery in the log.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { startReceiver, testCa, type Receiver } from "../helpers/https-receiver.ts";
import { startServer, type TestServer } from "../helpers/server.ts";
import { BROWSER_TEST_TIMEOUT_MS, gridCell, launchBrowser, logIn, openPage, type OpenPage, type TestBrowser } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

let server: TestServer;
let browser: TestBrowser;
let receiver: Receiver;
let tab: OpenPage;

beforeAll(async () => {
  receiver = await startReceiver({ handler: () => Response.json({ thanks: true }) });
  server = await startServer({
    env: { PHRASEBOOK_WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", NODE_EXTRA_CA_CERTS: testCa().caFile, PHRASEBOOK_WEBHOOK_RETRY_DELAYS: "0.2,0.2,0.2,0.2" },
  });
  browser = await launchBrowser();
  tab = await openPage(browser, server);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await receiver?.stop();
});

test("dashboard flow: log in, project, language, keys, translate, approve, publish, download, token + API, webhook delivery log", async () => {
  const { page, problems } = tab;

  // Log in and create a project.
  await logIn(page);
  await page.getByText("No projects yet.").waitFor();
  await page.getByLabel("Name").fill("Travel app");
  await page.getByLabel("Base language").fill("en");
  await page.getByRole("button", { name: "Create project" }).click();
  await page.getByRole("heading", { name: "Travel app" }).waitFor();
  await page.getByText("No keys yet.").waitFor();

  // Add a language through the picker, which names what was typed.
  await page.getByRole("link", { name: "Languages" }).click();
  await page.getByLabel("Language code").fill("pt-br");
  await page.getByText("Brazilian Portuguese (pt-BR)").waitFor();
  await page.getByRole("button", { name: "Add language" }).click();
  await page.getByRole("cell", { name: "pt-BR", exact: true }).waitFor();

  // Add two keys and translate them in the grid; approve one translation.
  await page.getByRole("link", { name: "Keys" }).click();
  for (const [key, en, pt] of [
    ["trip.greeting", "Hello, {name}!", "Olá, {name}!"],
    ["trip.count", "{count, plural, one {# trip} other {# trips}}", "{count, plural, one {# viagem} other {# viagens}}"],
  ]) {
    await page.getByLabel("New key").fill(key!);
    await page.getByRole("button", { name: "Add key" }).click();
    await gridCell(page, "en", key!).fill(en!);
    await gridCell(page, "pt-BR", key!).click(); // leaving the en cell saves it
    await gridCell(page, "pt-BR", key!).fill(pt!);
    await gridCell(page, "en", key!).click();
  }
  await page.getByLabel("New key").click();
  const approve = page.getByRole("button", { name: "Approve pt-BR translation of trip.greeting" });
  await approve.click();
  await approve.waitFor({ state: "hidden" });
  await page.getByRole("img", { name: "pt-BR: 2 of 2 translated, 1 approved" }).waitFor();

  // Create a release and publish it; the confirmation says what ships.
  await page.getByRole("link", { name: "Releases" }).click();
  await page.getByText("No releases yet.").waitFor();
  await page.getByLabel("Name").fill("First trip");
  await page.getByLabel("Tag").fill("v1.0.0");
  await page.getByRole("button", { name: "Create draft" }).click();
  await page.getByRole("button", { name: "Publish…" }).click();
  const dialog = page.getByRole("dialog");
  expect(await dialog.textContent()).toContain("Publishing snapshots 2 keys in 2 languages and writes 6 files");
  await dialog.getByRole("button", { name: "Publish now" }).click();
  await page.getByRole("heading", { name: "Download URLs" }).waitFor();

  // Open a download URL (the Open link next to the pt-BR JSON URL).
  const jsonUrl = await page.getByLabel("pt-BR JSON URL", { exact: true }).first().inputValue();
  expect(jsonUrl).toStartWith(`${server.url}/cdn/p/`);
  const [download] = await Promise.all([page.waitForEvent("popup"), page.getByRole("link", { name: "Open pt-BR.json" }).first().click()]);
  await download.waitForLoadState();
  expect(JSON.parse(await download.locator("body").innerText())).toEqual({
    "trip.count": "{count, plural, one {# viagem} other {# viagens}}",
    "trip.greeting": "Olá, {name}!",
  });
  await download.close();

  // Create a token; the shown-once value and the curl line work against the public API.
  await page.getByRole("link", { name: "API tokens" }).click();
  await page.getByText("No tokens yet.").waitFor();
  await page.getByLabel("Name").fill("CI");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = await page.getByTestId("new-token").inputValue();
  expect(token).toStartWith("pb_");
  const curl = await page.getByTestId("curl-line").inputValue();
  const run = Bun.spawnSync(["bash", "-c", `${curl} --silent --fail`], { stdout: "pipe", stderr: "pipe" });
  expect(run.exitCode).toBe(0);
  const releases = JSON.parse(run.stdout.toString());
  expect(releases.items.map((r: { tag: string }) => r.tag)).toEqual(["v1.0.0"]);

  // Add a webhook endpoint, send a test event, and see the delivery in the log.
  await page.getByRole("link", { name: "Integrations" }).click();
  await page.getByText("No webhook endpoints yet.").waitFor();
  await page.getByLabel("Endpoint URL").fill(receiver.url("/hooks"));
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByText("No deliveries yet.").waitFor();
  await page.getByRole("button", { name: "Send test event" }).click();
  await page.getByRole("link", { name: "release_published" }).click();
  await page.getByText("HTTP 200").waitFor({ timeout: 10_000 });
  await page.getByText('{"thanks":true}').waitFor();
  expect(receiver.requests.at(-1)!.headers["x-service-event"]).toBe("release_published");

  expect(problems).toEqual([]);
});
