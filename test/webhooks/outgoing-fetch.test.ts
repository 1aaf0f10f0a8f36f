/**
 * One seam for outgoing HTTP (docs/architecture.md "Requests the server makes"): the webhook sender
 * makes every attempt through AppDeps.fetch, here the real fetch seen on its way, to a real HTTPS
 * receiver.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { HttpFetch } from "../../src/deps.ts";
import { startReceiver } from "../helpers/https-receiver.ts";
import { addEndpoint, fire, isFinished, startWebhookApp, waitForDelivery } from "./fixture.ts";

// A real receiver on a shared 2-core machine: room beyond the 5 s default.
setDefaultTimeout(20_000);

describe("docs/architecture.md: outgoing HTTP goes through AppDeps.fetch", () => {
  test("every attempt, retries included, is made by the app's fetch, with the options that keep it on the vetted address", async () => {
    const calls: { url: string; redirect: unknown; proxy: unknown }[] = [];
    const observed: HttpFetch = (input, init) => {
      calls.push({ url: String(input), redirect: init?.redirect, proxy: init?.proxy });
      return fetch(input, init);
    };
    const own = await startWebhookApp({}, { fetch: observed });
    const r = await startReceiver({ handler: (_req, index) => new Response(null, { status: index === 0 ? 500 : 200 }) });
    try {
      const wid = await addEndpoint(own, r.url(), ["key_created"]);
      const d = await waitForDelivery(own, await fire(own, wid), isFinished);
      expect(d.status).toBe("succeeded");
      expect(r.requests).toHaveLength(2);
      expect(calls).toHaveLength(2);
      expect(calls).toEqual([0, 1].map(() => ({ url: r.url(), redirect: "manual", proxy: false })));
    } finally {
      await r.stop();
      await own.stop();
    }
  });
});
