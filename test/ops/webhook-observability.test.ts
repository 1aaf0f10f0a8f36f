/**
 * One JSON log line per webhook attempt, on the server's standard output: standard output is the
 * process's, so this starts a server process (trusting the test CA through NODE_EXTRA_CA_CERTS).
 * What /metrics counts per outcome is checked in-process, in
 * test/observability/webhook-attempts.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startReceiver, testCa } from "../helpers/https-receiver.ts";
import { startServer } from "../helpers/server.ts";
import { eventually } from "../helpers/wait.ts";

describe("webhook attempts are logged", () => {
  test("one JSON line per attempt with its outcome, never the URL or the secret", async () => {
    const receiver = await startReceiver({ handler: (_req, i) => new Response("no", { status: i === 0 ? 500 : 200 }) });
    const server = await startServer({
      env: { NODE_EXTRA_CA_CERTS: testCa().caFile, PHRASEBOOK_WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", PHRASEBOOK_WEBHOOK_RETRY_DELAYS: "0.05,0.05,0.05,0.05" },
    });
    try {
      const admin = await DashboardClient.loggedIn(server.url);
      const pid = await admin.project("Hooks", "en");
      const secret = "whsec-observability-secret";
      const hook = await admin.post(`/projects/${pid}/webhooks`, { url: receiver.url("/hook?token=receiver-url-secret"), events: ["key_created"], secret });
      expect(hook.status).toBe(201);
      await admin.key(pid, "observed");
      await receiver.waitFor(2);
      const logged = () =>
        server
          .output()
          .split("\n")
          .filter((l) => l.includes('"msg":"webhook attempt"'))
          .map((l) => JSON.parse(l));
      await eventually(() => logged().length >= 2, { what: () => `${logged().length} of 2 attempt lines` }); // written once the attempt is recorded
      await Bun.sleep(100); // and no third line follows
      const attempts = logged();
      expect(attempts.map((a) => [a.attempt, a.outcome, a.status, a.delivery_status])).toEqual([
        [1, "http_error", 500, "pending"],
        [2, "success", 200, "succeeded"],
      ]);
      expect(attempts[0].delivery).toMatch(/^dlv_/);
      expect(attempts[0].event).toBe("key_created");
      for (const secretText of [secret, "receiver-url-secret"]) expect(server.output()).not.toContain(secretText);
    } finally {
      await server.stop();
      await receiver.stop();
    }
  });
});
