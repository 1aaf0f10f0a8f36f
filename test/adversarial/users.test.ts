/**
 * The last-admin rule was once checked before the wait for a new password's hash, so two parallel
 * demotions left no admin. Demotions and deletions of every admin arrive truly at once (burst.ts)
 * at a server process, in several rounds; at least one admin must be left (docs/decisions.md
 * "Foundation": the last admin; docs/deploy.md "Security notes", limits table: one of a kind).
 * Resetting a password once kept the user's sessions, so whoever held the old cookie stayed signed
 * in; a new password ends them (docs/dashboard-api.md "Routes beyond product.md §4").
 */
import { describe, expect, test } from "bun:test";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { testApp } from "../helpers/app.ts";
import { startServer } from "../helpers/server.ts";
import { burst, jsonRequest, statusCounts, type BurstRequest } from "./burst.ts";

interface Admin {
  id: string;
  client: DashboardClient;
}

/** As `who`, a request that demotes (with a new password, the slow path) or deletes `target`. */
function against(who: Admin, target: Admin, kind: "demote" | "delete"): BurstRequest {
  const headers = { cookie: who.client.cookie, "x-csrf-token": who.client.csrf };
  if (kind === "delete") return { method: "DELETE", path: `/dashboard/api/users/${target.id}`, headers };
  return jsonRequest("PATCH", `/dashboard/api/users/${target.id}`, { role: "member", password: `new-password-${who.id}` }, headers);
}

describe("decisions.md Foundation, the last admin: it survives parallel demotions and deletions", () => {
  for (const [round, kinds] of [
    [1, ["demote"]],
    [2, ["demote"]],
    [3, ["demote", "delete"]],
  ] as const) {
    test(`round ${round}: three admins each ${kinds.join(" and ")} every admin at once; at least one admin is left`, async () => {
      const server = await startServer({ env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
      try {
        const first = await DashboardClient.loggedIn(server.url);
        const admins: Admin[] = [{ id: (await first.get("/me")).body.user.id, client: first }];
        for (const name of ["second", "third"]) {
          const made = await first.post("/users", { email: `${name}@example.test`, name, password: `${name}-password`, role: "admin" });
          expect(made.status).toBe(201);
          admins.push({ id: made.body.id, client: await DashboardClient.loggedIn(server.url, `${name}@example.test`, `${name}-password`) });
        }
        const requests = admins.flatMap((who) => admins.flatMap((target) => kinds.map((kind) => against(who, target, kind))));
        const replies = await burst(server.port, requests);
        for (const r of replies) expect([200, 204, 401, 403, 404, 409], JSON.stringify(r.json)).toContain(r.status);
        const left = server.query<{ n: number }>("SELECT count(*) AS n FROM users WHERE role = 'admin'")[0]!.n;
        expect(left, JSON.stringify(statusCounts(replies))).toBeGreaterThanOrEqual(1);
        // Every refusal by the rule names it.
        for (const r of replies.filter((x) => x.status === 409)) expect(r.json.error).toMatch(/^cannot (demote|delete) the last admin$/);
      } finally {
        await server.stop();
      }
    }, 60_000);
  }
});

describe("one user per email, however many creations arrive at once (decisions.md)", () => {
  test("three rounds of 10 parallel creations of one email: one 201, the rest 409, never a 500", async () => {
    const server = await startServer({ env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
    try {
      const admin = await DashboardClient.loggedIn(server.url);
      const auth = { cookie: admin.cookie, "x-csrf-token": admin.csrf };
      for (let round = 1; round <= 3; round++) {
        const email = `twin${round}@example.test`;
        const replies = await burst(
          server.port,
          Array.from({ length: 10 }, (_, i) => jsonRequest("POST", "/dashboard/api/users", { email, name: `Twin ${i}`, password: "twin-password", role: "member" }, auth)),
        );
        expect(statusCounts(replies), JSON.stringify(replies.map((r) => r.json))).toEqual({ 201: 1, 409: 9 });
        expect(server.query("SELECT 1 FROM users WHERE email = ?", email).length).toBe(1);
      }
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe("dashboard-api.md Routes beyond product.md §4, PATCH /users/:userId: a new password ends the user's sessions", () => {
  test("an admin resets a member's password: every session of the member ends at once; the admin's go on", async () => {
    const t = await testApp();
    try {
      const admin = await t.login();
      const made = await admin.post("/users", { email: "member@example.test", name: "Mem", password: "member-password", role: "member" });
      const laptop = await t.login("member@example.test", "member-password");
      const phone = await t.login("member@example.test", "member-password");
      expect((await laptop.get("/me")).status).toBe(200);
      expect((await admin.patch(`/users/${made.body.id}`, { password: "reset-by-admin" })).status).toBe(200);
      expect((await laptop.get("/me")).status).toBe(401);
      expect((await phone.get("/me")).status).toBe(401);
      expect((await admin.get("/me")).status).toBe(200);
      expect((await t.client().login("member@example.test", "member-password")).status).toBe(401);
      expect((await t.client().login("member@example.test", "reset-by-admin")).status).toBe(200);
      // A change of name or role alone signs no one out.
      const now = await t.login("member@example.test", "reset-by-admin");
      expect((await admin.patch(`/users/${made.body.id}`, { name: "Member" })).status).toBe(200);
      expect((await now.get("/me")).status).toBe(200);
      expect((await admin.patch(`/users/${made.body.id}`, { role: "admin" })).status).toBe(200);
      expect((await now.get("/me")).body.user.role).toBe("admin");
    } finally {
      await t.close();
    }
  });

  test("sign-ins with the old password that race a password change leave no session behind, three rounds", async () => {
    const server = await startServer({ env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
    try {
      const admin = await DashboardClient.loggedIn(server.url);
      const member = await admin.post("/users", { email: "racer@example.test", name: "Racer", password: "password-0", role: "member" });
      const auth = { cookie: admin.cookie, "x-csrf-token": admin.csrf };
      for (let round = 1; round <= 3; round++) {
        const old = `password-${round - 1}`;
        // The change first: the sign-ins read the old hash as they arrive and check it after the change commits.
        const requests = [
          jsonRequest("PATCH", `/dashboard/api/users/${member.body.id}`, { password: `password-${round}` }, auth),
          ...Array.from({ length: 4 }, () => jsonRequest("POST", "/dashboard/api/login", { email: "racer@example.test", password: old })),
        ];
        const replies = await burst(server.port, requests);
        expect(replies[0]!.status).toBe(200);
        // Whatever each sign-in answered, no session made with the old password outlives the change.
        expect(server.query("SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = 'racer@example.test'"), `round ${round}: ${JSON.stringify(statusCounts(replies))}`).toEqual([]);
        for (const r of replies.slice(1)) {
          if (r.status !== 200) continue;
          const me = await fetch(`${server.url}/dashboard/api/me`, { headers: { cookie: r.headers["set-cookie"]!.split(";")[0]! } });
          expect(me.status).toBe(401);
        }
      }
    } finally {
      await server.stop();
    }
  }, 60_000);

  test("an admin changes their own password: their other sessions end, the one they used stays", async () => {
    const t = await testApp();
    try {
      const here = await t.login();
      const elsewhere = await t.login();
      const me = (await here.get("/me")).body.user.id;
      expect((await here.patch(`/users/${me}`, { password: "a new admin password" })).status).toBe(200);
      expect((await here.get("/me")).status).toBe(200);
      expect((await elsewhere.get("/me")).status).toBe(401);
      expect(t.query("SELECT 1 FROM sessions").length).toBe(1);
    } finally {
      await t.close();
    }
  });
});
