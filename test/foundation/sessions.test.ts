import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe("CONTRACTS 4: dashboard sessions", () => {
  test("login sets an HttpOnly SameSite=Lax cookie and returns the user and a CSRF token", async () => {
    const c = new DashboardClient(server.url);
    const r = await c.login();
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ email: ADMIN_EMAIL, role: "admin" });
    expect(r.body.user.id).toMatch(/^usr_[0-9A-Za-z]{20}$/);
    expect(r.body.csrf_token).toMatch(/^[0-9A-Za-z]{32}$/);
    const cookie = r.headers.get("set-cookie")!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).not.toContain("Secure"); // public URL is http here
    expect(r.body.user).not.toHaveProperty("password_hash");
    const me = await c.get("/me");
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(ADMIN_EMAIL);
    expect(me.body.csrf_token).toBe(r.body.csrf_token);
  });

  test("wrong password and unknown email both answer 401 with the same message", async () => {
    const c = new DashboardClient(server.url);
    const a = await c.login(ADMIN_EMAIL, "wrong password");
    const b = await c.login("nobody@example.test", "wrong password");
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(a.body).toEqual({ error: "wrong email or password" });
    expect(b.body).toEqual(a.body);
  });

  test("no session is 401 on every dashboard route", async () => {
    const anon = new DashboardClient(server.url);
    for (const [method, path] of [["GET", "/me"], ["GET", "/projects"], ["POST", "/projects"], ["GET", "/users"], ["DELETE", "/users/usr_x"]] as const) {
      const r = await anon.request(method, path, method === "GET" ? undefined : {});
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: "not logged in" });
    }
    const forged = await fetch(`${server.url}/dashboard/api/me`, { headers: { cookie: "phrasebook_session=forged" } });
    expect(forged.status).toBe(401);
  });

  test("CONTRACTS 4: a change without the session's X-CSRF-Token is 403 and changes nothing", async () => {
    const c = await DashboardClient.loggedIn(server.url);
    const before = server.query("SELECT count(*) AS n FROM projects")[0] as { n: number };
    const missing = await fetch(`${server.url}/dashboard/api/projects`, {
      method: "POST",
      headers: { cookie: c.cookie, "content-type": "application/json" },
      body: JSON.stringify({ name: "X", base_language_code: "en" }),
    });
    expect(missing.status).toBe(403);
    expect(await missing.json()).toEqual({ error: "missing or wrong X-CSRF-Token header" });
    const other = await DashboardClient.loggedIn(server.url);
    const wrong = await fetch(`${server.url}/dashboard/api/projects`, {
      method: "POST",
      headers: { cookie: c.cookie, "x-csrf-token": other.csrf, "content-type": "application/json" },
      body: JSON.stringify({ name: "X", base_language_code: "en" }),
    });
    expect(wrong.status).toBe(403);
    expect(server.query("SELECT count(*) AS n FROM projects")[0]).toEqual(before);
  });

  test("logout ends the session", async () => {
    const c = await DashboardClient.loggedIn(server.url);
    const out = await c.post("/logout");
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await c.get("/me")).status).toBe(401);
  });

  test("sessions are stored hashed, never as the cookie value", async () => {
    const c = await DashboardClient.loggedIn(server.url);
    const value = c.cookie.split("=")[1]!;
    const rows = server.query<{ token_hash: string }>("SELECT token_hash FROM sessions");
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash === value)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });

  test("setup is closed once a user exists", async () => {
    const anon = new DashboardClient(server.url);
    expect((await anon.get("/setup")).body).toEqual({ needed: false });
    const r = await anon.post("/setup", { email: "x@example.test", name: "X", password: "password123" });
    expect(r.status).toBe(409);
  });

  test("CONTRACTS 4: failed logins are rate limited with Retry-After; the right password is refused while limited", async () => {
    const c = new DashboardClient(server.url);
    const email = "victim@example.test";
    const admin = await DashboardClient.loggedIn(server.url);
    await admin.post("/users", { email, name: "Victim", password: "victim-password", role: "member" });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await c.login(email, "guess " + i)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const limited = await c.login(email, "victim-password");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.body.error).toContain("too many failed logins");
    // Other accounts from the same address are not locked out by one account's failures.
    expect((await c.login(ADMIN_EMAIL, ADMIN_PASSWORD)).status).toBe(200);
  });

  test("malformed login bodies are 400 naming the problem, never 500", async () => {
    const c = new DashboardClient(server.url);
    const cases: [unknown, string][] = [
      ["{not json", "request body is not valid JSON"],
      [{ email: 5, password: "x" }, 'invalid body "email"'],
      [{ email: "a@b.c" }, "password"],
      [[], "invalid"],
    ];
    for (const [body, message] of cases) {
      const r = await c.request("POST", "/login", body);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(message);
    }
  });
});

describe("CONTRACTS 4: first-run setup", () => {
  test("with no user and no bootstrap settings, setup creates the first admin and logs in", async () => {
    const fresh = await startServer({ env: { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" } });
    try {
      const c = new DashboardClient(fresh.url);
      expect((await c.get("/setup")).body).toEqual({ needed: true });
      const short = await c.post("/setup", { email: "first@example.test", name: "First", password: "short" });
      expect(short.status).toBe(400);
      expect(short.body.error).toContain("password");
      const r = await c.post("/setup", { email: "first@example.test", name: "First", password: "first-password" });
      expect(r.status).toBe(201);
      expect(r.body.user.role).toBe("admin");
      expect(r.headers.get("set-cookie")).toContain("phrasebook_session=");
      expect((await c.get("/setup")).body).toEqual({ needed: false });
      const stored = fresh.query<{ password_hash: string }>("SELECT password_hash FROM users");
      expect(stored[0]!.password_hash).toStartWith("$argon2id$");
    } finally {
      await fresh.stop();
    }
  });
});
