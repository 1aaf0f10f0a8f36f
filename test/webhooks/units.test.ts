/** The pure parts of the sender: signing, the retry rule, the capped body reader, the due queue. */
import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { LOGGED_BODY_LIMIT_BYTES, readCappedBody } from "../../src/webhooks/body.ts";
import { DueQueue } from "../../src/webhooks/due-queue.ts";
import { cleanEvents, cleanUrl } from "../../src/webhooks/endpoints.ts";
import { MAX_ATTEMPTS, nextStep } from "../../src/webhooks/schedule.ts";
import { signatureHeaders, signPayload } from "../../src/webhooks/signing.ts";

describe("interface §6.3: signature", () => {
  test("interface §6.3: sha256= + hex HMAC-SHA256(secret, '<timestamp>.<raw body>')", () => {
    const body = '{"event":"key_created"}';
    const expected = "sha256=" + createHmac("sha256", "s").update(`1700000000.${body}`).digest("hex");
    expect(signPayload("s", 1700000000, body)).toBe(expected);
    expect(signatureHeaders("s", 1700000000, body)).toEqual({ "X-Service-Timestamp": "1700000000", "X-Service-Signature": expected });
  });

  test("interface §6.3: no secret, no timestamp and no signature", () => {
    expect(signatureHeaders(null, 1700000000, "{}")).toEqual({});
  });
});

describe("interface §6.4 rule 3: the retry rule", () => {
  const gaps = [1, 16, 81, 256];
  test("interface §6.4 rule 3: 5 attempts in total on the configured gaps, measured from the end of the failed attempt", () => {
    expect(MAX_ATTEMPTS).toBe(5);
    expect(nextStep(1, false, 10_000, gaps)).toEqual({ status: "pending", nextAttemptAt: 11_000 });
    expect(nextStep(2, false, 10_000, gaps)).toEqual({ status: "pending", nextAttemptAt: 26_000 });
    expect(nextStep(3, false, 10_000, gaps)).toEqual({ status: "pending", nextAttemptAt: 91_000 });
    expect(nextStep(4, false, 10_000, gaps)).toEqual({ status: "pending", nextAttemptAt: 266_000 });
    expect(nextStep(5, false, 10_000, gaps)).toEqual({ status: "failed", nextAttemptAt: null });
  });

  test("interface §6.4 rule 3: decimal gaps are honoured to the millisecond", () => {
    expect(nextStep(1, false, 0, [0.3, 0.6, 0.9, 1.2])).toEqual({ status: "pending", nextAttemptAt: 300 });
    expect(nextStep(4, false, 0, [0.3, 0.6, 0.9, 1.2])).toEqual({ status: "pending", nextAttemptAt: 1200 });
  });

  test("interface §6.4 rule 1: success ends the delivery at any attempt", () => {
    expect(nextStep(5, true, 0, gaps)).toEqual({ status: "succeeded", nextAttemptAt: null });
    expect(nextStep(1, true, 0, gaps)).toEqual({ status: "succeeded", nextAttemptAt: null });
  });
});

describe("interface §6.5: the capped body reader", () => {
  const streamOf = (chunks: Uint8Array[], onPull?: () => void) =>
    new Response(new ReadableStream({
      pull(c) {
        onPull?.();
        const next = chunks.shift();
        if (next) c.enqueue(next);
        else c.close();
      },
    }, { highWaterMark: 0 }));

  test("interface §6.5: a short body is kept whole", async () => {
    expect(await readCappedBody(new Response("hello"))).toEqual({ text: "hello", truncated: false });
  });

  test("interface §6.5: exactly 8 KB is not truncated; one byte more is", async () => {
    const exact = "a".repeat(LOGGED_BODY_LIMIT_BYTES);
    expect(await readCappedBody(new Response(exact))).toEqual({ text: exact, truncated: false });
    const more = await readCappedBody(new Response(exact + "b"));
    expect(more).toEqual({ text: exact, truncated: true });
  });

  test("interface §6.5: reading stops after the limit, so an endless stream is not drained", async () => {
    let pulls = 0;
    const chunks = Array.from({ length: 1000 }, () => new Uint8Array(1024).fill(65));
    const body = await readCappedBody(streamOf(chunks, () => pulls++));
    expect(body.text).toHaveLength(LOGGED_BODY_LIMIT_BYTES);
    expect(body.truncated).toBe(true);
    expect(pulls).toBeLessThanOrEqual(LOGGED_BODY_LIMIT_BYTES / 1024 + 2);
  });

  test("interface §6.5: a body cut off by an error keeps what arrived and is marked truncated", async () => {
    let pulls = 0;
    const res = new Response(new ReadableStream({
      pull(c) {
        if (pulls++ === 0) c.enqueue(new TextEncoder().encode("partial"));
        else c.error(new Error("reset"));
      },
    }, { highWaterMark: 0 }));
    expect(await readCappedBody(res)).toEqual({ text: "partial", truncated: true });
  });
});

describe("the due queue", () => {
  test("deliveries come out per endpoint in due order, only once due, and never twice while known", () => {
    const q = new DueQueue();
    q.add(1, { id: 10, dueAt: 300 });
    q.add(1, { id: 11, dueAt: 100 });
    q.add(1, { id: 11, dueAt: 100 }); // already known: ignored
    q.add(2, { id: 20, dueAt: 200 });
    expect(q.takeDue(1, 150, 10).map((i) => i.id)).toEqual([11]);
    expect(q.earliest([1, 2])).toBe(200);
    expect(q.takeDue(1, 400, 10).map((i) => i.id)).toEqual([10]);
    expect(q.takeDue(2, 400, 0)).toEqual([]);
    q.add(2, { id: 20, dueAt: 0 }); // still known (in flight)
    expect(q.takeDue(2, 400, 10).map((i) => i.id)).toEqual([20]);
    q.forget(11);
    q.add(1, { id: 11, dueAt: 500 });
    expect(q.takeDue(1, 500, 10).map((i) => i.id)).toEqual([11]);
  });
});

describe("product §4: endpoint input", () => {
  test("interface §6.1 rule 1: only https URLs, without credentials, stored in the form the sender connects to", () => {
    expect(cleanUrl(" https://Hooks.Example.com:8443/a?b=1#frag ")).toBe("https://hooks.example.com:8443/a?b=1");
    expect(cleanUrl("https://127.1/x")).toBe("https://127.0.0.1/x");
    expect(() => cleanUrl("http://hooks.example.com/")).toThrow("must use https");
    expect(() => cleanUrl("hooks.example.com")).toThrow("not an absolute URL");
    expect(() => cleanUrl("https://user:pw@hooks.example.com/")).toThrow("credentials");
  });

  test("interface §6.2: events must be known ones and come back in their documented order", () => {
    expect(cleanEvents(["release_published", "key_created", "key_created"])).toEqual(["key_created", "release_published"]);
    expect(() => cleanEvents(["key_created", "key_renamed"])).toThrow('unknown event "key_renamed"');
    expect(() => cleanEvents([])).toThrow("at least one event");
  });
});
