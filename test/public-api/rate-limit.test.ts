/**
 * interface §7, interface §8 "Rate limiting", product §2: the fixed window, with a small quota and
 * a window of 7 s, against the app in-process. The clock is a ManualClock, so a test puts each
 * request at the exact millisecond of the window it means: window alignment and Retry-After are
 * checked to the millisecond, and no test waits for real time to pass.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "../helpers/app.ts";
import { apiClient, appFixture, newToken, type AppFixture } from "./api-client.ts";

const LIMIT = 3;
const WINDOW_S = 7; // not a divisor of a minute: windows align to multiples of their own length since the epoch
const WINDOW_MS = WINDOW_S * 1000;

const clock = new ManualClock(Date.UTC(2026, 0, 1) + 1234); // not on a window boundary
let f: AppFixture;
let pid: string;
let n = 0;
/** A URL never asked before, so the response cache cannot answer it. */
const fresh = () => `/v1/releases?n=${++n}`;

beforeAll(async () => {
  f = await appFixture({ clock, env: { PHRASEBOOK_RATE_LIMIT: String(LIMIT), PHRASEBOOK_RATE_WINDOW: String(WINDOW_S) } });
  pid = await f.dash.project("Shop", "en");
});

afterAll(async () => {
  await f?.t.close();
  expect(f.api.checked).toBeGreaterThan(0);
});

/** Moves the clock to `offsetMs` into the next window and returns that window's start (ms since the epoch). */
function nextWindow(offsetMs = 0): number {
  const start = clock.now() - (clock.now() % WINDOW_MS) + WINDOW_MS;
  clock.set(start + offsetMs);
  return start;
}

const header = (h: Headers, name: string) => Number(h.get(name));

async function rateLimitedTotal(): Promise<number> {
  const metrics = await (await f.t.fetch("/metrics")).text();
  expect(metrics).toContain("# TYPE phrasebook_api_rate_limited_total counter");
  // A counter without labels shows a value once it has counted something.
  const value = /^phrasebook_api_rate_limited_total (\d+)$/m.exec(metrics)?.[1];
  return value === undefined ? 0 : Number(value);
}

