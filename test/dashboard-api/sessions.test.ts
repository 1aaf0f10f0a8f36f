/**
 * Signing in and out, the session cookie, CSRF, first-run setup and failed-login limiting
 * (product §4 "Session", docs/dashboard-api.md "Authentication"), in-process.
 */
import { describe, expect, test } from "bun:test";
import { LOGIN_FAILURES_PER_ADDRESS, LOGIN_WINDOW_MS, LoginThrottle } from "../../src/accounts/login-throttle.ts";
import { SESSION_TTL_MS } from "../../src/accounts/sessions.ts";
import { HttpError } from "../../src/common/errors.ts";
import { sha256Hex } from "../../src/common/hash.ts";
import { ManualClock } from "../helpers/app.ts";
import { openWorld, scenarios, type Scenario, type World } from "../helpers/scenario.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../helpers/server.ts";
import { coverage, dashboardRoutes, ROUTES } from "./routes.ts";
import { MEMBER, pathWithIds, standardWorld } from "./world.ts";

const login = (name: string, body: unknown, status: number, more: Partial<Scenario> = {}): Scenario => ({
  name,
  as: "anonymous",
  method: "POST",
  url: "/login",
  body,
  status,
  ...more,
});

const rows: Scenario[] = [
  login("the right password answers the user and a CSRF token, and sets the session cookie", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, 200, {
    contains: ['"role":"admin"', `"email":"${ADMIN_EMAIL}"`],
    notContains: ["password", "argon2"],
    async after({ t }, body, reply) {
      expect(body.user.id).toMatch(/^usr_[0-9A-Za-z]{20}$/);
      expect(body.csrf_token).toMatch(/^[0-9A-Za-z]{32}$/);
      const cookie = reply.headers.get("set-cookie")!;
      expect(cookie).toMatch(/^phrasebook_session=[0-9A-Za-z]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=1209600$/); // no Secure: the public URL is http
      // The database keeps the SHA-256 of the cookie's value, never the value.
      const value = cookie.split(";")[0]!.split("=")[1]!;
      const stored = t.query<{ token_hash: string; csrf_token: string }>("SELECT token_hash, csrf_token FROM sessions");
      expect(stored.some((s) => s.token_hash === value)).toBe(false);
      expect(stored.filter((s) => s.token_hash === sha256Hex(value))).toEqual([{ token_hash: sha256Hex(value), csrf_token: body.csrf_token }]);
      const me = await t.fetch("/dashboard/api/me", { headers: { cookie: `phrasebook_session=${value}` } });
      expect(await me.json()).toEqual({ user: body.user, csrf_token: body.csrf_token });
    },
  }),
  login("the email is matched in any letter case", { email: " MEMBER@Example.TEST ", password: MEMBER.password }, 200, { contains: ['"role":"member"'] }),
  login("a wrong password is 401", { email: ADMIN_EMAIL, password: "wrong password" }, 401, { contains: ['{"error":"wrong email or password"}'] }),
  login("an unknown email is the same 401", { email: "nobody@example.test", password: "wrong password" }, 401, { contains: ['{"error":"wrong email or password"}'] }),
  login("an email that is no address is the same 401", { email: "not-an-email", password: "x" }, 401, { contains: ['{"error":"wrong email or password"}'] }),
  login("a body that is not JSON is 400", "{not json", 400, { contains: ["request body is not valid JSON"] }),
  login("an email that is not a string is 400 naming it", { email: 5, password: "x" }, 400, { contains: ['invalid field "email": expected string'] }),
  login("a missing password is 400 naming it", { email: "a@b.c" }, 400, { contains: ['"password"'] }),
  login("a list is 400", [], 400, { contains: ["invalid"] }),

  { name: "is not needed once a user exists", as: "anonymous", method: "GET", url: "/setup", status: 200, contains: ['{"needed":false}'] },
  { name: "is 409 once a user exists", as: "anonymous", method: "POST", url: "/setup", body: { email: "x@example.test", name: "X", password: "password123" }, status: 409, contains: ["setup is done"] },

  { name: "says who is signed in, with the session's CSRF token", as: "member", method: "GET", url: "/me", status: 200, contains: [`"email":"${MEMBER.email}"`, '"csrf_token":":memberCsrf"'] },
  { name: "no session is 401", as: "anonymous", method: "GET", url: "/me", status: 401, contains: ['{"error":"not logged in"}'] },
  { name: "a forged cookie is 401", as: "anonymous", method: "GET", url: "/me", headers: { cookie: "phrasebook_session=forged" }, status: 401, contains: ['{"error":"not logged in"}'] },
  {
    name: "a session ends 14 days after login",
    as: "member",
    method: "GET",
    url: "/me",
    before: ({ t }) => (t.clock as ManualClock).advance(SESSION_TTL_MS),
    status: 401,
    contains: ["not logged in"],
  },
  {
    name: "a session still works just before its end",
    as: "member",
    method: "GET",
    url: "/me",
    before: ({ t }) => (t.clock as ManualClock).advance(SESSION_TTL_MS - 1),
    status: 200,
  },

  {
    name: "ends the session and clears the cookie",
    as: "member",
    method: "POST",
    url: "/logout",
    status: 200,
    contains: ['{"end_session_url":null}'],
    async after({ as, t, ids }, _body, reply) {
      expect(reply.headers.get("set-cookie")).toBe("phrasebook_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
      expect((await as("member").get("/me")).status).toBe(401);
      expect((await as("admin").get("/me")).status).toBe(200); // other sessions go on
      expect(t.query("SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.public_id = ?", ids.memberId)).toEqual([]);
    },
  },
  { name: "without the CSRF header is 403", as: "admin-without-csrf", method: "POST", url: "/logout", status: 403, contains: ["X-CSRF-Token"] },

  {
    name: "a change without the session's X-CSRF-Token is 403 and creates nothing",
    as: "admin-without-csrf",
    method: "POST",
    url: "/projects",
    body: { name: "X", base_language_code: "en" },
    status: 403,
    contains: ['{"error":"missing or wrong X-CSRF-Token header"}'],
  },
  {
    name: "another session's X-CSRF-Token is 403 too",
    as: "admin-without-csrf",
    method: "POST",
    url: "/projects",
    headers: { "x-csrf-token": ":memberCsrf" },
    body: { name: "X", base_language_code: "en" },
    status: 403,
    contains: ['{"error":"missing or wrong X-CSRF-Token header"}'],
  },
];

scenarios("sessions", standardWorld, rows);

/** A deployment started without PHRASEBOOK_ADMIN_EMAIL and PHRASEBOOK_ADMIN_PASSWORD: no user yet. */
const NO_ADMIN = { env: { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" } };
const noUser = async (): Promise<World> => ({ ids: {}, sessions: {} });

const firstRun: Scenario[] = [
  { name: "is needed while no user exists", as: "anonymous", method: "GET", url: "/setup", status: 200, contains: ['{"needed":true}'] },
  {
    name: "creates the first admin and signs them in",
    as: "anonymous",
    method: "POST",
    url: "/setup",
    body: { email: "First@Example.test", name: "First", password: "first-password" },
    status: 201,
    contains: ['"role":"admin"', '"email":"first@example.test"', '"csrf_token"'],
    async after({ t }, body, reply) {
      const cookie = reply.headers.get("set-cookie")!.split(";")[0]!;
      expect(cookie).toStartWith("phrasebook_session=");
      expect((await (await t.fetch("/dashboard/api/me", { headers: { cookie } })).json()).csrf_token).toBe(body.csrf_token);
      expect(await (await t.fetch("/dashboard/api/setup")).json()).toEqual({ needed: false });
      expect(t.query<{ password_hash: string }>("SELECT password_hash FROM users")[0]!.password_hash).toStartWith("$argon2id$");
      const again = await t.fetch("/dashboard/api/setup", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "second@example.test", name: "S", password: "second-password" }) });
      expect(again.status).toBe(409);
    },
  },
  { name: "a short password is 400 naming it", as: "anonymous", method: "POST", url: "/setup", body: { email: "first@example.test", name: "First", password: "short" }, status: 400, contains: ['"password"'] },
  { name: "an email that is no address is 400 naming it", as: "anonymous", method: "POST", url: "/setup", body: { email: "first", name: "First", password: "first-password" }, status: 400, contains: ['"email"'] },
  { name: "an empty name is 400 naming it", as: "anonymous", method: "POST", url: "/setup", body: { email: "first@example.test", name: "", password: "first-password" }, status: 400, contains: ['"name"'] },
];

