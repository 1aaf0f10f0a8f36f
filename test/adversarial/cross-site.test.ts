/**
 * `/login` and `/setup` once took form and multipart bodies and looked at no Origin, so a cross-site HTML form could run a drive-by first-run setup, or sign a victim into
 * an attacker's account. Requests are sent in-process exactly as a browser on another site sends
 * them (docs/dashboard-api.md "Conventions", docs/deploy.md "Security notes"): bodies must be JSON,
 * and a cookie-authenticated change, signing in and the setup must come from this server's origin
 * or carry no Origin at all. A bearer token with no cookie is no browser's: its Origin is not
 * looked at.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ORIGIN, testApp, type TestApp } from "../helpers/app.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../helpers/server.ts";

const EVIL = "https://evil.example";
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function send(t: TestApp, path: string, init: { method?: string; headers?: Record<string, string>; body?: BodyInit }, url = ORIGIN) {
  const res = await t.app.handle(new Request(url + "/dashboard/api" + path, { method: init.method ?? "POST", headers: init.headers, body: init.body }), () => "127.0.0.1");
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json, cookie: res.headers.get("set-cookie") };
}

describe("dashboard-api.md Conventions and Authentication rule 3: a cross-site form cannot sign anyone in", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(() => t.close());

  const credentials = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD };

  for (const [what, headers, body] of [
    ["an HTML form (urlencoded) from another site", { "content-type": "application/x-www-form-urlencoded", origin: EVIL }, form(credentials)],
    ["an HTML form with no Origin (a privacy extension strips it)", { "content-type": "application/x-www-form-urlencoded" }, form(credentials)],
    ["a no-cors fetch with a text/plain JSON body", { "content-type": "text/plain;charset=UTF-8", origin: EVIL }, JSON.stringify(credentials)],
    ["a JSON body with no Content-Type", {}, JSON.stringify(credentials)],
  ] as const) {
    test(`${what} is 415 with the right password, and no cookie is set`, async () => {
      const r = await send(t, "/login", { headers, body });
      expect(r.status).toBe(415);
      expect(r.json.error).toStartWith("request body must be JSON (Content-Type: application/json)");
      expect(r.cookie).toBeNull();
    });
  }

  test("a multipart form is 415", async () => {
    const body = new FormData();
    body.set("email", ADMIN_EMAIL);
    body.set("password", ADMIN_PASSWORD);
    const r = await send(t, "/login", { headers: { origin: EVIL }, body });
    expect(r.status).toBe(415);
    expect(r.cookie).toBeNull();
  });

  for (const origin of [EVIL, "null", "http://localhost:8081", "https://localhost:8080.evil.example", "not a url"]) {
    test(`JSON with Origin ${origin} is 403 and sets no cookie`, async () => {
      const r = await send(t, "/login", { headers: { "content-type": "application/json", origin }, body: JSON.stringify(credentials) });
      expect(r.status).toBe(403);
      expect(r.json.error).toStartWith("cross-site request refused");
      expect(r.cookie).toBeNull();
    });
  }

  test("JSON with no Origin but Sec-Fetch-Site: cross-site is 403", async () => {
    const r = await send(t, "/login", { headers: { "content-type": "application/json", "sec-fetch-site": "cross-site" }, body: JSON.stringify(credentials) });
    expect(r.status).toBe(403);
  });

  for (const [what, headers, url] of [
    ["the public URL's Origin", { origin: ORIGIN, "sec-fetch-site": "same-origin" }, ORIGIN],
    ["no Origin (a script, curl)", {}, ORIGIN],
  ] as const) {
    test(`JSON with ${what} signs in`, async () => {
      const r = await send(t, "/login", { headers: { "content-type": "application/json; charset=utf-8", ...headers }, body: JSON.stringify(credentials) }, url);
      expect(r.status).toBe(200);
      expect(r.cookie).toStartWith("phrasebook_session=");
    });
  }
});

describe("dashboard-api.md Authentication rule 3: a cross-site form cannot run the first-run setup", () => {
  const NO_ADMIN = { env: { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" } };
  const attacker = { email: "attacker@evil.example", name: "Attacker", password: "attacker-password" };

  test("urlencoded, multipart, text/plain and cross-site JSON setups are refused and create no user; the real one then works", async () => {
    const t = await testApp(NO_ADMIN);
    try {
      const multipart = new FormData();
      for (const [k, v] of Object.entries(attacker)) multipart.set(k, v);
      const attempts = [
        await send(t, "/setup", { headers: { "content-type": "application/x-www-form-urlencoded", origin: EVIL }, body: form(attacker) }),
        await send(t, "/setup", { headers: { origin: EVIL }, body: multipart }),
        await send(t, "/setup", { headers: { "content-type": "text/plain", origin: EVIL }, body: JSON.stringify(attacker) }),
        await send(t, "/setup", { headers: { "content-type": "application/json", origin: EVIL }, body: JSON.stringify(attacker) }),
      ];
      expect(attempts.map((a) => a.status)).toEqual([415, 415, 415, 403]);
      for (const a of attempts) expect(a.cookie).toBeNull();
      expect(t.query("SELECT 1 FROM users")).toEqual([]);
      const real = await send(t, "/setup", { headers: { "content-type": "application/json", origin: ORIGIN }, body: JSON.stringify({ email: "me@example.test", name: "Me", password: "my-own-password" }) });
      expect(real.status).toBe(201);
    } finally {
      await t.close();
    }
  });
});

describe("dashboard-api.md Authentication rule 3: cookie-authenticated changes need this server's Origin too", () => {
  test("a change with a valid session and CSRF token but another site's Origin is 403 and writes nothing; a form body is 415", async () => {
    const t = await testApp();
    try {
      const admin = await t.login();
      const auth = { cookie: admin.cookie, "x-csrf-token": admin.csrf };
      const before = t.query("SELECT 1 FROM projects").length;
      const evil = await send(t, "/projects", { headers: { ...auth, "content-type": "application/json", origin: EVIL }, body: JSON.stringify({ name: "X", base_language_code: "en" }) });
      expect(evil.status).toBe(403);
      expect(evil.json.error).toStartWith("cross-site request refused");
      const formed = await send(t, "/projects", { headers: { ...auth, "content-type": "application/x-www-form-urlencoded", origin: ORIGIN }, body: form({ name: "X", base_language_code: "en" }) });
      expect(formed.status).toBe(415);
      expect(t.query("SELECT 1 FROM projects").length).toBe(before);
      const same = await send(t, "/projects", { headers: { ...auth, "content-type": "application/json", origin: ORIGIN }, body: JSON.stringify({ name: "X", base_language_code: "en" }) });
      expect(same.status).toBe(201);
      // Signing out from another site is refused as well: it is a change of the session.
      expect((await send(t, "/logout", { headers: { ...auth, origin: EVIL } })).status).toBe(403);
      expect((await admin.get("/me")).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  test("a bearer token without a cookie is no browser's: its Origin is not looked at (product §6)", async () => {
    const t = await testApp();
    try {
      const admin = await t.login();
      const pid = await admin.project("Shop", "en");
      const token = await admin.post(`/projects/${pid}/tokens`, { name: "CI", scopes: ["write"] });
      expect(token.status).toBe(201);
      const r = await send(t, `/projects/${pid}/keys`, {
        headers: { authorization: `Bearer ${token.body.token}`, "content-type": "application/json", origin: "https://ci.example" },
        body: JSON.stringify({ key: "from.ci" }),
      });
      expect(r.status).toBe(201);
    } finally {
      await t.close();
    }
  });
});
