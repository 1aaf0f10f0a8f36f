/**
 * Interface §6.4 and §6.5 in-process, against real HTTPS receivers: outcomes, retries, redirects,
 * timeouts, the log, redeliver and test events. The retry gaps and the receiver timeout are the
 * smallest that keep each rule visible.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startReceiver, type Receiver } from "../helpers/https-receiver.ts";
import { addEndpoint, fire as fireOn, isFinished, RETRY_GAPS_MS, startWebhookApp, waitForDelivery, type WebhookHarness } from "./fixture.ts";

// Real receivers on a shared 2-core machine: room beyond the 5 s default.
setDefaultTimeout(20_000);

const TIMEOUT_SECONDS = 1; // PHRASEBOOK_WEBHOOK_TIMEOUT below
const LOGGED_BODY_LIMIT_BYTES = 8192;

let h: WebhookHarness;
const receivers: Receiver[] = [];

async function receiver(handler?: Receiver["handler"]): Promise<Receiver> {
  const r = await startReceiver({ handler });
  receivers.push(r);
  return r;
}

/** Sends a test event (interface §6.5: the same path as real events) and returns its delivery id. */
const fire = (wid: string, event = "key_created") => fireOn(h, wid, event);

async function endpoint(wid: string): Promise<any> {
  return (await h.client.get(`/projects/${h.pid}/webhooks/${wid}`)).body;
}

beforeAll(async () => {
  h = await startWebhookApp({ PHRASEBOOK_WEBHOOK_TIMEOUT: String(TIMEOUT_SECONDS) });
});

afterAll(async () => {
  // Receivers first: their connections close, so no attempt is left for the sender to wait for.
  await Promise.all(receivers.map((r) => r.stop()));
  await h?.stop();
});

