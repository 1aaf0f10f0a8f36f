/**
 * phrasebook_webhook_attempts_total counts attempts by outcome (docs/deploy.md "Monitoring"), with
 * the app and its webhook sender in-process, trusting the test CA of a real HTTPS receiver. The
 * sender waits for due times on the clock, so it runs on the system clock with retry gaps of a
 * few tens of milliseconds. The log line per attempt is on the process's standard output: that is
 * checked with a server process in test/ops/webhook-observability.test.ts.
 */
import { expect, test } from "bun:test";
import { systemClock } from "../../src/common/clock.ts";
import { startWebhooks } from "../../src/webhooks/runtime.ts";
import { testApp } from "../helpers/app.ts";
import { startReceiver, testCa, type CertKind, type Handler } from "../helpers/https-receiver.ts";
import { eventually } from "../helpers/wait.ts";

const SERIES = "phrasebook_webhook_attempts_total";

/** Sends one key_created delivery to a receiver; returns /metrics once `done` holds for it. */
async function attemptsAgainst(cert: CertKind, handler: Handler, done: (metrics: string) => boolean): Promise<{ metrics: string; received: number; attempts: { response_status: number | null }[] }> {
  const receiver = await startReceiver({ cert, handler });
  const t = await testApp({ clock: systemClock, env: { PHRASEBOOK_WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", PHRASEBOOK_WEBHOOK_RETRY_DELAYS: "0.03,0.03,0.03,0.03" } });
  const webhooks = startWebhooks(t.deps, { ca: testCa().caPem });
  try {
    const admin = await t.login();
    const pid = await admin.project("Hooks", "en");
    const hook = await admin.post(`/projects/${pid}/webhooks`, { url: receiver.url("/hook"), events: ["key_created"] });
    expect(hook.status).toBe(201);
    await admin.key(pid, "observed");
    const scrape = async () => (await t.fetch("/metrics")).text();
    let metrics = "";
    await eventually(async () => done((metrics = await scrape())), { what: () => `the attempts in /metrics:\n${metrics.split("\n").filter((l) => l.startsWith(SERIES)).join("\n")}` });
    await webhooks.stop(); // no attempt after this point
    metrics = await scrape();
    const attempts = t.query<{ response_status: number | null }>("SELECT response_status FROM delivery_attempts ORDER BY id");
    return { metrics, received: receiver.requests.length, attempts };
  } finally {
    await webhooks.stop();
    await t.close();
    await receiver.stop();
  }
}

test("an HTTP error and then a success are counted as http_error and success, once per attempt", async () => {
  const { metrics, received, attempts } = await attemptsAgainst(
    "good",
    (_req, i) => new Response("no", { status: i === 0 ? 500 : 200 }),
    (m) => m.includes(`${SERIES}{outcome="success"}`),
  );
  expect(metrics).toContain(`${SERIES}{outcome="http_error"} 1`);
  expect(metrics).toContain(`${SERIES}{outcome="success"} 1`);
  expect(metrics).not.toContain('outcome="transport_error"');
  expect(received).toBe(2);
  expect(attempts).toEqual([{ response_status: 500 }, { response_status: 200 }]);
});

test("an attempt that gets no HTTP answer is counted as transport_error", async () => {
  // A self-signed certificate: the TLS handshake fails before any request, on every attempt.
  const { metrics, received, attempts } = await attemptsAgainst(
    "self-signed",
    () => new Response("never"),
    (m) => / 5$/m.test(m.split("\n").find((l) => l.startsWith(`${SERIES}{outcome="transport_error"}`)) ?? ""),
  );
  expect(metrics).toContain(`${SERIES}{outcome="transport_error"} 5`); // all five attempts (interface §8)
  expect(metrics).not.toContain('outcome="success"');
  expect(metrics).not.toContain('outcome="http_error"');
  expect(received).toBe(0);
  expect(attempts).toEqual(Array.from({ length: 5 }, () => ({ response_status: null })));
});
