/**
 * Sessions one user piles up: a successful sign-in is never throttled (only failures are), and each
 * one wrote a session row kept for 14 days, so anyone with an account (a script signing in over and
 * over, a test suite that never signs out) grew the database without end, a row per request.
 * A user now keeps at most SESSIONS_PER_USER_MAX sessions: a new one ends the oldest
 * (docs/dashboard-api.md "Sessions"). Sign-ins sent five at once, as many as the
 * failed-login limit lets one address check at a time.
 */
import { afterAll, expect, test } from "bun:test";
import { SESSIONS_PER_USER_MAX } from "../../src/accounts/limits.ts";
import { openWorld, type WorldApp } from "../helpers/scenario.ts";
import { MEMBER, standardWorld } from "../dashboard-api/world.ts";

const w: WorldApp = await openWorld(standardWorld);
afterAll(() => w.close());

const sessionsOf = (email: string) =>
  w.t.query<{ n: number }>("SELECT count(*) AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ?", email)[0]!.n;

test("a member signing in far more often than the limit, in parallel: the sessions stay bounded, the newest work, the oldest end", async () => {
  const first = await w.t.login(MEMBER.email, MEMBER.password);
  // Five at once: the most sign-ins of one account from one address that are checked at a time
  // (an attempt counts as failed until it succeeds, docs/deploy.md "What is limited").
  const logins = [];
  for (let round = 0; round < (SESSIONS_PER_USER_MAX + 10) / 5; round++) {
    logins.push(...(await Promise.all(Array.from({ length: 5 }, () => w.t.login(MEMBER.email, MEMBER.password)))));
  }
  expect(sessionsOf(MEMBER.email)).toBe(SESSIONS_PER_USER_MAX);

  // The oldest session is over; the last one made still works.
  expect((await first.get("/me")).status).toBe(401);
  const last = await w.t.login(MEMBER.email, MEMBER.password);
  expect((await last.get("/me")).status).toBe(200);
  expect(sessionsOf(MEMBER.email)).toBe(SESSIONS_PER_USER_MAX);
  expect(logins.length).toBe(SESSIONS_PER_USER_MAX + 10);

  // Other users' sessions are not touched: the world's admin is still signed in.
  expect((await w.as("admin").get("/me")).status).toBe(200);
}, 300_000);
