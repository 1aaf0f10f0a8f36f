/**
 * Failed-login limits once held only one request at a time (a check made before an `await`,
 * docs/decisions.md "Hardening"). Bursts of logins arrive truly at once (burst.ts) at a server
 * process, over several rounds; the limits of docs/dashboard-api.md "Authentication" rule 4 must
 * hold for each burst. In-process, the password checks themselves are counted (calls of
 * `Bun.password.verify`, the argon2id work): only the few the limits let through may run, whatever
 * the answers say. The throttle's memory and the bound on password work running at once are
 * checked in-process too. (The CPU such a burst costs the server is a benchmark figure, not a test.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LOGIN_FAILURES_PER_ACCOUNT, LOGIN_FAILURES_PER_ADDRESS, LOGIN_THROTTLE_MAX_KEYS, LOGIN_WINDOW_MS, LoginThrottle, addressGroup } from "../../src/accounts/login-throttle.ts";
import { PASSWORD_WORK_CONCURRENCY, PASSWORD_WORK_QUEUE_MAX, passwordWork } from "../../src/accounts/passwords.ts";
import { HttpError } from "../../src/common/errors.ts";
import { ManualClock, testApp } from "../helpers/app.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server.ts";
import { burst, jsonRequest, statusCounts, type RawReply } from "./burst.ts";

let server: TestServer;
beforeAll(async () => {
  // Behind a trusted proxy, so each request can say which client it comes from.
  server = await startServer({ env: { PHRASEBOOK_TRUSTED_PROXIES: "127.0.0.1", PHRASEBOOK_LOG_REQUESTS: "false" } });
});
afterAll(() => server.stop());

const login = (email: string, password: string, from: string) => jsonRequest("POST", "/dashboard/api/login", { email, password }, { "x-forwarded-for": from });

/** The replies that got a password check (a 200 or a 401), and the rest, which must all be 429s. */
function checked(replies: RawReply[]): RawReply[] {
  for (const r of replies) expect([200, 401, 429], JSON.stringify(r.json)).toContain(r.status);
  for (const r of replies.filter((x) => x.status === 429)) {
    expect(r.json.error).toMatch(/^too many failed logins; try again in \d+ seconds$/);
    expect(Number(r.headers["retry-after"])).toBeGreaterThan(0);
  }
  return replies.filter((r) => r.status !== 429);
}

describe("dashboard-api.md Authentication rule 4: login limits hold under truly parallel bursts", () => {
  test("60 logins for one account from one address at once (59 wrong, 1 right), three rounds: at most 5 are checked, the rest are 429", async () => {
    for (let round = 1; round <= 3; round++) {
      const from = `203.0.113.${round}`;
      const requests = Array.from({ length: 60 }, (_, i) => login(ADMIN_EMAIL, i === 30 ? ADMIN_PASSWORD : `wrong guess ${i}`, from));
      const replies = await burst(server.port, requests);
      const through = checked(replies);
      expect(through.length, `round ${round}: ${JSON.stringify(statusCounts(replies))}`).toBeLessThanOrEqual(LOGIN_FAILURES_PER_ACCOUNT);
      expect(through.length).toBeGreaterThan(0);
    }
  }, 120_000);

  test("in-process, 60 logins for one account at once: only the password checks the limit lets through run at all (counted, not timed)", async () => {
    // Once 100 parallel logins cost 5 s of CPU while answering 429s: every password was checked
    // before the failures were counted. Count the argon2id checks themselves.
    const t = await testApp();
    const verify = Bun.password.verify;
    let checks = 0;
    Bun.password.verify = ((...args: Parameters<typeof verify>) => {
      checks++;
      return verify.apply(Bun.password, args);
    }) as typeof verify;
    try {
      const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => t.client("203.0.113.99").login(ADMIN_EMAIL, i === 30 ? ADMIN_PASSWORD : `wrong guess ${i}`)));
      const counts = statusCounts(replies as unknown as RawReply[]);
      expect(checks, JSON.stringify(counts)).toBeLessThanOrEqual(LOGIN_FAILURES_PER_ACCOUNT);
      expect(checks).toBe(60 - (counts[429] ?? 0));
    } finally {
      Bun.password.verify = verify;
      await t.close();
    }
  });

  test("100 logins from one address over 100 different emails at once, three rounds: at most 30 are checked", async () => {
    for (let round = 1; round <= 3; round++) {
      const from = `198.51.100.${round}`;
      const replies = await burst(
        server.port,
        Array.from({ length: 100 }, (_, i) => login(`stuffing-${round}-${i}@example.test`, "password123", from)),
      );
      const through = checked(replies);
      expect(through.length, `round ${round}: ${JSON.stringify(statusCounts(replies))}`).toBeLessThanOrEqual(LOGIN_FAILURES_PER_ADDRESS);
      expect(through.length).toBeGreaterThanOrEqual(LOGIN_FAILURES_PER_ADDRESS - 1);
      for (const r of through) expect(r.json).toEqual({ error: "wrong email or password" });
    }
  }, 120_000);

  test("100 logins from 100 addresses of one IPv6 /64 at once count as one address: at most 30 are checked", async () => {
    const replies = await burst(
      server.port,
      Array.from({ length: 100 }, (_, i) => login(`v6-${i}@example.test`, "password123", `2001:db8:7:9:${(i + 1).toString(16)}::1`)),
    );
    expect(checked(replies).length, JSON.stringify(statusCounts(replies))).toBeLessThanOrEqual(LOGIN_FAILURES_PER_ADDRESS);
    // Another /64 is another address.
    const other = await burst(server.port, [login("v6-other@example.test", "password123", "2001:db8:7:a::1")]);
    expect(other[0]!.status).toBe(401);
  }, 120_000);

  test("the right password from an address that is not limited still signs in after the bursts", async () => {
    const [reply] = await burst(server.port, [login(ADMIN_EMAIL, ADMIN_PASSWORD, "192.0.2.200")]);
    expect(reply!.status).toBe(200);
    expect(reply!.headers["set-cookie"]).toStartWith("phrasebook_session=");
  });
});

