/**
 * The first-run setup (and signing in, and every cookie-borne change) once passed an `Origin` equal
 * to the request's `Host` even with a public URL set. A DNS-rebinding page points a name of its
 * own (here rebind.evil.example) at the server: the browser then sends `Host` and `Origin` both
 * naming the attacker's site, and the page could run `/setup` on a fresh server. With a public URL
 * set, every Origin check compares with that URL's origin only (docs/deploy.md "Security notes");
 * without one the server knows no name of its own, and the host the browser used still passes.
 * Requests are sent in-process exactly as the rebinding page's fetch sends them.
 */
import { describe, expect, test } from "bun:test";
import { ORIGIN, testApp, type TestApp } from "../helpers/app.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../helpers/server.ts";

const REBOUND = "http://rebind.evil.example:8080";

async function send(t: TestApp, base: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await t.app.handle(
    new Request(base + "/dashboard/api" + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: body === undefined ? undefined : JSON.stringify(body) }),
    () => "127.0.0.1",
  );
  return { status: res.status, json: (await res.json().catch(() => null)) as any, cookie: res.headers.get("set-cookie") };
}

const attacker = { email: "attacker@evil.example", name: "Attacker", password: "attacker-password" };

describe("deploy.md Security notes: with a public URL set, a DNS-rebinding page's Origin (equal to Host) is refused", () => {
  test("POST /setup on a fresh server from the rebound name is 403, creates no user and sets no cookie; the public URL's origin then works", async () => {
    const t = await testApp({ env: { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" } });
    try {
      const r = await send(t, REBOUND, "/setup", { origin: REBOUND }, attacker);
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ error: `cross-site request refused: Origin ${REBOUND} is not this server's` });
      expect(r.cookie).toBeNull();
      expect(t.query("SELECT 1 FROM users")).toEqual([]);
      const real = await send(t, ORIGIN, "/setup", { origin: ORIGIN }, { email: "me@example.test", name: "Me", password: "my-own-password" });
      expect(real.status).toBe(201);
    } finally {
      await t.close();
    }
  });

  test("signing in and a cookie-authenticated change from the rebound name are 403", async () => {
    const t = await testApp();
    try {
      const login = await send(t, REBOUND, "/login", { origin: REBOUND }, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      expect(login.status).toBe(403);
      expect(login.cookie).toBeNull();
      const admin = await t.login();
      const auth = { cookie: admin.cookie, "x-csrf-token": admin.csrf };
      const change = await send(t, REBOUND, "/projects", { ...auth, origin: REBOUND }, { name: "Rebound", base_language_code: "en" });
      expect(change.status).toBe(403);
      expect(t.query("SELECT 1 FROM projects WHERE name = 'Rebound'")).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe("deploy.md Security notes: with no public URL set, the host the browser used is this server's", () => {
  test("JSON with the Origin of the address the browser used signs in", async () => {
    const t = await testApp({ env: { PHRASEBOOK_PUBLIC_URL: "" } });
    try {
      const r = await send(t, "http://10.0.0.5:8080", "/login", { origin: "http://10.0.0.5:8080" }, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      expect(r.status).toBe(200);
      expect(r.cookie).toStartWith("phrasebook_session=");
      const other = await send(t, "http://10.0.0.5:8080", "/login", { origin: "http://10.0.0.6:8080" }, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      expect(other.status).toBe(403);
    } finally {
      await t.close();
    }
  });
});
