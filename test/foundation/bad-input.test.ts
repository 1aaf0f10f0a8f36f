import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startServer, type TestServer } from "../helpers/server.ts";

/**
 * Bad input never gets a 5xx: every dashboard API route that takes a body, fed the shapes a buggy
 * script or a hostile one sends, answers a 4xx with {"error": "..."}.
 */
let server: TestServer;
let admin: DashboardClient;
let ids: Record<string, string>;

beforeAll(async () => {
  server = await startServer();
  admin = await DashboardClient.loggedIn(server.url);
  const pid = await admin.project("Fuzz", "en", ["de"]);
  const kid = await admin.key(pid, "fuzz.key", { en: "Hello", de: "Hallo" });
  const rel = await admin.post(`/projects/${pid}/releases`, { name: "R", tag: "r" });
  const hook = await admin.post(`/projects/${pid}/webhooks`, { url: "https://example.com/hook", events: ["key_created"] });
  const user = await admin.post("/users", { email: "fuzz@example.test", name: "F", password: "password-123", role: "member" });
  ids = { pid, kid, rid: rel.body.id, wid: hook.body.id, uid: user.body.id };
});
afterAll(() => server.stop());

const BODIES: unknown[] = [
  "not json at all",
  "null",
  "[]",
  '"a string"',
  "123",
  "{}",
  '{"name": null}',
  '{"name": 5, "key": [], "value": {}, "code": true, "url": 7, "events": "key_created", "tag": {}}',
  JSON.stringify({ name: "x".repeat(100_000), key: "y".repeat(100_000), value: "z".repeat(200_000), tag: "t".repeat(10_000) }),
  JSON.stringify({ name: "\u0000\u202e\ud800", key: "../../etc/passwd", code: "../..", url: "https://[::1", events: ["nope"], content: "{", format: "xml" }),
  '{"__proto__": {"admin": true}, "constructor": {"prototype": {}}}',
  JSON.stringify({ events: Array(10_000).fill("key_created"), url: "https://example.com/" + "a".repeat(10_000) }),
];

const ROUTES: [string, string][] = [
  ["POST", "/login"],
  ["POST", "/setup"],
  ["POST", "/users"],
  ["PATCH", "/users/:uid"],
  ["POST", "/projects"],
  ["PATCH", "/projects/:pid"],
  ["POST", "/projects/:pid/languages"],
  ["POST", "/projects/:pid/keys"],
  ["PATCH", "/projects/:pid/keys/:kid"],
  ["PUT", "/projects/:pid/keys/:kid/translations/de"],
  ["POST", "/projects/:pid/import"],
  ["POST", "/projects/:pid/releases"],
  ["PATCH", "/projects/:pid/releases/:rid"],
  ["POST", "/projects/:pid/tokens"],
  ["POST", "/projects/:pid/webhooks"],
  ["PATCH", "/projects/:pid/webhooks/:wid"],
  ["POST", "/projects/:pid/webhooks/:wid/test"],
];

describe("issue 2 item 6: malformed bodies on every route", () => {
  for (const [method, template] of ROUTES) {
    test(`${method} ${template}: a 4xx with {"error"} for every malformed body, never a 5xx`, async () => {
      const path = template.replace(/:(\w+)/g, (_, name) => ids[name]!);
      for (const body of BODIES) {
        const r = await admin.request(method, path, body);
        expect(r.status, `${method} ${template} with ${String(body).slice(0, 60)}`).toBeLessThan(500);
        if (r.status >= 400) {
          expect(typeof r.body?.error, `${method} ${template}: ${JSON.stringify(r.body).slice(0, 100)}`).toBe("string");
          expect(r.body.error).not.toMatch(/at .*\.ts:\d+|TypeError|SQLITE/);
        }
      }
    });
  }

  test("odd ids and codes in paths are 404s, never 5xx", async () => {
    for (const odd of ["%00", "..%2F..", "%ZZ", "a".repeat(5000), "%F0%9F%98%80", "prj_" + "A".repeat(20)]) {
      const paths = [
        `/projects/${odd}`,
        `/projects/${ids.pid}/keys/${odd}`,
        `/projects/${ids.pid}/releases/${odd}`,
        `/projects/${ids.pid}/languages/${odd}`,
        `/projects/${ids.pid}/tokens/${odd}`,
        `/projects/${ids.pid}/webhooks/${odd}`,
        `/projects/${ids.pid}/webhooks/${odd}/deliveries`,
        `/projects/${ids.pid}/deliveries/${odd}`,
        `/users/${odd}`,
      ];
      for (const code of [odd]) {
        const put = await admin.put(`/projects/${ids.pid}/keys/${ids.kid}/translations/${code}`, { value: "x" });
        expect(put.status, `translation ${code.slice(0, 20)}`).toBeLessThan(500);
        const approve = await admin.post(`/projects/${ids.pid}/keys/${ids.kid}/translations/${code}/approve`);
        expect(approve.status).toBeLessThan(500);
      }
      for (const path of paths) {
        const r = await admin.get(path);
        expect(r.status, path.slice(0, 80)).toBeLessThan(500);
        const d = await admin.delete(path);
        expect(d.status, path.slice(0, 80)).toBeLessThan(500);
      }
    }
    expect(server.output()).not.toContain('"level":"error"');
  });
});
