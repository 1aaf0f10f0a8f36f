/**
 * Interface §6.2 and §6.3 from request to receiver: every event, triggered through the dashboard
 * API of the app in-process, as a real HTTPS receiver sees it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { startReceiver, type ReceivedRequest, type Receiver } from "../helpers/https-receiver.ts";
import { addEndpoint, startWebhookApp, waitForDeliveries, waitForDelivery, type WebhookHarness } from "./fixture.ts";

// Real receivers on a shared 2-core machine: room beyond the 5 s default.
setDefaultTimeout(20_000);

const SECRET = "whsec_test_0123456789";
const REPLAY_TOLERANCE_SECONDS = 300; // interface §6.3: the recommended receiver tolerance

/** What a receiver should do (interface §6.3): HMAC over "<timestamp>.<raw body>", constant-time compare, fresh timestamp. */
function verifySignature(secret: string, headers: Record<string, string>, rawBody: string, nowSeconds: number): boolean {
  const ts = headers["x-service-timestamp"] ?? "";
  if (!/^\d+$/.test(ts) || Math.abs(nowSeconds - Number(ts)) > REPLAY_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from("sha256=" + createHmac("sha256", secret).update(`${ts}.${rawBody}`).digest("hex"));
  const got = Buffer.from(headers["x-service-signature"] ?? "");
  return got.length === expected.length && timingSafeEqual(got, expected);
}

let h: WebhookHarness;
let signed: Receiver;
let unsigned: Receiver;
let byEvent: Map<string, ReceivedRequest>;
let releaseId: string;
let signedWid: string;

beforeAll(async () => {
  signed = await startReceiver();
  unsigned = await startReceiver();
  h = await startWebhookApp();
  signedWid = await addEndpoint(h, signed.url("/hooks/phrasebook?source=test"), [
    "key_created", "key_updated", "key_deleted", "translation_created", "translation_updated", "translation_approved",
    "release_created", "release_published", "release_updated", "release_deleted",
  ], SECRET);
  await addEndpoint(h, unsigned.url(), ["key_created"]);
  const { client, pid } = h;

  const key = await client.post(`/projects/${pid}/keys`, { key: "checkout.title", context: "Page title" });
  expect(key.status).toBe(201);
  expect((await client.patch(`/projects/${pid}/keys/${key.body.id}`, { context: "Title of the checkout page" })).status).toBe(200);
  expect((await client.put(`/projects/${pid}/keys/${key.body.id}/translations/de`, { value: "Kasse" })).status).toBe(200);
  expect((await client.put(`/projects/${pid}/keys/${key.body.id}/translations/de`, { value: "Zur Kasse" })).status).toBe(200);
  expect((await client.post(`/projects/${pid}/keys/${key.body.id}/translations/de/approve`)).status).toBe(200);
  const rel = await client.post(`/projects/${pid}/releases`, { name: "Spring", tag: "v1.0" });
  expect(rel.status).toBe(201);
  releaseId = rel.body.id;
  expect((await client.patch(`/projects/${pid}/releases/${releaseId}`, { name: "Spring sale" })).status).toBe(200);
  expect((await client.post(`/projects/${pid}/releases/${releaseId}/publish`)).status).toBe(200);
  expect((await client.delete(`/projects/${pid}/releases/${releaseId}`)).status).toBe(204);
  expect((await client.delete(`/projects/${pid}/keys/${key.body.id}`)).status).toBe(204);

  await signed.waitFor(10);
  await unsigned.waitFor(1);
  byEvent = new Map(signed.requests.map((r) => [JSON.parse(r.body).event, r]));
}, 30_000);

afterAll(async () => {
  await signed?.stop();
  await unsigned?.stop();
  await h?.stop();
});

describe("interface §6.2: every event, with its data fields", () => {
  const expectations: [string, () => Record<string, unknown>][] = [
    ["key_created", () => ({ key: "checkout.title", context: "Page title" })],
    ["key_updated", () => ({ key: "checkout.title", context: "Title of the checkout page" })],
    ["key_deleted", () => ({ key: "checkout.title" })],
    ["translation_created", () => ({ key: "checkout.title", language_code: "de", value: "Kasse", status: "translated" })],
    ["translation_updated", () => ({ key: "checkout.title", language_code: "de", value: "Zur Kasse", status: "translated" })],
    ["translation_approved", () => ({ key: "checkout.title", language_code: "de", value: "Zur Kasse", status: "approved" })],
    ["release_created", () => ({ release_id: releaseId, name: "Spring", tag: "v1.0", status: "draft" })],
    ["release_updated", () => ({ release_id: releaseId, name: "Spring sale", tag: "v1.0" })],
    ["release_published", () => ({ release_id: releaseId, name: "Spring sale", tag: "v1.0", status: "published" })],
    ["release_deleted", () => ({ release_id: releaseId, name: "Spring sale", tag: "v1.0" })],
  ];
  for (const [event, data] of expectations) {
    test(`interface §6.2: ${event} arrives once with the envelope and exactly its data fields`, () => {
      const req = byEvent.get(event);
      expect(req).toBeDefined();
      expect(signed.requests.filter((r) => JSON.parse(r.body).event === event)).toHaveLength(1);
      const body = JSON.parse(req!.body);
      expect(Object.keys(body).sort()).toEqual(["data", "event", "event_version", "occurred_at", "project_id"]);
      expect(body.event_version).toBe(1);
      expect(body.project_id).toBe(h.pid);
      expect(body.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(body.data).toEqual(data());
    });
  }
});

describe("interface §6.3: request headers and signature", () => {
  test("interface §6.3: POST with the literal headers, the event and version matching the body", () => {
    for (const req of signed.requests) {
      const body = JSON.parse(req.body);
      expect(req.method).toBe("POST");
      expect(req.path).toBe("/hooks/phrasebook?source=test");
      expect(req.headers["content-type"]).toBe("application/json");
      expect(req.headers["user-agent"]).toBe("Service-Webhooks/1.0");
      expect(req.headers["x-service-event"]).toBe(body.event);
      expect(req.headers["x-service-event-version"]).toBe(String(body.event_version));
      expect(req.headers["x-service-delivery"]).toMatch(/^dlv_[0-9A-Za-z]{20}$/);
    }
  });

  test("interface §6.3: a receiver verifies every signature over the raw body, and a tampered body fails", () => {
    const now = Math.floor(Date.now() / 1000);
    for (const req of signed.requests) {
      expect(verifySignature(SECRET, req.headers, req.body, now)).toBe(true);
      // Re-serialised JSON (one space more) is a different byte string: interface §6.3 says it will not match.
      const reserialised = req.body.replace('"event_version":1', '"event_version": 1');
      expect(reserialised).not.toBe(req.body);
      expect(verifySignature(SECRET, req.headers, reserialised, now)).toBe(false);
      expect(verifySignature("another secret", req.headers, req.body, now)).toBe(false);
    }
  });

  test("interface §6.3: without a secret there is no timestamp and no signature", () => {
    const req = unsigned.requests[0]!;
    expect(req.headers["x-service-event"]).toBe("key_created");
    expect(req.headers["x-service-timestamp"]).toBeUndefined();
    expect(req.headers["x-service-signature"]).toBeUndefined();
  });

  test("product §5: X-Service-Delivery is the delivery's id as the log shows it, and the log holds the exact bytes and headers", async () => {
    const items = await waitForDeliveries(h, signedWid, 10);
    const ids = new Set(items.map((d: any) => d.id));
    for (const req of signed.requests) {
      const did = req.headers["x-service-delivery"]!;
      expect(ids.has(did)).toBe(true);
      const detail = await waitForDelivery(h, did, (d) => d.status === "succeeded");
      expect(detail.payload).toBe(req.body);
      expect(detail.attempts).toHaveLength(1);
      const logged: Record<string, string> = {};
      for (const [k, v] of Object.entries(detail.attempts[0].request_headers as Record<string, string>)) logged[k.toLowerCase()] = v;
      expect(logged).toEqual(req.headers);
      expect(detail.attempts[0].response_status).toBe(200);
      expect(detail.attempts[0].response_body).toBe("ok");
    }
  });

  test("product §4: the delivery list is newest first", async () => {
    const items = await waitForDeliveries(h, signedWid, 10);
    const created = items.map((d: any) => d.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect(items[0].event).toBe("key_deleted");
  });
});
