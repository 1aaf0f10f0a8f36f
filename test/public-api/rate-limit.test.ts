/** spec 7, spec 8 "Rate limiting", CONTRACTS 2: the fixed window, with a small quota and window. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newToken, startFixture, type Fixture } from "./api-client.ts";

const LIMIT = 3;
const WINDOW_S = 3;

let f: Fixture;
let pid: string;
let n = 0;
/** A URL never asked before, so the response cache cannot answer it. */
const fresh = () => `/v1/releases?n=${++n}`;

beforeAll(async () => {
  f = await startFixture({ env: { PHRASEBOOK_RATE_LIMIT: String(LIMIT), PHRASEBOOK_RATE_WINDOW: String(WINDOW_S) } });
  pid = await f.dash.project("Shop", "en");
}, 30_000);

afterAll(async () => {
  await f?.server.stop(); // first, so a failed check below never leaves the server running
  expect(f.api.checked).toBeGreaterThan(0);
});

/** Waits until 100 ms into the next window, so a test's requests all fall in one window. */
async function windowStart(): Promise<number> {
  const windowMs = WINDOW_S * 1000;
  const now = Date.now();
  const next = now - (now % windowMs) + windowMs;
  await Bun.sleep(next + 100 - now);
  return next;
}

const header = (h: Headers, name: string) => Number(h.get(name));

describe("spec 8: the fixed window per token", () => {
  test("CONTRACTS 2: X-RateLimit-Limit, -Remaining and -Reset count down, then 429 with the exact body and Retry-After", async () => {
    const token = await newToken(f.dash, pid, "count-down");
    const start = await windowStart();
    const end = (start + WINDOW_S * 1000) / 1000;
    for (let left = LIMIT - 1; left >= 0; left--) {
      const r = await f.api.get(fresh(), token);
      expect(r.status).toBe(200);
      expect(header(r.headers, "x-ratelimit-limit")).toBe(LIMIT);
      expect(header(r.headers, "x-ratelimit-remaining")).toBe(left);
      expect(header(r.headers, "x-ratelimit-reset")).toBe(end); // the window's end, aligned to its length
    }
    const refused = await f.api.get(fresh(), token);
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('{"error": "rate limit exceeded"}'); // spec 7, to the letter
    expect(refused.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(header(refused.headers, "x-ratelimit-remaining")).toBe(0);
    expect(refused.headers.get("retry-after")).toBe(String(Math.ceil(end - Date.now() / 1000)));
    for (const path of ["/v1/projects", "/v1/project-languages", "/v1/releases/rel_x", "/v1/releases?page=0"]) {
      expect((await f.api.get(path, token)).status).toBe(429); // every endpoint, even a bad query
    }
    // Operators see refusals in the metrics (issue 7's counter for this capability).
    const metrics = await (await fetch(`${f.server.url}/metrics`)).text();
    expect(Number(/^phrasebook_api_rate_limited_total (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(5);
  }, 15_000);

  test("spec 8 rule 2: Retry-After is exact: waiting less fails again, waiting that long succeeds", async () => {
    const token = await newToken(f.dash, pid, "exact");
    await windowStart();
    for (let i = 0; i < LIMIT; i++) expect((await f.api.get(fresh(), token)).status).toBe(200);
    const refused = await f.api.get(fresh(), token);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(WINDOW_S);
    await Bun.sleep((wait - 1) * 1000);
    const early = await f.api.get(fresh(), token);
    expect(early.status).toBe(429);
    expect(early.headers.get("retry-after")).toBe("1");
    await Bun.sleep(1000);
    const after = await f.api.get(fresh(), token);
    expect(after.status).toBe(200);
    expect(header(after.headers, "x-ratelimit-remaining")).toBe(LIMIT - 1);
  }, 15_000);

  test("spec 8: the quota is per token, not per project", async () => {
    const a = await newToken(f.dash, pid, "a");
    const b = await newToken(f.dash, pid, "b");
    await windowStart();
    for (let i = 0; i < LIMIT; i++) await f.api.get(fresh(), a);
    expect((await f.api.get(fresh(), a)).status).toBe(429);
    const other = await f.api.get(fresh(), b);
    expect(other.status).toBe(200);
    expect(header(other.headers, "x-ratelimit-remaining")).toBe(LIMIT - 1);
  }, 15_000);

  test("spec 4.2 rule 7: a cached response is served even with the quota used up, and costs nothing", async () => {
    const token = await newToken(f.dash, pid, "cached");
    await windowStart();
    expect((await f.api.get("/v1/releases?cached=1", token)).status).toBe(200); // cached now
    for (let i = 1; i < LIMIT; i++) await f.api.get(fresh(), token);
    expect((await f.api.get(fresh(), token)).status).toBe(429);
    const hit = await f.api.get("/v1/releases?cached=1", token);
    expect(hit.status).toBe(200);
    expect(header(hit.headers, "x-ratelimit-remaining")).toBe(0);
  }, 15_000);

  test("CONTRACTS 2: a missing or invalid token is a 401 before any quota is counted, even when the token's quota is spent", async () => {
    const token = await newToken(f.dash, pid, "spent");
    await windowStart();
    for (let i = 0; i < LIMIT; i++) await f.api.get(fresh(), token);
    expect((await f.api.get(fresh(), token)).status).toBe(429);
    const missing = await f.api.get(fresh(), null);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: "missing token" });
    const invalid = await f.api.get(fresh(), token.slice(0, -1) + (token.endsWith("a") ? "b" : "a"));
    expect(invalid.status).toBe(401);
    expect(invalid.body).toEqual({ error: "invalid token" });
  }, 15_000);
});

describe("CONTRACTS 2: repeated invalid tokens from one address are limited", () => {
  test("CONTRACTS 2: after the quota of failed tokens, an address gets 429 with Retry-After; a valid token still works", async () => {
    const token = await newToken(f.dash, pid, "neighbour");
    const start = await windowStart();
    const end = (start + WINDOW_S * 1000) / 1000;
    for (let left = LIMIT - 1; left >= 0; left--) {
      const r = await f.api.get(fresh(), `pb_${"x".repeat(43)}`);
      expect(r.status).toBe(401);
      expect(header(r.headers, "x-ratelimit-remaining")).toBe(left);
      expect(header(r.headers, "x-ratelimit-reset")).toBe(end);
    }
    const refused = await f.api.get(fresh(), "pb_guess");
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('{"error": "rate limit exceeded"}');
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // A missing token is not a guess: still a plain 401.
    expect((await f.api.get(fresh(), null)).status).toBe(401);
    expect((await f.api.get(fresh(), token)).status).toBe(200);
    // The next window forgives.
    await Bun.sleep(end * 1000 - Date.now() + 50);
    expect((await f.api.get(fresh(), "pb_guess")).status).toBe(401);
  }, 15_000);
});
