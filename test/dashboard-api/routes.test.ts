/**
 * The route list the tables are checked against (routes.ts) is the app's: every dashboard API
 * route is owned by exactly one table file, and no listed route is gone. With the coverage test of
 * each file, a route added without rows fails here.
 */
import { expect, test } from "bun:test";
import { testApp } from "../helpers/app.ts";
import { dashboardRoutes, missingRows, ROUTES, rowMatches } from "./routes.ts";

test("every dashboard API route is owned by exactly one table file", async () => {
  const t = await testApp({ env: { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" } });
  try {
    const app = (await dashboardRoutes(t.app)).map((r) => `${r.method} ${r.path}`);
    const listed = Object.values(ROUTES).flatMap((routes) => routes.map(([route]) => route));
    expect(app.length).toBeGreaterThan(40);
    expect([...listed].sort()).toEqual([...app].sort());
  } finally {
    await t.close();
  }
});

test("the coverage check finds what a table lacks", () => {
  const route = { method: "PATCH", path: "/projects/:pid/keys/:keyId", validates: true, hasBody: true };
  expect(missingRows(route, "admin", [])).toEqual(["a success row", "a 400 row naming the field", "a 404 row", "a member 403 row"]);
  const rows = [
    { name: "", method: "PATCH", url: "/projects/:pid/keys/:keyId", status: 200 },
    { name: "", method: "PATCH", url: "/projects/:pid/keys/key_x", status: 400, contains: ['"key"'] },
    { name: "", method: "PATCH", url: "/projects/prj_x/keys/:keyId", status: 404 },
    { name: "", method: "PATCH", url: "/projects/:pid/keys/:keyId", as: "member" as const, status: 200 },
  ];
  expect(missingRows(route, "member", rows)).toEqual([]);
  expect(missingRows(route, "admin", rows)).toEqual(["a member 403 row"]);
  expect(rowMatches({ method: "PATCH", url: "/projects/:pid/keys/:keyId/translations/de" }, "PATCH", route.path)).toBe(false);
  expect(rowMatches({ method: "GET", url: "/projects/:pid/keys?page=2" }, "GET", "/projects/:pid/keys")).toBe(true);
});