describe("interface §6.4: outcomes and retries", () => {
  test("interface §6.4 rule 3: a failing receiver is retried on the configured gaps with the same delivery id and a fresh timestamp, then succeeds", async () => {
    const r = await receiver(async (_, i) => {
      // The first attempt ends in the next second, so a timestamp taken once and reused would show.
      if (i === 0) await Bun.sleep(1000 - (Date.now() % 1000) + 5);
      return new Response(i < 2 ? "busy" : "thanks", { status: i < 2 ? 500 : 200 });
    });
    const wid = await addEndpoint(h, r.url(), ["key_created"], "s3cret");
    const did = await fire(wid);
    const d = await waitForDelivery(h, did, isFinished);
    expect(d.status).toBe("succeeded");
    expect(d.attempt_count).toBe(3);
    expect(d.next_attempt_at).toBeNull();
    expect(d.attempts.map((a: any) => a.response_status)).toEqual([500, 500, 200]);
    expect(d.attempts.map((a: any) => a.failure_reason)).toEqual(["HTTP 500", "HTTP 500", null]);
    expect(r.requests.map((q) => q.headers["x-service-delivery"])).toEqual([did, did, did]);
    expect(new Set(r.requests.map((q) => q.body)).size).toBe(1);
    for (const a of d.attempts) {
      // The timestamp is taken when the attempt starts, each time (interface §6.3).
      expect(Number(a.request_headers["X-Service-Timestamp"])).toBe(Math.floor(Date.parse(a.started_at) / 1000));
    }
    expect(Number(d.attempts[1].request_headers["X-Service-Timestamp"])).toBeGreaterThan(Number(d.attempts[0].request_headers["X-Service-Timestamp"]));
    for (let i = 1; i < d.attempts.length; i++) {
      const prevEnd = Date.parse(d.attempts[i - 1].started_at) + d.attempts[i - 1].duration_ms;
      expect(Date.parse(d.attempts[i].started_at) - prevEnd).toBeGreaterThanOrEqual(RETRY_GAPS_MS[i - 1]! - 5);
    }
    const ep = await endpoint(wid);
    expect(ep.consecutive_failures).toBe(0);
    expect(ep.failing).toBe(false);
  });

  test("interface §6.4 rule 3: 5 failed attempts in all, then the delivery is failed and the endpoint marked failing", async () => {
    let status = 503;
    const r = await receiver(() => new Response("down", { status }));
    const wid = await addEndpoint(h, r.url(), ["key_created", "key_deleted"]);
    const did = await fire(wid);
    const d = await waitForDelivery(h, did, isFinished);
    expect(d.status).toBe("failed");
    expect(d.attempt_count).toBe(5);
    expect(d.next_attempt_at).toBeNull();
    expect(d.attempts.map((a: any) => a.number)).toEqual([1, 2, 3, 4, 5]);
    expect(d.attempts.every((a: any) => a.response_status === 503 && a.failure_reason === "HTTP 503")).toBe(true);
    await Bun.sleep(RETRY_GAPS_MS.at(-1)! + 150); // a sixth attempt would have come by now
    expect(r.requests).toHaveLength(5);
    const ep = await endpoint(wid);
    expect(ep.consecutive_failures).toBe(5);
    expect(ep.failing).toBe(true);
    const list = (await h.client.get(`/projects/${h.pid}/webhooks`)).body.items.find((e: any) => e.id === wid);
    expect(list).toMatchObject({ consecutive_failures: 5, failing: true });

    status = 200; // product §5: a success returns the count to 0
    const ok = await waitForDelivery(h, await fire(wid, "key_deleted"), isFinished);
    expect(ok.status).toBe("succeeded");
    expect(await endpoint(wid)).toMatchObject({ consecutive_failures: 0, failing: false });
  });

  test("interface §6.4 rule 2: a 302 is recorded as is, counts as a failure and is not followed", async () => {
    const target = await receiver();
    const r = await receiver(() => new Response(null, { status: 302, headers: { location: target.url("/stolen") } }));
    const wid = await addEndpoint(h, r.url(), ["key_created"]);
    const d = await waitForDelivery(h, await fire(wid), (x) => x.attempts.length >= 1);
    expect(d.attempts[0].response_status).toBe(302);
    expect(d.attempts[0].failure_reason).toBe(`redirect 302 not followed (Location: ${target.url("/stolen")})`);
    expect(target.requests).toHaveLength(0);
  });

  test("interface §6.4 rule 2: no 3xx code is followed to a private address; the target gets nothing", async () => {
    const target = await receiver();
    const codes = [300, 301, 302, 303, 304, 305, 307, 308];
    const r = await receiver((q) => {
      const code = Number(q.path.split("/").pop());
      return new Response(null, { status: code, headers: { location: target.url(`/private/${code}`) } });
    });
    const dids = new Map<number, string>();
    for (const code of codes) dids.set(code, await fire(await addEndpoint(h, r.url(`/r/${code}`), ["key_created"])));
    for (const [code, did] of dids) {
      const d = await waitForDelivery(h, did, isFinished);
      expect(d.status).toBe("failed");
      expect(d.attempts).toHaveLength(5);
      expect(d.attempts.every((a: any) => a.response_status === code && a.failure_reason.startsWith(`redirect ${code} not followed`))).toBe(true);
    }
    expect(r.requests).toHaveLength(codes.length * 5);
    expect(target.requests).toHaveLength(0);
  });

  test("interface §6.4 rule 1: a receiver that does not answer within PHRASEBOOK_WEBHOOK_TIMEOUT fails the attempt", async () => {
    const r = await receiver(() => new Promise<Response>(() => {}));
    const wid = await addEndpoint(h, r.url(), ["key_created"]);
    const d = await waitForDelivery(h, await fire(wid), (x) => x.attempts.length >= 1);
    const a = d.attempts[0];
    expect(a.failure_reason).toBe(`timeout: no response within ${TIMEOUT_SECONDS} s`);
    expect(a.response_status).toBeNull();
    // Not before the timeout (the rule itself, on the configured value); how much later a loaded
    // machine gets to it is no part of the rule.
    expect(a.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_SECONDS * 1000 - 50);
    expect(d.status).toBe("pending");
    expect(d.next_attempt_at).not.toBeNull();
    await h.client.patch(`/projects/${h.pid}/webhooks/${wid}`, { enabled: false }); // stop retrying it
  });
});

