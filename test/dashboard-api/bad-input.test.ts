/**
 * Bad input never gets a 5xx (product §4): every dashboard API route that takes a body, fed the
 * shapes a buggy or hostile script sends, and every id in every path, replaced by odd text,
 * answer a 4xx with {"error": "..."} that leaks nothing of the inside. The routes come from the
 * app itself, so a new route is swept too. One app on a copy of the standard world serves it all.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { log } from "../../src/common/log.ts";
import { openWorld, type WorldApp } from "../helpers/scenario.ts";
import { dashboardRoutes, type RouteInfo } from "./routes.ts";
import { pathWithIds, standardWorld } from "./world.ts";

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

const ODD_IDS = ["%00", "..%2F..", "%ZZ", "a".repeat(5000), "%F0%9F%98%80", "prj_" + "A".repeat(20)];

/** Nothing of the inside: no stack frame, no exception name, no SQL. */
const LEAK = /at .*\.ts:\d+|TypeError|RangeError|SQLITE|SELECT |INSERT /;

// Opened while the file loads: the tests below are one per route the app has.
const w: WorldApp = await openWorld(standardWorld);
const routes: RouteInfo[] = await dashboardRoutes(w.t.app);
const logged: string[] = [];
const write = process.stdout.write;

beforeAll(() => {
  // Every line the app logs while the sweep runs, to find an "unhandled error" among them.
  process.stdout.write = function (this: typeof process.stdout, chunk: any, ...rest: any[]) {
    logged.push(String(chunk));
    return write.call(this, chunk, ...rest);
  } as typeof process.stdout.write;
  log.info("malformed-input sweep starts"); // proves the capture sees the app's log
});
afterAll(async () => {
  process.stdout.write = write;
  await w.close();
});

function expectRefusedCleanly(what: string, r: { status: number; body: any }): void {
  expect(r.status, what).toBeGreaterThanOrEqual(400);
  expect(r.status, what).toBeLessThan(500);
  expect(typeof r.body?.error, `${what}: ${JSON.stringify(r.body).slice(0, 100)}`).toBe("string");
  expect(r.body.error, what).not.toMatch(LEAK);
}

describe("malformed bodies on every route that takes one", () => {
  test("the routes with a body are all there", () => {
    const withBody = routes.filter((r) => r.hasBody).map((r) => `${r.method} ${r.path}`);
    expect(withBody.length).toBeGreaterThanOrEqual(17);
    for (const route of ["POST /login", "POST /setup", "PUT /projects/:pid/keys/:keyId/translations/:code", "POST /projects/:pid/import", "POST /projects/:pid/webhooks/:wid/test"]) expect(withBody).toContain(route);
  });

  for (const route of routes.filter((r) => r.hasBody)) {
    test(`${route.method} ${route.path}: a 4xx with {"error"} for every malformed body, never a 5xx`, async () => {
      const admin = w.as("admin");
      const path = pathWithIds(route.path, w.ids);
      for (const body of BODIES) {
        const r = await admin.request(route.method, path, body);
        const what = `${route.method} ${route.path} with ${String(body).slice(0, 60)}`;
        expect(r.status, what).toBeLessThan(500);
        if (r.status >= 400) expectRefusedCleanly(what, r);
      }
    });
  }
});

describe("odd ids in paths", () => {
  for (const route of routes.filter((r) => r.path.includes(":"))) {
    test(`${route.method} ${route.path}: each id replaced by odd text is a 4xx with {"error"}${route.method === "GET" || route.method === "DELETE" ? ", a 404" : ""}`, async () => {
      const admin = w.as("admin");
      for (const param of route.path.match(/:[A-Za-z]+/g)!) {
        for (const odd of ODD_IDS) {
          const path = pathWithIds(route.path, w.ids, { [param.slice(1)]: odd });
          const r = await admin.request(route.method, path, route.hasBody ? {} : undefined);
          const what = `${route.method} ${route.path} with ${param} = ${odd.slice(0, 20)}`;
          expectRefusedCleanly(what, r);
          if (route.method === "GET" || route.method === "DELETE") expect(r.status, what).toBe(404);
        }
      }
    });
  }

  test("nothing was logged as an error meanwhile", () => {
    expect(logged.some((line) => line.includes('"msg":"malformed-input sweep starts"'))).toBe(true);
    expect(logged.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });
});
