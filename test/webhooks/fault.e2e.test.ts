/**
 * Product §5 and interface §6.4 rule 3 under faults, so with the real server process: it is killed
 * with SIGKILL while deliveries are pending, in flight and possibly still in the outbox; after a
 * restart on the same data dir every event arrives, under the delivery id it had before, and no
 * restart sends a delivery twice in a row. A SIGTERM stops gracefully and leaves the unfinished
 * attempt scheduled.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startReceiver, testCa, type Receiver } from "../helpers/https-receiver.ts";
import { SHUTDOWN_GRACE_MS } from "../../src/webhooks/sender.ts";
import { startServer, tempDir, type TestServer } from "../helpers/server.ts";
import { eventually } from "../helpers/wait.ts";
import { FAST_RETRY_DELAYS } from "./fixture.ts";

// Real servers and receivers on a shared 2-core machine: room beyond the 5 s default.
setDefaultTimeout(20_000);

const EVENTS = 30;
const MIN_RETRY_GAP_MS = Number(FAST_RETRY_DELAYS.split(",")[0]) * 1000;

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

function env(timeoutSeconds = 2): Record<string, string> {
  return {
    NODE_EXTRA_CA_CERTS: testCa().caFile,
    PHRASEBOOK_WEBHOOK_RETRY_DELAYS: FAST_RETRY_DELAYS,
    PHRASEBOOK_WEBHOOK_TIMEOUT: String(timeoutSeconds),
    PHRASEBOOK_WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
    PHRASEBOOK_LOG_REQUESTS: "false",
  };
}

async function boot(dataDir: string, timeoutSeconds?: number): Promise<TestServer> {
  const s = await startServer({ dataDir, env: env(timeoutSeconds) });
  cleanup.push(() => (s.proc.exitCode === null ? s.stop() : undefined));
  return s;
}

test("product §5: after SIGKILL with deliveries pending and in flight, a restart delivers every event with the same delivery ids", async () => {
  const dataDir = tempDir();
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  let healthy = false;
  const answered = new Map<string, string>(); // key -> delivery id that got a 2xx
  const receiver: Receiver = await startReceiver({
    handler: (req, i) => {
      const key = JSON.parse(req.body).data.key as string;
      if (healthy) {
        answered.set(key, req.headers["x-service-delivery"]!);
        return new Response("ok");
      }
      // Before the kill: every third request hangs (in flight at the kill), the rest fail.
      return i % 3 === 0 ? new Promise<Response>(() => {}) : new Response("down", { status: 503 });
    },
  });
  cleanup.push(() => receiver.stop());

  // A 1 s receiver timeout: the leases of attempts in flight at the kill lapse 1 s + LEASE_MARGIN_MS
  // later, and only then are they sent again.
  let server = await boot(dataDir, 1);
  const client = await DashboardClient.loggedIn(server.url);
  const pid = await client.project("Faults", "en");
  expect((await client.post(`/projects/${pid}/webhooks`, { url: receiver.url(), events: ["key_created"], secret: "k" })).status).toBe(201);
  for (let i = 0; i < EVENTS; i++) expect((await client.post(`/projects/${pid}/keys`, { key: `fault.key.${i}` })).status).toBe(201);
  await receiver.waitFor(EVENTS);
  await server.kill("SIGKILL");

  const before = server.query<{ public_id: string; status: string; attempt_count: number }>(
    "SELECT public_id, status, attempt_count FROM deliveries ORDER BY id",
  );
  expect(before.length).toBeGreaterThan(0);
  expect(before.every((d) => d.status === "pending")).toBe(true);
  const idsBefore = new Set(before.map((d) => d.public_id));

  healthy = true;
  server = await boot(dataDir, 1);
  await eventually(() => answered.size >= EVENTS, { timeoutMs: 20_000, intervalMs: 50, what: () => `${answered.size} of ${EVENTS} events answered` });
  expect(answered.size).toBe(EVENTS);

  const after = server.query<{ public_id: string; status: string; payload: string }>(
    "SELECT public_id, status, payload FROM deliveries ORDER BY id",
  );
  expect(after).toHaveLength(EVENTS); // one delivery per event: nothing dispatched twice
  expect(after.every((d) => d.status === "succeeded")).toBe(true);
  for (const id of idsBefore) expect(after.some((d) => d.public_id === id)).toBe(true);
  for (const d of after) expect(answered.get(JSON.parse(d.payload).data.key)).toBe(d.public_id);

  // Every request of a delivery carried its one id, and no two came closer than the first retry gap.
  const byDelivery = new Map<string, number[]>();
  for (const r of receiver.requests) {
    const id = r.headers["x-service-delivery"]!;
    expect(after.some((d) => d.public_id === id)).toBe(true);
    byDelivery.set(id, [...(byDelivery.get(id) ?? []), r.receivedAt]);
  }
  for (const times of byDelivery.values()) {
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(MIN_RETRY_GAP_MS - 20);
  }
  await server.stop();
}, 40_000);

test("interface §6.4: SIGTERM waits briefly for an attempt in flight, then exits and leaves it scheduled", async () => {
  const dataDir = tempDir();
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  let answer = false;
  const receiver = await startReceiver({
    handler: async () => {
      while (!answer) await Bun.sleep(20);
      return new Response("ok");
    },
  });
  cleanup.push(() => receiver.stop());
  // A receiver timeout longer than the test, so that only the shutdown can end the attempt.
  let server = await boot(dataDir, 120);
  const client = await DashboardClient.loggedIn(server.url);
  const pid = await client.project("Shutdown", "en");
  const wid = (await client.post(`/projects/${pid}/webhooks`, { url: receiver.url(), events: ["key_created"] })).body.id;
  const did = (await client.post(`/projects/${pid}/webhooks/${wid}/test`, { event: "key_created" })).body.delivery_id;
  await receiver.waitFor(1);
  const t0 = Date.now();
  server.proc.kill("SIGTERM");
  // It exits on its own grace, with the attempt still unanswered: the limit of waiting here is five
  // times the grace, far short of the receiver timeout, and is no measure of how fast it exits.
  const exited = await Promise.race([server.proc.exited.then(() => true), Bun.sleep(5 * SHUTDOWN_GRACE_MS).then(() => false)]);
  expect(exited, "the server exited with the attempt in flight").toBe(true);
  // It waited for the attempt first: not before the grace was up (a lower bound, which load cannot break).
  expect(Date.now() - t0).toBeGreaterThanOrEqual(SHUTDOWN_GRACE_MS - 100);
  expect(server.query("SELECT status, attempt_count, lease_until FROM deliveries WHERE public_id = ?", did)).toEqual([
    { status: "pending", attempt_count: 0, lease_until: null },
  ]);
  answer = true;
  server = await boot(dataDir);
  await eventually(() => server.query<{ status: string }>("SELECT status FROM deliveries WHERE public_id = ?", did)[0]?.status === "succeeded", { intervalMs: 50, what: "the delivery sent after the restart" });
  expect(server.query("SELECT status, attempt_count FROM deliveries WHERE public_id = ?", did)).toEqual([{ status: "succeeded", attempt_count: 1 }]);
  expect(receiver.requests.map((r) => r.headers["x-service-delivery"])).toEqual([did, did]);
  await server.stop();
}, 30_000);
