/** Shared setup of the webhook end-to-end tests: a server that trusts the test CA, and polling helpers. */
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { testCa } from "../helpers/https-receiver.ts";
import { startServer, type TestServer } from "../helpers/server.ts";

/** Scaled retry gaps (seconds) so that 5 attempts take about 2 s instead of 6 minutes. */
export const FAST_RETRY_DELAYS = "0.2,0.4,0.6,0.8";

export interface WebhookHarness {
  server: TestServer;
  client: DashboardClient;
  pid: string;
}

export async function startWebhookServer(env: Record<string, string> = {}): Promise<WebhookHarness> {
  const server = await startServer({
    env: {
      NODE_EXTRA_CA_CERTS: testCa().caFile,
      PHRASEBOOK_WEBHOOK_RETRY_DELAYS: FAST_RETRY_DELAYS,
      PHRASEBOOK_WEBHOOK_TIMEOUT: "2",
      PHRASEBOOK_WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
      PHRASEBOOK_LOG_REQUESTS: "false",
      ...env,
    },
  });
  const client = await DashboardClient.loggedIn(server.url);
  const pid = await client.project("Shop", "en", ["de"]);
  return { server, client, pid };
}

export async function addEndpoint(h: WebhookHarness, url: string, events: string[], secret?: string): Promise<string> {
  const r = await h.client.post(`/projects/${h.pid}/webhooks`, secret === undefined ? { url, events } : { url, events, secret });
  if (r.status !== 201) throw new Error(`endpoint create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

/** Polls the delivery log until `done` holds for the delivery, or fails with what it last saw. */
export async function waitForDelivery(h: WebhookHarness, did: string, done: (d: any) => boolean, timeoutMs = 15_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    const r = await h.client.get(`/projects/${h.pid}/deliveries/${did}`);
    last = r.body;
    if (r.status === 200 && done(r.body)) return r.body;
    await Bun.sleep(50);
  }
  throw new Error(`delivery ${did} did not reach the expected state; last seen: ${JSON.stringify(last).slice(0, 2000)}`);
}

export async function deliveriesOf(h: WebhookHarness, wid: string): Promise<any[]> {
  const r = await h.client.get(`/projects/${h.pid}/webhooks/${wid}/deliveries`);
  if (r.status !== 200) throw new Error(`deliveries list failed: ${r.status}`);
  return r.body.items;
}

/** Waits until the endpoint has `count` deliveries and returns them, newest first. */
export async function waitForDeliveries(h: WebhookHarness, wid: string, count: number, timeoutMs = 10_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = await deliveriesOf(h, wid);
    if (items.length >= count) return items;
    if (Date.now() > deadline) throw new Error(`endpoint has ${items.length} of ${count} deliveries`);
    await Bun.sleep(50);
  }
}

export const isFinished = (d: any) => d.status !== "pending";