describe("deploy.md Security notes, limits table: the throttle's memory is bounded", () => {
  test("200,000 failed logins from as many addresses keep at most LOGIN_THROTTLE_MAX_KEYS counters; the newest attackers stay limited", () => {
    const clock = new ManualClock();
    const throttle = new LoginThrottle(clock);
    for (let i = 0; i < 200_000; i++) {
      throttle.attempt(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, `victim${i % 7}@example.test`);
      if (i % 1000 === 0) clock.advance(1);
    }
    expect(throttle.size).toBeLessThanOrEqual(LOGIN_THROTTLE_MAX_KEYS);
    // The address that failed last (attempt 199,999: 10.3.13.63 for victim2) still has its count.
    for (let i = 1; i < LOGIN_FAILURES_PER_ACCOUNT; i++) throttle.attempt("10.3.13.63", "victim2@example.test");
    expect(() => throttle.attempt("10.3.13.63", "victim2@example.test")).toThrow(HttpError);
  });

  test("counters of failures older than the window are dropped, not kept until the address comes back", () => {
    const clock = new ManualClock();
    const throttle = new LoginThrottle(clock);
    for (let i = 0; i < 5000; i++) throttle.attempt(`192.0.2.${i % 250}`, `user${i}@example.test`);
    expect(throttle.size).toBe(5000 + 250);
    clock.advance(LOGIN_WINDOW_MS + 60_000);
    throttle.attempt("198.51.100.1", "someone@example.test"); // any attempt sweeps, at most once a minute
    expect(throttle.size).toBe(2);
  });

  test("IPv6 addresses count by their /64, IPv4 and IPv4-mapped ones alone", () => {
    expect(addressGroup("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe(addressGroup("2001:db8:1:2::1"));
    expect(addressGroup("2001:db8:1:2::1")).not.toBe(addressGroup("2001:db8:1:3::1"));
    expect(addressGroup("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressGroup("203.0.113.9")).not.toBe(addressGroup("203.0.113.10"));
    expect(addressGroup("unknown")).toBe("unknown");
  });
});

describe("deploy.md Security notes, limits table: password checks run a few at a time, and waiting ones are bounded", () => {
  test("100 logins from 100 addresses at once: at most 2 argon2id checks run together; past the queue the answer is a 503 with Retry-After", async () => {
    const t = await testApp();
    try {
      await Promise.all([t.login(), t.login()]); // both finish: the dummy hash exists, nothing is queued
      passwordWork.peak = 0;
      const replies = await Promise.all(
        Array.from({ length: 100 }, (_, i) => t.client(`192.0.2.${i + 1}`).login(`someone${i}@example.test`, "password123")),
      );
      const counts = statusCounts(replies as unknown as RawReply[]);
      expect(passwordWork.peak).toBeLessThanOrEqual(PASSWORD_WORK_CONCURRENCY);
      expect(passwordWork.peak).toBeGreaterThan(0);
      expect((counts[401] ?? 0) + (counts[503] ?? 0), JSON.stringify(counts)).toBe(100);
      expect(counts[401]).toBeGreaterThanOrEqual(PASSWORD_WORK_CONCURRENCY + PASSWORD_WORK_QUEUE_MAX);
      expect(counts[503]).toBeGreaterThan(0);
      const busy = replies.find((r) => r.status === 503)!;
      expect(busy.body).toEqual({ error: "too many sign-ins at once; try again in a moment" });
      expect(busy.headers.get("retry-after")).toBe("1");
      // A refusal for being busy is no failed login: the address may try again at once.
      const again = await t.client(`192.0.2.${replies.indexOf(busy) + 1}`).login();
      expect(again.status).toBe(200);
    } finally {
      await t.close();
    }
  }, 120_000);
});