scenarios("first-run setup", noUser, firstRun, NO_ADMIN);

coverage("sessions", [...rows, ...firstRun]);

describe("every route", () => {
  test("no session is 401 on every route but signing in (password or single sign-on) and setup", async () => {
    const w = await openWorld(standardWorld);
    try {
      const open = new Set([...ROUTES.sessions, ...ROUTES.sso].filter(([, rule]) => rule === "no session").map(([route]) => route));
      const routes = (await dashboardRoutes(w.t.app)).filter((r) => !open.has(`${r.method} ${r.path}`));
      expect(routes.length).toBeGreaterThan(40);
      const anonymous = w.as("anonymous");
      for (const route of routes) {
        const r = await anonymous.request(route.method, pathWithIds(route.path, w.ids), route.hasBody ? {} : undefined);
        expect({ route: `${route.method} ${route.path}`, status: r.status, body: r.body }).toEqual({ route: `${route.method} ${route.path}`, status: 401, body: { error: "not logged in" } });
      }
    } finally {
      await w.close();
    }
  });

  test("every change without the session's CSRF token is 403 and writes nothing", async () => {
    const w = await openWorld(standardWorld);
    try {
      const changes = (await dashboardRoutes(w.t.app)).filter((r) => r.method !== "GET" && !ROUTES.sessions.some(([route, rule]) => rule === "no session" && route === `${r.method} ${r.path}`));
      expect(changes.length).toBeGreaterThan(25);
      const before = w.t.query("SELECT total_changes() AS n")[0];
      for (const header of [undefined, w.ids.memberCsrf!, ""]) {
        const client = w.as("admin-without-csrf");
        for (const route of changes) {
          const path = pathWithIds(route.path, w.ids);
          const r = await client.request(route.method, path, route.hasBody ? {} : undefined, header === undefined ? {} : { "x-csrf-token": header });
          expect({ route: `${route.method} ${path}`, status: r.status, body: r.body }).toEqual({ route: `${route.method} ${path}`, status: 403, body: { error: "missing or wrong X-CSRF-Token header" } });
        }
      }
      expect(w.t.query("SELECT total_changes() AS n")[0]).toEqual(before);
    } finally {
      await w.close();
    }
  });
});

