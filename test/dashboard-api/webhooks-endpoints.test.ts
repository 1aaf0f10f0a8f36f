/**
 * Webhook endpoints, test events and the delivery log (product §4, §5, interface §6.1, §6.5):
 * members read them, admins change them and send. The sender is not running here: deliveries stay
 * pending (sending itself: test/webhooks/).
 */
import { expect } from "bun:test";
import { scenarios, type Scenario, type ScenarioContext } from "../helpers/scenario.ts";
import { coverage } from "./routes.ts";
import { standardWorld } from "./world.ts";

const ENDPOINT = { url: "https://hooks.example.test/new", events: ["release_published", "key_created"] };
const disabled = async ({ as, ids }: ScenarioContext) => expect((await as("admin").patch(`/projects/${ids.pid}/webhooks/${ids.webhookId}`, { enabled: false })).status).toBe(200);

const rows: Scenario[] = [
  {
    name: "a member may list endpoints",
    as: "member",
    method: "GET",
    url: "/projects/:pid/webhooks",
    status: 200,
    after: ({ ids }, body) =>
      expect(body.items).toEqual([
        { id: ids.webhookId, url: "https://hooks.example.test/in", events: ["key_created", "release_published"], has_secret: false, enabled: true, consecutive_failures: 0, failing: false, created_at: "2026-01-01T00:00:00.000Z" },
      ]),
  },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/webhooks", status: 404 },

  {
    name: "creates an endpoint: events in the interface's order, the secret never shown",
    method: "POST",
    url: "/projects/:pid/webhooks",
    body: { ...ENDPOINT, secret: "s3cret-value" },
    status: 201,
    notContains: ["s3cret-value"],
    after: (_, body) =>
      expect(body).toEqual({ id: expect.stringMatching(/^whk_[0-9A-Za-z]{20}$/), url: ENDPOINT.url, events: ["key_created", "release_published"], has_secret: true, enabled: true, consecutive_failures: 0, failing: false, created_at: "2026-01-01T00:00:00.000Z" }),
  },
  { name: "a loopback https URL is saved; the address is checked when a delivery connects", method: "POST", url: "/projects/:pid/webhooks", body: { ...ENDPOINT, url: "https://127.0.0.1:8443/hook#part", enabled: false }, status: 201, contains: ['"url":"https://127.0.0.1:8443/hook"', '"enabled":false'] },
  { name: "a URL that is not https is 400 naming it", method: "POST", url: "/projects/:pid/webhooks", body: { ...ENDPOINT, url: "http://hooks.example.test/in" }, status: 400, contains: ['"url"', "https"] },
  { name: "a URL with credentials is 400 naming it", method: "POST", url: "/projects/:pid/webhooks", body: { ...ENDPOINT, url: "https://user:pw@hooks.example.test/in" }, status: 400, contains: ['"url"'] },
  { name: "a URL that is no URL is 400 naming it", method: "POST", url: "/projects/:pid/webhooks", body: { ...ENDPOINT, url: "hooks" }, status: 400, contains: ['"url"'] },
  { name: "an unknown event is 400 naming the field", method: "POST", url: "/projects/:pid/webhooks", body: { ...ENDPOINT, events: ["key_created", "key_renamed"] }, status: 400, contains: ['"events"', "key_renamed"] },
  { name: "no event is 400 naming the field", method: "POST", url: "/projects/:pid/webhooks", body: { ...ENDPOINT, events: [] }, status: 400, contains: ['"events"'] },
  { name: "a secret over 256 characters is 400 naming it", method: "POST", url: "/projects/:pid/webhooks", body: { ...ENDPOINT, secret: "s".repeat(257) }, status: 400, contains: ['"secret"'] },
  { name: "an unknown project is 404", method: "POST", url: "/projects/prj_00000000000000000000/webhooks", body: ENDPOINT, status: 404 },
  { name: "a member may not create endpoints", as: "member", method: "POST", url: "/projects/:pid/webhooks", body: ENDPOINT, status: 403, contains: ["admin role"] },

  { name: "a member may read one endpoint", as: "member", method: "GET", url: "/projects/:pid/webhooks/:webhookId", status: 200, contains: ['"id":":webhookId"', '"url":"https://hooks.example.test/in"'] },
  { name: "an unknown endpoint is 404", method: "GET", url: "/projects/:pid/webhooks/whk_00000000000000000000", status: 404, contains: ["webhook endpoint not found"] },
  { name: "an endpoint of another project is 404", method: "GET", url: "/projects/:otherPid/webhooks/:webhookId", status: 404 },

  {
    name: "sets and removes the secret, disables; what is left out stays",
    method: "PATCH",
    url: "/projects/:pid/webhooks/:webhookId",
    body: { secret: "new-secret", enabled: false },
    status: 200,
    contains: ['"has_secret":true', '"enabled":false', '"url":"https://hooks.example.test/in"'],
    notContains: ["new-secret"],
    async after({ as, ids }) {
      const removed = await as("admin").patch(`/projects/${ids.pid}/webhooks/${ids.webhookId}`, { secret: null });
      expect(removed.body).toMatchObject({ has_secret: false, enabled: false });
    },
  },
  { name: "a URL that is not https is 400 naming it", method: "PATCH", url: "/projects/:pid/webhooks/:webhookId", body: { url: "ftp://hooks.example.test/" }, status: 400, contains: ['"url"'] },
  { name: "an unknown endpoint is 404", method: "PATCH", url: "/projects/:pid/webhooks/whk_00000000000000000000", body: { enabled: false }, status: 404 },
  { name: "a member may not change endpoints", as: "member", method: "PATCH", url: "/projects/:pid/webhooks/:webhookId", body: { enabled: false }, status: 403, contains: ["admin role"] },

  {
    name: "deletes an endpoint with its delivery log",
    method: "DELETE",
    url: "/projects/:pid/webhooks/:webhookId",
    status: 204,
    async after({ as, ids }) {
      expect((await as("admin").get(`/projects/${ids.pid}/webhooks`)).body.items).toEqual([]);
      expect((await as("admin").get(`/projects/${ids.pid}/deliveries/${ids.deliveryId}`)).status).toBe(404);
    },
  },
  { name: "an unknown endpoint is 404", method: "DELETE", url: "/projects/:pid/webhooks/whk_00000000000000000000", status: 404 },
  { name: "a member may not delete endpoints", as: "member", method: "DELETE", url: "/projects/:pid/webhooks/:webhookId", status: 403, contains: ["admin role"] },

  {
    name: "sends a sample of the endpoint's first event by default, through the delivery log",
    method: "POST",
    url: "/projects/:pid/webhooks/:webhookId/test",
    status: 202,
    events: [],
    async after({ as, ids }, body) {
      expect(body).toEqual({ delivery_id: expect.stringMatching(/^dlv_[0-9A-Za-z]{20}$/) });
      const detail = (await as("admin").get(`/projects/${ids.pid}/deliveries/${body.delivery_id}`)).body;
      expect(detail).toMatchObject({ id: body.delivery_id, endpoint_id: ids.webhookId, event: "key_created", status: "pending", attempt_count: 0, redelivery_of: null, attempts: [] });
      expect(JSON.parse(detail.payload)).toMatchObject({ event: "key_created", event_version: 1, occurred_at: "2026-01-01T00:00:00.000Z", project_id: ids.pid });
    },
  },
  { name: "an event the endpoint does not take is 400 naming the field", method: "POST", url: "/projects/:pid/webhooks/:webhookId/test", body: { event: "key_deleted" }, status: 400, contains: ['"event"', "does not subscribe"] },
  { name: "an unknown event is 400 naming the field", method: "POST", url: "/projects/:pid/webhooks/:webhookId/test", body: { event: "nope" }, status: 400, contains: ['"event"'] },
  { name: "a disabled endpoint is 409", before: disabled, method: "POST", url: "/projects/:pid/webhooks/:webhookId/test", body: { event: "key_created" }, status: 409, contains: ["disabled"] },
  { name: "an unknown endpoint is 404", method: "POST", url: "/projects/:pid/webhooks/whk_00000000000000000000/test", body: {}, status: 404 },
  { name: "a member may not send test events", as: "member", method: "POST", url: "/projects/:pid/webhooks/:webhookId/test", body: {}, status: 403, contains: ["admin role"] },

  {
    name: "a member may list an endpoint's deliveries, newest first",
    as: "member",
    method: "GET",
    url: "/projects/:pid/webhooks/:webhookId/deliveries",
    status: 200,
    async before({ as, ids }) {
      expect((await as("admin").post(`/projects/${ids.pid}/webhooks/${ids.webhookId}/test`, { event: "key_created" })).status).toBe(202);
    },
    after: ({ ids }, body) => {
      expect(body.items.map((d: any) => d.event)).toEqual(["key_created", "release_published"]);
      expect(body.items[1]).toEqual({ id: ids.deliveryId, endpoint_id: ids.webhookId, event: "release_published", status: "pending", attempt_count: 0, created_at: "2026-01-01T00:00:00.000Z", next_attempt_at: "2026-01-01T00:00:00.000Z", redelivery_of: null });
    },
  },
  {
    name: "limit takes the newest N",
    async before({ as, ids }) {
      expect((await as("admin").post(`/projects/${ids.pid}/webhooks/${ids.webhookId}/test`, { event: "key_created" })).status).toBe(202);
    },
    method: "GET",
    url: "/projects/:pid/webhooks/:webhookId/deliveries?limit=1",
    status: 200,
    notContains: [":deliveryId"],
    after: (_, body) => expect(body.items.map((d: any) => d.event)).toEqual(["key_created"]),
  },
  { name: "a limit that is no positive number is 400 naming it", method: "GET", url: "/projects/:pid/webhooks/:webhookId/deliveries?limit=0", status: 400, contains: ['"limit"'] },
  { name: "an unknown endpoint is 404", method: "GET", url: "/projects/:pid/webhooks/whk_00000000000000000000/deliveries", status: 404 },

  {
    name: "a member may read a delivery with its exact payload",
    as: "member",
    method: "GET",
    url: "/projects/:pid/deliveries/:deliveryId",
    status: 200,
    after({ ids }, body) {
      expect(body).toMatchObject({ id: ids.deliveryId, event: "release_published", attempts: [] });
      expect(JSON.parse(body.payload)).toMatchObject({ event: "release_published", project_id: ids.pid, data: { status: "published" } });
    },
  },
  { name: "an unknown delivery is 404", method: "GET", url: "/projects/:pid/deliveries/dlv_00000000000000000000", status: 404, contains: ["delivery not found"] },
  { name: "a delivery of another project is 404", method: "GET", url: "/projects/:otherPid/deliveries/:deliveryId", status: 404 },

  {
    name: "a redelivery is a new delivery of the same payload bytes",
    method: "POST",
    url: "/projects/:pid/deliveries/:deliveryId/redeliver",
    status: 202,
    notContains: [":deliveryId"],
    async after({ as, ids }, body) {
      const admin = as("admin");
      const original = (await admin.get(`/projects/${ids.pid}/deliveries/${ids.deliveryId}`)).body;
      const again = (await admin.get(`/projects/${ids.pid}/deliveries/${body.delivery_id}`)).body;
      expect(again).toMatchObject({ event: original.event, status: "pending", redelivery_of: ids.deliveryId });
      expect(again.payload).toBe(original.payload);
    },
  },
  { name: "a disabled endpoint is 409", before: disabled, method: "POST", url: "/projects/:pid/deliveries/:deliveryId/redeliver", status: 409, contains: ["disabled"] },
  { name: "an unknown delivery is 404", method: "POST", url: "/projects/:pid/deliveries/dlv_00000000000000000000/redeliver", status: 404 },
  { name: "a member may not redeliver", as: "member", method: "POST", url: "/projects/:pid/deliveries/:deliveryId/redeliver", status: 403, contains: ["admin role"] },
];

scenarios("webhook endpoints and deliveries", standardWorld, rows);
coverage("webhooks-endpoints", rows);
