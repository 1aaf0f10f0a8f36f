/**
 * Users (product §4, docs/dashboard-api.md "Routes beyond product.md §4"): everyone signed in may
 * list them, admins add, change and delete them; the last admin stays.
 */
import { expect } from "bun:test";
import { scenarios, type Scenario, type ScenarioContext } from "../helpers/scenario.ts";
import { ADMIN_EMAIL } from "../helpers/server.ts";
import { coverage } from "./routes.ts";
import { AUTHOR, MEMBER, standardWorld } from "./world.ts";

const NEW_USER = { email: "new@example.test", name: "New", password: "new-password", role: "member" };

/** The author is the second admin; without them the bootstrap admin is the last one. */
const withoutAuthor = async ({ as, ids }: ScenarioContext) => expect((await as("admin").delete(`/users/${ids.authorId}`)).status).toBe(204);

const rows: Scenario[] = [
  {
    name: "a member may list users, without their password hashes",
    as: "member",
    method: "GET",
    url: "/users",
    status: 200,
    contains: [ADMIN_EMAIL, MEMBER.email, AUTHOR.email, '"role":"member"'],
    notContains: ["argon2", "password"],
  },

  {
    name: "an admin adds a user, who can then sign in",
    method: "POST",
    url: "/users",
    body: NEW_USER,
    status: 201,
    async after({ t }, body) {
      expect(body).toEqual({ id: expect.stringMatching(/^usr_[0-9A-Za-z]{20}$/), email: NEW_USER.email, name: "New", role: "member", created_at: "2026-01-01T00:00:00.000Z", break_glass: false });
      expect(t.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE public_id = ?", body.id)[0]!.password_hash).toStartWith("$argon2id$");
      expect((await t.client().login(NEW_USER.email, NEW_USER.password)).status).toBe(200);
    },
  },
  { name: "an email taken in another letter case is 409", method: "POST", url: "/users", body: { ...NEW_USER, email: "MEMBER@Example.test" }, status: 409, contains: ["already exists"] },
  { name: "an unknown role is 400 naming it", method: "POST", url: "/users", body: { ...NEW_USER, role: "owner" }, status: 400, contains: ['"role"'] },
  { name: "an email that is no address is 400 naming it", method: "POST", url: "/users", body: { ...NEW_USER, email: "not-an-email" }, status: 400, contains: ['"email"'] },
  { name: "a password under 8 characters is 400 naming it", method: "POST", url: "/users", body: { ...NEW_USER, password: "1234567" }, status: 400, contains: ['"password"'] },
  { name: "a blank name is 400 naming it", method: "POST", url: "/users", body: { ...NEW_USER, name: "   " }, status: 400, contains: ['"name"'] },
  { name: "a member may not add users", as: "member", method: "POST", url: "/users", body: { ...NEW_USER, role: "admin" }, status: 403, contains: ['{"error":"this needs the admin role"}'] },

  {
    name: "promoting a member takes effect in their running session",
    method: "PATCH",
    url: "/users/:memberId",
    body: { role: "admin" },
    status: 200,
    contains: ['"role":"admin"', `"email":"${MEMBER.email}"`],
    async after({ as }) {
      expect((await as("member").post("/projects", { name: "By the new admin", base_language_code: "en" })).status).toBe(201);
    },
  },
  { name: "renaming trims the name", method: "PATCH", url: "/users/:memberId", body: { name: "  Renamed  " }, status: 200, contains: ['"name":"Renamed"'] },
  {
    name: "a new password replaces the old one",
    method: "PATCH",
    url: "/users/:memberId",
    body: { password: "another-password" },
    status: 200,
    async after({ t }) {
      expect((await t.client().login(MEMBER.email, MEMBER.password)).status).toBe(401);
      expect((await t.client().login(MEMBER.email, "another-password")).status).toBe(200);
    },
  },
  { name: "an admin may be demoted while another admin remains", method: "PATCH", url: "/users/:authorId", body: { role: "member" }, status: 200, contains: ['"role":"member"'] },
  { name: "the last admin cannot be demoted (409)", before: withoutAuthor, method: "PATCH", url: "/users/:adminId", body: { role: "member" }, status: 409, contains: ["last admin"] },
  { name: "an unknown user is 404", method: "PATCH", url: "/users/usr_00000000000000000000", body: { role: "admin" }, status: 404, contains: ["user not found"] },
  { name: "an unknown role is 400 naming it", method: "PATCH", url: "/users/:memberId", body: { role: "owner" }, status: 400, contains: ['"role"'] },
  { name: "a short password is 400 naming it", method: "PATCH", url: "/users/:memberId", body: { password: "short" }, status: 400, contains: ['"password"'] },
  { name: "a blank name is 400 naming it", method: "PATCH", url: "/users/:memberId", body: { name: " " }, status: 400, contains: ['"name"'] },
  { name: "a member may not change users", as: "member", method: "PATCH", url: "/users/:memberId", body: { role: "admin" }, status: 403, contains: ["admin role"] },

  {
    // interface §4.2 rule 3: a release stays listed after the user account that created it is deleted.
    name: "deleting a user ends their sessions and keeps the releases they made (interface §4.2 rule 3)",
    method: "DELETE",
    url: "/users/:authorId",
    status: 204,
    async after({ t, ids, as }) {
      const author = t.client();
      author.cookie = ids.authorCookie!;
      expect((await author.get("/me")).status).toBe(401);
      expect(t.query("SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ?", AUTHOR.email)).toEqual([]);
      const dashboard = await as("admin").get(`/projects/${ids.pid}/releases`);
      expect(dashboard.body.items.map((r: any) => r.id)).toContain(ids.releaseId);
      expect(t.query("SELECT created_by FROM releases WHERE public_id = ?", ids.releaseId!)).toEqual([{ created_by: null }]);
      const api = await t.fetch("/v1/releases", { headers: { authorization: `Bearer ${ids.token}` } });
      expect(api.status).toBe(200);
      expect((await api.json()).items.map((r: any) => r.id)).toEqual([ids.releaseId]);
    },
  },
  { name: "the last admin cannot be deleted (409)", before: withoutAuthor, method: "DELETE", url: "/users/:adminId", status: 409, contains: ["last admin"] },
  { name: "an unknown user is 404", method: "DELETE", url: "/users/usr_00000000000000000000", status: 404, contains: ["user not found"] },
  { name: "a member may not delete users", as: "member", method: "DELETE", url: "/users/:authorId", status: 403, contains: ["admin role"] },
];

scenarios("users", standardWorld, rows);
coverage("users", rows);