describe("interface §8: the fixed window per token", () => {
  test("product §2: X-RateLimit-Limit, -Remaining and -Reset count down, then 429 with the exact body and Retry-After", async () => {
    const token = await newToken(f.dash, pid, "count-down");
    const refusedBefore = await rateLimitedTotal();
    const start = nextWindow(100);
    const end = (start + WINDOW_MS) / 1000; // a multiple of the window's length, not the first request + 7 s
    for (let left = LIMIT - 1; left >= 0; left--) {
      const r = await f.api.get(fresh(), token);
      expect(r.status).toBe(200);
      expect(header(r.headers, "x-ratelimit-limit")).toBe(LIMIT);
      expect(header(r.headers, "x-ratelimit-remaining")).toBe(left);
      expect(header(r.headers, "x-ratelimit-reset")).toBe(end); // the window's end, wherever in it the request falls
      clock.advance(500);
    }
    clock.set(start + 2_000); // exactly 5 s before the end
    const refused = await f.api.get(fresh(), token);
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('{"error": "rate limit exceeded"}'); // interface §7, to the letter
    expect(refused.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(header(refused.headers, "x-ratelimit-remaining")).toBe(0);
    expect(header(refused.headers, "x-ratelimit-reset")).toBe(end);
    expect(refused.headers.get("retry-after")).toBe("5");
    for (const path of ["/v1/projects", "/v1/project-languages", "/v1/releases/rel_x", "/v1/releases?page=0"]) {
      expect((await f.api.get(path, token)).status).toBe(429); // every endpoint, even a bad query
    }
    // Operators see refusals in the metrics.
    expect(await rateLimitedTotal()).toBe(refusedBefore + 5);
  });

  test("interface §8 rule 2: Retry-After is exact: waiting a second less fails again, waiting that long succeeds", async () => {
    const token = await newToken(f.dash, pid, "exact");
    // Where in the window the refusal falls: the whole seconds left, rounded up, at least 1.
    for (const [offset, expected] of [[0, 7], [1, 7], [999, 7], [1_000, 6], [3_500, 4], [6_000, 1], [6_999, 1]] as const) {
      const start = nextWindow(0);
      for (let i = 0; i < LIMIT; i++) expect((await f.api.get(fresh(), token)).status).toBe(200);
      clock.set(start + offset);
      const refused = await f.api.get(fresh(), token);
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers.get("retry-after"));
      expect(wait, `refused ${offset} ms into the window`).toBe(expected);
      clock.set(start + offset + (wait - 1) * 1000);
      if (clock.now() < start + WINDOW_MS) {
        const early = await f.api.get(fresh(), token);
        expect(early.status).toBe(429);
        expect(early.headers.get("retry-after")).toBe(String(Math.ceil((start + WINDOW_MS - clock.now()) / 1000)));
      }
      clock.set(start + offset + wait * 1000);
      const after = await f.api.get(fresh(), token);
      expect(after.status).toBe(200);
      expect(header(after.headers, "x-ratelimit-remaining")).toBe(LIMIT - 1);
    }
  });

  test("interface §8: a window ends at its aligned boundary: 1 ms before it still refused, at it the quota is whole again", async () => {
    const token = await newToken(f.dash, pid, "boundary");
    const start = nextWindow(WINDOW_MS - 10);
    for (let i = 0; i < LIMIT; i++) expect((await f.api.get(fresh(), token)).status).toBe(200);
    clock.set(start + WINDOW_MS - 1);
    const last = await f.api.get(fresh(), token);
    expect(last.status).toBe(429);
    expect(last.headers.get("retry-after")).toBe("1"); // never 0
    clock.set(start + WINDOW_MS);
    const next = await f.api.get(fresh(), token);
    expect(next.status).toBe(200);
    expect(header(next.headers, "x-ratelimit-remaining")).toBe(LIMIT - 1);
    expect(header(next.headers, "x-ratelimit-reset")).toBe((start + 2 * WINDOW_MS) / 1000);
  });

  test("interface §8: the quota is per token, not per project", async () => {
    const a = await newToken(f.dash, pid, "a");
    const b = await newToken(f.dash, pid, "b");
    nextWindow(100);
    for (let i = 0; i < LIMIT; i++) await f.api.get(fresh(), a);
    expect((await f.api.get(fresh(), a)).status).toBe(429);
    const other = await f.api.get(fresh(), b);
    expect(other.status).toBe(200);
    expect(header(other.headers, "x-ratelimit-remaining")).toBe(LIMIT - 1);
  });

  test("interface §4.2 rule 7: a cached response is served even with the quota used up, and costs nothing", async () => {
    const token = await newToken(f.dash, pid, "cached");
    nextWindow(100);
    expect((await f.api.get("/v1/releases?cached=1", token)).status).toBe(200); // cached now
    for (let i = 1; i < LIMIT; i++) await f.api.get(fresh(), token);
    expect((await f.api.get(fresh(), token)).status).toBe(429);
    const hit = await f.api.get("/v1/releases?cached=1", token);
    expect(hit.status).toBe(200);
    expect(hit.headers.get("x-cache")).toBe("hit");
    expect(header(hit.headers, "x-ratelimit-remaining")).toBe(0);
    expect(header(hit.headers, "x-ratelimit-limit")).toBe(LIMIT);
    expect(hit.headers.get("retry-after")).toBeNull();
  });

  test("product §2: a missing or invalid token is a 401 before any quota is counted, even when the token's quota is spent", async () => {
    const token = await newToken(f.dash, pid, "spent");
    nextWindow(100);
    for (let i = 0; i < LIMIT; i++) await f.api.get(fresh(), token);
    expect((await f.api.get(fresh(), token)).status).toBe(429);
    const missing = await f.api.get(fresh(), null);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: "missing token" });
    const invalid = await f.api.get(fresh(), token.slice(0, -1) + (token.endsWith("a") ? "b" : "a"));
    expect(invalid.status).toBe(401);
    expect(invalid.body).toEqual({ error: "invalid token" });
  });
});

describe("product §2: repeated invalid tokens from one address are limited", () => {
  test("product §2: after the quota of failed tokens, an address gets 429 with Retry-After; a valid token still works", async () => {
    const token = await newToken(f.dash, pid, "neighbour");
    const guesser = apiClient(f.t, "198.51.100.7");
    const start = nextWindow(2_500);
    const end = (start + WINDOW_MS) / 1000;
    for (let left = LIMIT - 1; left >= 0; left--) {
      const r = await guesser.get(fresh(), `pb_${"x".repeat(43)}`);
      expect(r.status).toBe(401);
      expect(header(r.headers, "x-ratelimit-remaining")).toBe(left);
      expect(header(r.headers, "x-ratelimit-reset")).toBe(end);
    }
    const refused = await guesser.get(fresh(), "pb_guess");
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('{"error": "rate limit exceeded"}');
    expect(refused.headers.get("retry-after")).toBe("5"); // 4.5 s left
    // A missing token is not a guess: still a plain 401.
    expect((await guesser.get(fresh(), null)).status).toBe(401);
    // A valid token from the same address still works, and another address may still try.
    expect((await guesser.get(fresh(), token)).status).toBe(200);
    const neighbour = await apiClient(f.t, "198.51.100.8").get(fresh(), "pb_guess");
    expect(neighbour.status).toBe(401);
    expect(header(neighbour.headers, "x-ratelimit-remaining")).toBe(LIMIT - 1);
    // The next window forgives.
    clock.set(start + WINDOW_MS);
    expect((await guesser.get(fresh(), "pb_guess")).status).toBe(401);
  });
});