describe("interface §6.5: the delivery log", () => {
  test("interface §6.5: a 20 KB response body is stored as its first 8 KB and marked truncated", async () => {
    const big = "0123456789abcdef".repeat(1280); // 20480 bytes
    const r = await receiver(() => new Response(big));
    const wid = await addEndpoint(h, r.url(), ["key_created"]);
    const d = await waitForDelivery(h, await fire(wid), isFinished);
    expect(d.status).toBe("succeeded");
    expect(d.attempts[0].response_body).toBe(big.slice(0, LOGGED_BODY_LIMIT_BYTES));
    expect(d.attempts[0].response_body_truncated).toBe(true);
  });

  test("interface §6.5: a body of exactly 8 KB is kept whole and not marked truncated", async () => {
    const exact = "z".repeat(LOGGED_BODY_LIMIT_BYTES);
    const r = await receiver(() => new Response(exact, { status: 400 }));
    const wid = await addEndpoint(h, r.url(), ["key_created"]);
    const d = await waitForDelivery(h, await fire(wid), (x) => x.attempts.length >= 1);
    expect(d.attempts[0].response_body).toBe(exact);
    expect(d.attempts[0].response_body_truncated).toBe(false);
    expect(d.attempts[0].failure_reason).toBe("HTTP 400");
    await h.client.patch(`/projects/${h.pid}/webhooks/${wid}`, { enabled: false });
  });

  test("interface §6.5: redeliver sends the identical payload bytes as a new delivery with a new id", async () => {
    const r = await receiver();
    const wid = await addEndpoint(h, r.url(), ["release_published"], "k");
    const first = await fire(wid, "release_published");
    await waitForDelivery(h, first, isFinished);
    const again = await h.client.post(`/projects/${h.pid}/deliveries/${first}/redeliver`);
    expect(again.status).toBe(202);
    const second = again.body.delivery_id;
    expect(second).not.toBe(first);
    const d2 = await waitForDelivery(h, second, isFinished);
    expect(d2.redelivery_of).toBe(first);
    await r.waitFor(2);
    expect(r.requests.map((q) => q.headers["x-service-delivery"])).toEqual([first, second]);
    expect(r.requests[1]!.body).toBe(r.requests[0]!.body);
    expect(d2.payload).toBe(r.requests[0]!.body);
    expect((await h.client.post(`/projects/${h.pid}/deliveries/dlv_00000000000000000000/redeliver`)).status).toBe(404);
  });

  test("interface §6.5: send test event posts a sample of a subscribed event through the same envelope, signing and log", async () => {
    const r = await receiver();
    const wid = await addEndpoint(h, r.url(), ["translation_approved", "release_deleted"], "k2");
    const did = await fire(wid, "translation_approved");
    const d = await waitForDelivery(h, did, isFinished);
    expect(d.status).toBe("succeeded");
    const [req] = await r.waitFor(1);
    const body = JSON.parse(req!.body);
    expect(body).toMatchObject({ event: "translation_approved", event_version: 1, project_id: h.pid });
    expect(Object.keys(body.data).sort()).toEqual(["key", "language_code", "status", "value"]);
    expect(req!.headers["x-service-delivery"]).toBe(did);
    expect(req!.headers["x-service-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    const notSubscribed = await h.client.post(`/projects/${h.pid}/webhooks/${wid}/test`, { event: "key_created" });
    expect(notSubscribed.status).toBe(400);
    expect(notSubscribed.body.error).toContain("does not subscribe");
    expect((await h.client.post(`/projects/${h.pid}/webhooks/${wid}/test`, { event: "key_exploded" })).status).toBe(400);
  });
});
