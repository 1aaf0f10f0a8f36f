/**
 * The integrations page (interface §6.5): webhook endpoints (URL, events, secret), the failing badge with the
 * count of consecutive failures, the delivery log with each attempt's request headers, payload,
 * response status and body (marked when truncated), duration and reason; redeliver; test event.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startReceiver, testCa, type Receiver } from "../helpers/https-receiver.ts";
import { BROWSER_TEST_TIMEOUT_MS, eventually, useDashboard } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

/** Longer than the 8 KB the log keeps of a response body (interface §6.5). */
const LONG_BODY = "x".repeat(9000);

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.stop();
});

const f = useDashboard({
  env: { PHRASEBOOK_WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", NODE_EXTRA_CA_CERTS: testCa().caFile, PHRASEBOOK_WEBHOOK_RETRY_DELAYS: "0.1,0.1,0.1,0.1" },
});

describe("dashboard: integrations", () => {
  test("saving checks the URL where it was typed: plain http is refused", async () => {
    const pid = await f.api.project("Http", "en");
    const { page } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/integrations`);
    await page.getByText("No webhook endpoints yet.").waitFor();
    await page.getByLabel("Endpoint URL").fill("http://example.com/hook");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const alert = page.getByRole("form", { name: "Add a webhook endpoint" }).getByRole("alert");
    expect(await alert.textContent()).toContain("https");
    expect((await f.api.get(`/projects/${pid}/webhooks`)).body.items).toEqual([]);
  });

  test("a failing endpoint shows its count of consecutive failures; the log shows every attempt; redeliver makes a new delivery", async () => {
    receiver.handler = () => new Response(LONG_BODY, { status: 500 });
    const pid = await f.api.project("Failing", "en");
    const { page, problems } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/integrations`);
    await page.getByLabel("Endpoint URL").fill(receiver.url("/failing"));
    await page.getByText("Select all").click();
    await page.getByLabel("Secret (optional)").fill("s3cret-for-signing");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByText("No deliveries yet.").waitFor();
    const wid = page.url().split("/").pop()!;
    const endpoint = (await f.api.get(`/projects/${pid}/webhooks/${wid}`)).body;
    expect(endpoint.events).toHaveLength(10);
    expect(endpoint.has_secret).toBe(true);

    await f.api.key(pid, "hello"); // key_created, delivered 5 times, failing every time
    await eventually(async () => ((await f.api.get(`/projects/${pid}/webhooks/${wid}`)).body.consecutive_failures === 5 ? true : undefined));

    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Integrations" }).click();
    await page.getByText("failing · 5 in a row").waitFor();
    await page.getByRole("link", { name: receiver.url("/failing") }).click();
    const row = page.getByRole("row", { name: /key_created/ });
    await row.getByText("failed").waitFor();
    expect(await row.getByRole("cell").nth(2).textContent()).toBe("5");

    await row.getByRole("link", { name: "key_created" }).click();
    await page.getByRole("heading", { name: "Attempts" }).waitFor();
    expect(await page.locator(".attempt").count()).toBe(5);
    expect(await page.getByText("HTTP 500", { exact: true }).count()).toBe(5);
    expect(await page.getByText("truncated at 8 KB").count()).toBe(5);
    expect(await page.locator("pre.body").first().textContent()).toContain('"event": "key_created"');
    const attempt = page.locator(".attempt").first();
    await attempt.getByText("Request headers").click();
    await attempt.getByText("x-service-signature").waitFor();
    await attempt.getByText(/\d+ ms/).waitFor();
    const firstId = await page.getByRole("textbox", { name: "delivery id" }).inputValue();

    receiver.handler = () => Response.json({ ok: true });
    await page.getByRole("button", { name: "Redeliver" }).click();
    await page.getByText("Redelivery of").waitFor();
    expect(await page.getByRole("textbox", { name: "delivery id" }).inputValue()).not.toBe(firstId);
    await page.getByText("HTTP 200", { exact: true }).waitFor();
    await page.getByRole("link", { name: "Endpoint" }).click();
    await page.getByText("healthy").waitFor();
    expect(problems).toEqual([]);
  });

  test("a refused address is a failed attempt with its reason in the log", async () => {
    const pid = await f.api.project("Refused", "en");
    // Private and not in PHRASEBOOK_WEBHOOK_ALLOW_CIDRS: saved (product §5), refused on connect.
    const hook = (await f.api.post(`/projects/${pid}/webhooks`, { url: "https://10.1.2.3/hook", events: ["release_published"] })).body;
    const { page } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/integrations/${hook.id}`);
    await page.getByRole("button", { name: "Send test event" }).click();
    await page.getByRole("link", { name: "release_published" }).click();
    await page.getByText("failed", { exact: true }).waitFor();
    await page.getByText("no response").first().waitFor();
    const reason = await page.locator(".attempt p.error").first().textContent();
    expect(reason).toMatch(/10\.1\.2\.3|private|refused/i);
  });

  test("edit an endpoint: events, enabled, remove the secret; delete it", async () => {
    const pid = await f.api.project("Edit hooks", "en");
    const hook = (await f.api.post(`/projects/${pid}/webhooks`, { url: receiver.url("/edit"), events: ["key_created"], secret: "abc" })).body;
    const { page } = await f.page();
    await page.goto(`/dashboard/projects/${pid}/integrations/${hook.id}`);
    await page.getByLabel("release_published").check();
    await page.getByLabel("Enabled").uncheck();
    await page.getByLabel("Remove the secret").check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("disabled", { exact: true }).first().waitFor();
    const saved = (await f.api.get(`/projects/${pid}/webhooks/${hook.id}`)).body;
    expect(saved).toMatchObject({ events: ["key_created", "release_published"], enabled: false, has_secret: false });

    await page.getByRole("button", { name: "Delete endpoint…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete endpoint" }).click();
    await page.getByText("No webhook endpoints yet.").waitFor();
  });
});