describe("failed logins", () => {
  test("5 failures for one account from one address, parallel guesses included: 429 with Retry-After, even for the right password, until the window passes", async () => {
    const clock = new ManualClock();
    const w = await openWorld(standardWorld, { clock });
    try {
      const here = w.t.client("203.0.113.7");
      // Guesses sent in parallel count as they start: 5 are checked, the rest refused unchecked.
      const guesses = await Promise.all(Array.from({ length: 8 }, (_, i) => here.login(MEMBER.email, `guess ${i}`)));
      expect(guesses.map((r) => r.status).sort()).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      clock.advance(60_000);
      const limited = await here.login(MEMBER.email, MEMBER.password);
      expect(limited.status).toBe(429);
      expect(limited.body.error).toBe("too many failed logins; try again in 840 seconds");
      expect(limited.headers.get("retry-after")).toBe("840"); // 15 minutes after the first failure
      // In any letter case: the account is the same.
      expect((await here.login(MEMBER.email.toUpperCase(), MEMBER.password)).status).toBe(429);
      // Another account from the same address, and the same account from another address, go on.
      expect((await here.login(ADMIN_EMAIL, ADMIN_PASSWORD)).status).toBe(200);
      expect((await w.t.client("198.51.100.9").login(MEMBER.email, MEMBER.password)).status).toBe(200);
      clock.advance(LOGIN_WINDOW_MS - 60_000 - 1);
      expect((await here.login(MEMBER.email, MEMBER.password)).status).toBe(429);
      clock.advance(1);
      expect((await here.login(MEMBER.email, MEMBER.password)).status).toBe(200);
    } finally {
      await w.close();
    }
  });

  test("30 failures from one address, whatever the emails, block that address for every email", () => {
    const clock = new ManualClock();
    const throttle = new LoginThrottle(clock);
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) throttle.attempt("203.0.113.7", `user${i}@example.test`);
    const refused = () => throttle.attempt("203.0.113.7", "someone.else@example.test");
    expect(refused).toThrow(HttpError);
    expect(refused).toThrow("too many failed logins; try again in 900 seconds");
    expect(() => throttle.attempt("198.51.100.9", "someone.else@example.test")).not.toThrow();
    clock.advance(LOGIN_WINDOW_MS);
    expect(refused).not.toThrow();
  });

  test("an attempt counts as failed while it runs; its success takes that back", () => {
    const clock = new ManualClock();
    const throttle = new LoginThrottle(clock);
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS - 1; i++) throttle.attempt("203.0.113.7", `user${i}@example.test`);
    const at = throttle.attempt("203.0.113.7", "right@example.test");
    expect(() => throttle.attempt("203.0.113.7", "other@example.test")).toThrow(HttpError); // 30 with the one running
    throttle.succeed("203.0.113.7", "right@example.test", at);
    expect(() => throttle.attempt("203.0.113.7", "other@example.test")).not.toThrow(); // 29 failures: a success is none
  });
});

test("with an https public URL the session cookie is Secure, when set and when cleared", async () => {
  const w = await openWorld(standardWorld, { appEnv: { PHRASEBOOK_PUBLIC_URL: "https://phrasebook.example.test" } });
  try {
    const reply = await w.t.client().login();
    expect(reply.status).toBe(200);
    expect(reply.headers.get("set-cookie")).toEndWith("; Max-Age=1209600; Secure");
    const out = await w.as("member").post("/logout");
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toEndWith("; Max-Age=0; Secure");
  } finally {
    await w.close();
  }
});
