/**
 * The webhook endpoints of the dashboard JSON API (product §4, interface §6.1), in-process with the
 * sender running and real HTTPS receivers.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startReceiver, type Receiver } from "../helpers/https-receiver.ts";
import { eventually } from "../helpers/wait.ts";
import { addEndpoint, ALL_RETRIES_MS, deliveriesOf, isFinished, startWebhookApp, waitForDelivery, type WebhookHarness } from "./fixture.ts";

// Real receivers on a shared 2-core machine: room beyond the 5 s default.
setDefaultTimeout(20_000);

let h: WebhookHarness;
let receiver: Receiver;
let base: string;

beforeAll(async () => {
  receiver = await startReceiver();
  h = await startWebhookApp();
  base = `/projects/${h.pid}/webhooks`;
});

afterAll(async () => {
  await receiver?.stop();
  await h?.stop();
});

describe("product §4: saving endpoints", () => {
  test("product §4: POST answers 201 with the endpoint and never the secret", async () => {
    const r = await h.client.post(base, { url: receiver.url("/in"), events: ["release_published", "key_created"], secret: "top-secret-value" });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(["consecutive_failures", "created_at", "enabled", "events", "failing", "has_secret", "id", "url"]);
    expect(r.body).toMatchObject({ url: receiver.url("/in"), events: ["key_created", "release_published"], has_secret: true, enabled: true, consecutive_failures: 0, failing: false });
    expect(r.body.id).toMatch(/^whk_/);
    for (const path of [base, `${base}/${r.body.id}`]) {
      const got = await h.client.request("GET", path);
      expect(got.status).toBe(200);
      expect(JSON.stringify(got.body)).not.toContain("top-secret-value");
      expect(JSON.stringify(got.body)).not.toContain('"secret"');
    }
  });

  test("interface §6.1 rule 1: a plain http URL is refused with 400 naming the field", async () => {
    const r = await h.client.post(base, { url: "http://hooks.example.com/in", events: ["key_created"] });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid field "url": must use https');
  });

  test("product §4: an unknown event, no event, a malformed URL and a URL with credentials are 400s", async () => {
    const cases: [unknown, string][] = [
      [{ url: "https://hooks.example.com/", events: ["key_created", "key_renamed"] }, 'unknown event "key_renamed"'],
      [{ url: "https://hooks.example.com/", events: [] }, "at least one event"],
      [{ url: "not a url", events: ["key_created"] }, "not an absolute URL"],
      [{ url: "https://me:pw@hooks.example.com/", events: ["key_created"] }, "credentials"],
      [{ url: "https://hooks.example.com/" }, "events"],
      [{ events: ["key_created"] }, "url"],
    ];
    for (const [body, message] of cases) {
      const r = await h.client.post(base, body);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(message);
    }
  });

  test("product §5: a loopback URL saves with 201 (the address is checked when a delivery connects)", async () => {
    const r = await h.client.post(base, { url: "https://127.0.0.1:9/x", events: ["key_created"] });
    expect(r.status).toBe(201);
  });

  test("product §4: PATCH edits URL, events, secret and enabled; null removes the secret", async () => {
    const wid = await addEndpoint(h, "https://hooks.example.com/a", ["key_created"], "s1");
    const r = await h.client.patch(`${base}/${wid}`, { url: "https://hooks.example.com/b", events: ["key_deleted"], enabled: false });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ url: "https://hooks.example.com/b", events: ["key_deleted"], enabled: false, has_secret: true });
    expect((await h.client.patch(`${base}/${wid}`, { secret: null })).body.has_secret).toBe(false);
    expect((await h.client.patch(`${base}/${wid}`, { secret: "s2" })).body.has_secret).toBe(true);
    expect((await h.client.patch(`${base}/${wid}`, { url: "http://hooks.example.com/" })).status).toBe(400);
    expect((await h.client.patch(`${base}/${wid}`, { events: ["nope"] })).status).toBe(400);
  });

  test("product §4: DELETE answers 204, then the endpoint and its deliveries are 404", async () => {
    const wid = await addEndpoint(h, receiver.url("/gone"), ["key_created"]);
    const did = (await h.client.post(`${base}/${wid}/test`, { event: "key_created" })).body.delivery_id;
    await waitForDelivery(h, did, isFinished);
    expect((await h.client.delete(`${base}/${wid}`)).status).toBe(204);
    expect((await h.client.get(`${base}/${wid}`)).status).toBe(404);
    expect((await h.client.get(`${base}/${wid}/deliveries`)).status).toBe(404);
    expect((await h.client.get(`/projects/${h.pid}/deliveries/${did}`)).status).toBe(404);
    expect((await h.client.delete(`${base}/${wid}`)).status).toBe(404);
  });

  test("product §4: unknown project or endpoint ids are 404", async () => {
    expect((await h.client.get("/projects/prj_00000000000000000000/webhooks")).status).toBe(404);
    expect((await h.client.get(`${base}/whk_00000000000000000000/deliveries`)).status).toBe(404);
    expect((await h.client.get(`/projects/${h.pid}/deliveries/dlv_00000000000000000000`)).status).toBe(404);
  });
});

describe("product §4: who may do what", () => {
  test("product §4: no session is 401, a missing CSRF token is 403, a member may read but not change", async () => {
    const anonymous = h.t.client();
    expect((await anonymous.get(base)).status).toBe(401);
    const noCsrf = await h.t.fetch(`/dashboard/api${base}`, {
      method: "POST",
      headers: { cookie: h.client.cookie, "content-type": "application/json" },
      body: JSON.stringify({ url: "https://a.example/", events: ["key_created"] }),
    });
    expect(noCsrf.status).toBe(403);
    const u = await h.client.post("/users", { email: "member@example.test", name: "Member", password: "member password", role: "member" });
    expect(u.status).toBe(201);
    // A member of before holds developer (docs/dashboard-api.md "Project roles"): reads endpoints, changes none.
    expect((await h.client.put(`/projects/${h.pid}/members/${u.body.id}`, { role: "developer" })).status).toBe(200);
    const member = await h.t.login("member@example.test", "member password");
    expect((await member.get(base)).status).toBe(200);
    const wid = await addEndpoint(h, "https://hooks.example.com/m", ["key_created"]);
    expect((await member.post(base, { url: "https://a.example/", events: ["key_created"] })).status).toBe(403);
    expect((await member.patch(`${base}/${wid}`, { enabled: false })).status).toBe(403);
    expect((await member.delete(`${base}/${wid}`)).status).toBe(403);
    expect((await member.post(`${base}/${wid}/test`, { event: "key_created" })).status).toBe(403);
  });
});

describe("product §4: enabled flag", () => {
  test("product §4: a disabled endpoint gets no new events, holds its pending retries, and resumes when enabled", async () => {
    let status = 503;
    const r = await startReceiver({ handler: () => new Response("x", { status }) });
    try {
      const wid = await addEndpoint(h, r.url(), ["key_created"]);
      const did = (await h.client.post(`${base}/${wid}/test`, { event: "key_created" })).body.delivery_id;
      await r.waitFor(1);
      expect((await h.client.patch(`${base}/${wid}`, { enabled: false })).status).toBe(200);
      // A retry already under way when the endpoint was disabled lands first: wait until none is in
      // flight (no lease, every request received recorded as an attempt), by state, not by a pause.
      const inFlight = () => h.t.query<{ lease_until: number | null; attempt_count: number }>("SELECT lease_until, attempt_count FROM deliveries WHERE public_id = ?", did)[0]!;
      await eventually(() => inFlight().lease_until === null && inFlight().attempt_count === r.requests.length, { what: () => `no attempt in flight: ${JSON.stringify(inFlight())}, ${r.requests.length} received` });
      const seen = r.requests.length;
      expect((await h.client.post(`/projects/${h.pid}/keys`, { key: "while.disabled" })).status).toBe(201);
      await Bun.sleep(ALL_RETRIES_MS); // every retry would have come by now
      expect(r.requests.length).toBe(seen);
      expect(await deliveriesOf(h, wid)).toHaveLength(1); // the key_created above made no delivery here
      const test409 = await h.client.post(`${base}/${wid}/test`, { event: "key_created" });
      expect(test409.status).toBe(409);

      status = 200;
      expect((await h.client.patch(`${base}/${wid}`, { enabled: true })).status).toBe(200);
      const d = await waitForDelivery(h, did, isFinished);
      expect(d.status).toBe("succeeded");
      expect(r.requests.map((q) => q.headers["x-service-delivery"]).every((id) => id === did)).toBe(true);
    } finally {
      await r.stop();
    }
  });

  test("product §4: the delivery list honours ?limit and rejects a bad one", async () => {
    const wid = await addEndpoint(h, receiver.url("/limit"), ["key_created"]);
    for (let i = 0; i < 3; i++) await h.client.post(`${base}/${wid}/test`, { event: "key_created" });
    expect((await h.client.get(`${base}/${wid}/deliveries?limit=2`)).body.items).toHaveLength(2);
    expect((await h.client.get(`${base}/${wid}/deliveries?limit=0`)).status).toBe(400);
    const items = await deliveriesOf(h, wid);
    expect(Object.keys(items[0]).sort()).toEqual(["attempt_count", "created_at", "endpoint_id", "event", "id", "next_attempt_at", "redelivery_of", "status"]);
  });
});
