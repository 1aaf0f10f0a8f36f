/**
 * Interface §6.1 rule 2 and product §5 through the app in-process with its sender: with no
 * PHRASEBOOK_WEBHOOK_ALLOW_CIDRS, endpoints that point at this machine save fine (201) but every
 * attempt is refused before connecting, and the log says why. A real receiver listens on
 * 127.0.0.1 and must get nothing.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { startReceiver, type Receiver } from "../helpers/https-receiver.ts";
import { addEndpoint, isFinished, startWebhookApp, waitForDelivery, type WebhookHarness } from "./fixture.ts";

// Real receivers on a shared 2-core machine: room beyond the 5 s default.
setDefaultTimeout(20_000);

let h: WebhookHarness;
let target: Receiver;

beforeAll(async () => {
  target = await startReceiver();
  h = await startWebhookApp({ PHRASEBOOK_WEBHOOK_ALLOW_CIDRS: "" });
});

afterAll(async () => {
  await target?.stop();
  await h?.stop();
});

test("interface §6.1 rule 2: every loopback, private, link-local and embedded form is refused at connection time and the target gets nothing", async () => {
  const p = target.port;
  const cases: [string, string | RegExp][] = [
    [`https://localhost:${p}/`, /^refused address: (127\.0\.0\.1|::1) is a loopback address \(localhost resolves to /],
    [`https://127.0.0.1:${p}/`, "refused address: 127.0.0.1 is a loopback address"],
    [`https://[::1]:${p}/`, "refused address: ::1 is a loopback address"],
    [`https://[::ffff:127.0.0.1]:${p}/`, "refused address: 127.0.0.1 (written as the IPv4-mapped ::ffff:7f00:1) is a loopback address"],
    [`https://0.0.0.0:${p}/`, "refused address: 0.0.0.0 is an unspecified address"],
    ["https://169.254.169.254/latest/meta-data/", "refused address: 169.254.169.254 is a link-local address"],
    [`https://127.1:${p}/`, "refused address: 127.0.0.1 is a loopback address"],
    [`https://2130706433:${p}/`, "refused address: 127.0.0.1 is a loopback address"],
    [`https://0x7f.1:${p}/`, "refused address: 127.0.0.1 is a loopback address"],
    [`https://0177.0.0.1:${p}/`, "refused address: 127.0.0.1 is a loopback address"],
    [`https://[::ffff:7f00:1]:${p}/`, "refused address: 127.0.0.1 (written as the IPv4-mapped ::ffff:7f00:1) is a loopback address"],
    [`https://[64:ff9b::7f00:1]:${p}/`, "refused address: 64:ff9b::7f00:1 is the NAT64 form of 127.0.0.1, a loopback address"],
    [`https://[2002:7f00:1::1]:${p}/`, "refused address: 2002:7f00:1::1 is the 6to4 form of 127.0.0.1, a loopback address"],
    [`https://10.0.0.1:${p}/`, "refused address: 10.0.0.1 is a private address"],
    [`https://100.64.0.1:${p}/`, "refused address: 100.64.0.1 is a carrier-grade NAT (100.64.0.0/10) address"],
  ];
  const dids: [string, string | RegExp][] = [];
  for (const [url, reason] of cases) {
    // product §5: saving checks only the scheme and the form.
    const wid = await addEndpoint(h, url, ["key_created"], "secret");
    const r = await h.client.post(`/projects/${h.pid}/webhooks/${wid}/test`, { event: "key_created" });
    expect(r.status).toBe(202);
    dids.push([r.body.delivery_id, reason]);
  }
  for (const [did, reason] of dids) {
    const d = await waitForDelivery(h, did, isFinished);
    expect(d.status).toBe("failed");
    expect(d.attempts).toHaveLength(5);
    for (const a of d.attempts) {
      expect(a.response_status).toBeNull();
      if (typeof reason === "string") expect(a.failure_reason).toBe(reason);
      else expect(a.failure_reason).toMatch(reason);
    }
  }
  expect(target.requests).toHaveLength(0);
}, 30_000);

test("product §5: the forms that name 127.0.0.1 are saved as the address they really are", async () => {
  for (const host of ["127.1", "2130706433", "0x7f.1", "0177.0.0.1"]) {
    const r = await h.client.post(`/projects/${h.pid}/webhooks`, { url: `https://${host}:8443/hook`, events: ["key_created"] });
    expect(r.status).toBe(201);
    expect(r.body.url).toBe("https://127.0.0.1:8443/hook");
  }
});
