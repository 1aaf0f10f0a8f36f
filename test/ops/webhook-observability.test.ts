import { describe, expect, test } from "bun:test";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startReceiver, testCa } from "../helpers/https-receiver.ts";
import { startServer } from "../helpers/server.ts";

describe("issue 7: webhook attempts are logged and counted", () => {
  test("one JSON line per attempt without URL or secret; phrasebook_webhook_attempts_total by outcome", async () => {
    const receiver = await startReceiver({ handler: (_req, i) => new Response("no", { status: i === 0 ? 500 : 200 }) });
    const server = await startServer({
      env: { NODE_EXTRA_CA_CERTS: testCa().caFile, PHRASEBOOK_WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", PHRASEBOOK_WEBHOOK_RETRY_DELAYS: "0.2,0.2,0.2,0.2" },
    });
    try {
      const admin = await DashboardClient.loggedIn(server.url);
      const pid = await admin.project("Hooks", "en");
      const secret = "whsec-observability-secret";
      const hook = await admin.post(`/projects/${pid}/webhooks`, { url: receiver.url("/hook?token=receiver-url-secret"), events: ["key_created"], secret });
      expect(hook.status).toBe(201);
      await admin.key(pid, "observed");
      await receiver.waitFor(2);
      await Bun.sleep(300);
      const attempts = server
        .output()
        .split("\n")
        .filter((l) => l.includes('"msg":"webhook attempt"'))
        .map((l) => JSON.parse(l));
      expect(attempts.map((a) => [a.attempt, a.outcome, a.status, a.delivery_status])).toEqual([
        [1, "http_error", 500, "pending"],
        [2, "success", 200, "succeeded"],
      ]);
      expect(attempts[0].delivery).toMatch(/^dlv_/);
      expect(attempts[0].event).toBe("key_created");
      for (const secretText of [secret, "receiver-url-secret"]) expect(server.output()).not.toContain(secretText);
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toContain('phrasebook_webhook_attempts_total{outcome="http_error"} 1');
      expect(metrics).toContain('phrasebook_webhook_attempts_total{outcome="success"} 1');
    } finally {
      await server.stop();
      await receiver.stop();
    }
  });
});
