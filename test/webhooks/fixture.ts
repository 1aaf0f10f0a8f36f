/**
 * Shared setup of the webhook tests: the app in-process with its webhook sender running on the
 * real clock, trusting the test CA of the real HTTPS receivers, and polling helpers that read the
 * delivery log through the dashboard API.
 */
import { systemClock } from "../../src/common/clock.ts";
import type { HttpFetch } from "../../src/deps.ts";
import { startWebhooks, type RunningWebhooks } from "../../src/webhooks/runtime.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { testCa } from "../helpers/https-receiver.ts";
import { eventually } from "../helpers/wait.ts";

/** Scaled retry gaps (seconds) for process tests: 5 attempts take about 2 s instead of 6 minutes. */
export const FAST_RETRY_DELAYS = "0.2,0.4,0.6,0.8";

/**
 * The smallest gaps in-process tests use: still four different gaps, each far above the timer
 * resolution, so a gap taken from the wrong attempt or measured from the wrong moment shows; all
 * five attempts of a failing delivery take about half a second.
 */
export const RETRY_GAPS_MS = [50, 100, 150, 200];
export const TEST_RETRY_DELAYS = RETRY_GAPS_MS.map((ms) => ms / 1000).join(",");
/** Time for every retry of a delivery to have happened, and then some. */
export const ALL_RETRIES_MS = RETRY_GAPS_MS.reduce((a, b) => a + b) + 300;

export interface WebhookHarness {
  t: TestApp;
  webhooks: RunningWebhooks;
  client: DashboardClient;
  pid: string;
  /** Stops the sender (waiting for attempts in flight, up to the receiver timeout), then the app. */
  stop(): Promise<void>;
}

/**
 * The app with the sender and retention job started as the server starts them, on the system
 * clock (the sender waits for due times on it), allowed to reach 127.0.0.1 unless `env` says
 * otherwise, with a logged-in admin and a project "Shop" (en, de).
 */
export async function startWebhookApp(env: Record<string, string> = {}, options: { fetch?: HttpFetch } = {}): Promise<WebhookHarness> {
  const t = await testApp({
    clock: systemClock,
    fetch: options.fetch,
    env: {
      PHRASEBOOK_WEBHOOK_RETRY_DELAYS: TEST_RETRY_DELAYS,
      PHRASEBOOK_WEBHOOK_TIMEOUT: "2",
      PHRASEBOOK_WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
      ...env,
    },
  });
  const webhooks = startWebhooks(t.deps, { ca: testCa().caPem });
  const client = await t.login();
  const pid = await client.project("Shop", "en", ["de"]);
  return {
    t,
    webhooks,
    client,
    pid,
    async stop() {
      await webhooks.stop();
      await t.close();
    },
  };
}

type Harness = Pick<WebhookHarness, "client" | "pid">;

export async function addEndpoint(h: Harness, url: string, events: string[], secret?: string): Promise<string> {
  const r = await h.client.post(`/projects/${h.pid}/webhooks`, secret === undefined ? { url, events } : { url, events, secret });
  if (r.status !== 201) throw new Error(`endpoint create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

/** Polls the delivery log until `done` holds for the delivery, or fails with what it last saw. */
export async function waitForDelivery(h: Harness, did: string, done: (d: any) => boolean, timeoutMs = 15_000): Promise<any> {
  let last: any;
  return eventually(
    async () => {
      const r = await h.client.get(`/projects/${h.pid}/deliveries/${did}`);
      last = r.body;
      return r.status === 200 && done(r.body) && r.body;
    },
    { timeoutMs, what: () => `delivery ${did} in the expected state; last seen: ${JSON.stringify(last).slice(0, 2000)}` },
  );
}

export async function deliveriesOf(h: Harness, wid: string): Promise<any[]> {
  const r = await h.client.get(`/projects/${h.pid}/webhooks/${wid}/deliveries`);
  if (r.status !== 200) throw new Error(`deliveries list failed: ${r.status}`);
  return r.body.items;
}

/** Waits until the endpoint has `count` deliveries and returns them, newest first. */
export async function waitForDeliveries(h: Harness, wid: string, count: number, timeoutMs = 10_000): Promise<any[]> {
  let seen = 0;
  return eventually(
    async () => {
      const items = await deliveriesOf(h, wid);
      seen = items.length;
      return items.length >= count && items;
    },
    { timeoutMs, what: () => `endpoint has ${seen} of ${count} deliveries` },
  );
}

/** Sends a test event (interface §6.5: the same path as real events) and returns its delivery id. */
export async function fire(h: Harness, wid: string, event = "key_created"): Promise<string> {
  const r = await h.client.post(`/projects/${h.pid}/webhooks/${wid}/test`, { event });
  if (r.status !== 202) throw new Error(`test event failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.delivery_id;
}

export const isFinished = (d: any) => d.status !== "pending";
