/**
 * A project's members (docs/dashboard-api.md "Project roles"): the routes, who may change whom,
 * the last-admin rule of a project under parallel requests, and the upgrade that gives every
 * member of before `developer` on every project.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { loadSettings } from "../../src/config/settings.ts";
import { DATABASE_FILE } from "../../src/storage/db.ts";
import { migrate } from "../../src/storage/migrate.ts";
import { MIGRATIONS } from "../../src/storage/migrations/index.ts";
import { testApp, testDir } from "../helpers/app.ts";
import { openWorld, scenarios, type Scenario, type ScenarioContext } from "../helpers/scenario.ts";
import { rolesWorld } from "../dashboard-api/roles-world.ts";
import { coverage } from "../dashboard-api/routes.ts";

/** The project's creator (the global admin) is an admin member too; without that row the project admin is the last one. */
async function dropCreator({ as, ids }: ScenarioContext) {
  const r = await as("admin").delete(`/projects/${ids.pid}/members/${ids.adminId}`);
  if (r.status !== 204) throw new Error(`creator's row: ${r.status}`);
}

const table: Scenario[] = [
  {
    name: "lists the members with their roles and the default role",
    method: "GET",
    url: "/projects/:pid/members",
    status: 200,
    after: (_ctx, body) => {
      expect(body.default_role).toBe("none");
      const byName = Object.fromEntries(body.items.map((m: any) => [m.user.name, [m.role, m.languages]]));
      expect(byName).toMatchObject({ translator: ["translator", ["de"]], reviewer: ["reviewer", ["de"]], "project-admin": ["admin", null], Mem: ["developer", null] });
      expect(byName.outsider).toBeUndefined();
    },
  },
  { name: "a project admin lists them", as: "project-admin", method: "GET", url: "/projects/:pid/members", status: 200, contains: ['"translator"'] },
  { name: "a developer (a member of before) may not", as: "member", method: "GET", url: "/projects/:pid/members", status: 403, contains: ["admin role"] },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/members", status: 404 },
  {
    name: "gives an outsider a role limited to languages, stored as the project spells them",
    as: "project-admin",
    method: "PUT",
    url: "/projects/:pid/members/:outsiderId",
    body: { role: "translator", languages: ["PT-br", "de"] },
    status: 200,
    after: async ({ as }, body) => {
      expect(body).toMatchObject({ role: "translator", languages: ["pt-BR", "de"], user: { name: "outsider" } });
      const list = await as("outsider").get("/projects");
      expect(list.body.items.map((p: any) => p.name)).toEqual(["Shop"]);
    },
  },
  { name: "a member gets a higher role", method: "PUT", url: "/projects/:pid/members/:memberId", body: { role: "publisher" }, status: 200, contains: ['"publisher"'] },
  { name: "an unknown role is 400 naming the field", method: "PUT", url: "/projects/:pid/members/:memberId", body: { role: "owner" }, status: 400, contains: ['"role"'] },
  { name: "a global role is no project role", as: "project-admin", method: "PUT", url: "/projects/:pid/members/:memberId", body: { role: "member" }, status: 400, contains: ['"role"'] },
  { name: "languages for a role that has none is 400", method: "PUT", url: "/projects/:pid/members/:memberId", body: { role: "developer", languages: ["de"] }, status: 400, contains: ['"languages"', "only a translator or reviewer"] },
  { name: "a language the project lacks is 400 naming it", method: "PUT", url: "/projects/:pid/members/:memberId", body: { role: "translator", languages: ["fr"] }, status: 400, contains: ['"languages"', "fr is not a language of this project"] },
  { name: "an unknown user is 404", method: "PUT", url: "/projects/:pid/members/usr_00000000000000000000", body: { role: "viewer" }, status: 404, contains: ["user not found"] },
  { name: "a translator may not give themselves a higher role", as: "translator", method: "PUT", url: "/projects/:pid/members/:translatorId", body: { role: "admin" }, status: 403, contains: ["admin role"] },
  { name: "a developer may not change roles", as: "member", method: "PUT", url: "/projects/:pid/members/:outsiderId", body: { role: "viewer" }, status: 403, contains: ["admin role"] },
  { name: "a publisher may not make someone admin", as: "publisher", method: "PUT", url: "/projects/:pid/members/:outsiderId", body: { role: "admin" }, status: 403 },
  { name: "a project admin may not give anyone a role in a project they have none in", as: "project-admin", method: "PUT", url: "/projects/:otherPid/members/:projectadminId", body: { role: "admin" }, status: 404, contains: ["project not found"] },
  { name: "a project admin may not make anyone a global admin", as: "project-admin", method: "PATCH", url: "/users/:projectadminId", body: { role: "admin" }, status: 403, contains: ["admin role"] },
  { name: "a project admin removes a member", as: "project-admin", method: "DELETE", url: "/projects/:pid/members/:viewerId", status: 204 },
  { name: "the removed member no longer sees the project", method: "DELETE", url: "/projects/:pid/members/:viewerId", status: 204, after: async ({ as, ids }) => expect((await as("viewer").get(`/projects/${ids.pid}/keys`)).status).toBe(404) },
  { name: "removing a user without a role of their own is 404", method: "DELETE", url: "/projects/:pid/members/:outsiderId", status: 404, contains: ["no role of their own"] },
  { name: "a developer may not remove members", as: "member", method: "DELETE", url: "/projects/:pid/members/:viewerId", status: 403 },
  { name: "the last admin of a project cannot remove themselves", before: dropCreator, as: "project-admin", method: "DELETE", url: "/projects/:pid/members/:projectadminId", status: 409, contains: ["last admin of the project"] },
  { name: "the last admin of a project cannot be demoted, even by a global admin", before: dropCreator, method: "PUT", url: "/projects/:pid/members/:projectadminId", body: { role: "developer" }, status: 409, contains: ["last admin of the project"] },
];

scenarios("project members", rolesWorld, table);
coverage("members", table);

describe("parallel attacks on roles (docs/decisions.md \"Project roles\")", () => {
  test("two project admins demoting each other at once: one wins, the project keeps an admin", async () => {
    const w = await openWorld(rolesWorld);
    try {
      const admin = w.as("admin");
      await dropCreator(w);
      expect((await admin.put(`/projects/${w.ids.pid}/members/${w.ids.publisherId}`, { role: "admin" })).status).toBe(200);
      // The publisher is now the second project admin; each demotes the other at once, many times over.
      const a = w.as("project-admin");
      const b = w.as("publisher");
      const replies = await Promise.all([
        ...Array.from({ length: 10 }, () => a.put(`/projects/${w.ids.pid}/members/${w.ids.publisherId}`, { role: "viewer" })),
        ...Array.from({ length: 10 }, () => b.put(`/projects/${w.ids.pid}/members/${w.ids.projectadminId}`, { role: "viewer" })),
        ...Array.from({ length: 5 }, () => a.delete(`/projects/${w.ids.pid}/members/${w.ids.projectadminId}`)),
      ]);
      for (const r of replies) expect([200, 204, 403, 404, 409]).toContain(r.status);
      const admins = w.t.query<{ n: number }>("SELECT count(*) AS n FROM project_members WHERE role = 'admin' AND project_id = (SELECT id FROM projects WHERE public_id = ?)", w.ids.pid)[0]!.n;
      expect(admins).toBe(1);
    } finally {
      await w.close();
    }
  });

  test("a project admin cannot reach global admin rights, another project, or the last global admin", async () => {
    const w = await openWorld(rolesWorld);
    try {
      const pa = w.as("project-admin");
      const replies = await Promise.all([
        pa.patch(`/users/${w.ids.projectadminId}`, { role: "admin" }),
        pa.post("/users", { email: "x@example.test", name: "X", password: "password-1", role: "admin" }),
        pa.put(`/projects/${w.ids.otherPid}/members/${w.ids.projectadminId}`, { role: "admin" }),
        pa.put(`/projects/${w.ids.listPid}/members/${w.ids.translatorId}`, { role: "admin" }),
        pa.delete(`/users/${w.ids.adminId}`),
        pa.post("/projects", { name: "Mine", base_language_code: "en" }),
      ]);
      expect(replies.map((r) => r.status)).toEqual([403, 403, 404, 404, 403, 403]);
      expect(w.t.query("SELECT role FROM users WHERE public_id = ?", w.ids.projectadminId)).toEqual([{ role: "member" }]);
      // Two global admins demoting each other at once: one stays (the global last-admin rule).
      const admin = w.as("admin");
      const author = w.t.client();
      author.cookie = w.ids.authorCookie!;
      const me = await author.get("/me");
      author.csrf = me.body.csrf_token;
      await Promise.all([admin.patch(`/users/${w.ids.authorId}`, { role: "member" }), author.patch(`/users/${w.ids.adminId}`, { role: "member" })]);
      expect(w.t.query<{ n: number }>("SELECT count(*) AS n FROM users WHERE role = 'admin'")[0]!.n).toBeGreaterThanOrEqual(1);
    } finally {
      await w.close();
    }
  });
});

/**
 * PHRASEBOOK_DEFAULT_PROJECT_ROLE (docs/dashboard-api.md "Project roles"): the role of every
 * non-admin user on every project where they hold none of their own; a role of their own, lower
 * or limited to languages, still wins.
 */
const VIEWER_BY_DEFAULT = { env: { PHRASEBOOK_DEFAULT_PROJECT_ROLE: "viewer" } };
scenarios(
  "PHRASEBOOK_DEFAULT_PROJECT_ROLE=viewer",
  rolesWorld,
  [
    {
      name: "a user without any role of their own lists every project, as a viewer",
      as: "outsider",
      method: "GET",
      url: "/projects",
      status: 200,
      after: (_ctx, body) => expect(body.items.map((p: any) => [p.name, p.role, p.role_languages]).sort()).toEqual([["Listing", "viewer", null], ["Other", "viewer", null], ["Shop", "viewer", null]]),
    },
    { name: "and reads a project's keys", as: "outsider", method: "GET", url: "/projects/:otherPid/keys", status: 200 },
    { name: "but edits no translation", as: "outsider", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/de", body: { value: "Kasse?" }, status: 403, contains: ["needs the translator role in this project; yours is viewer"] },
    { name: "a role of one's own wins, with its language limit", as: "translator", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/pt-BR", body: { value: "Caixa" }, status: 403, contains: ["covers de, not pt-BR"] },
    { name: "and in a project without a role of one's own, the default", as: "translator", method: "GET", url: "/projects/:otherPid", status: 200, contains: ['"role":"viewer"'] },
    { name: "the members list names the default role", method: "GET", url: "/projects/:pid/members", status: 200, contains: ['"default_role":"viewer"'] },
  ],
  VIEWER_BY_DEFAULT,
);

test("PHRASEBOOK_DEFAULT_PROJECT_ROLE takes a project role or none, nothing else", () => {
  expect(loadSettings({ PHRASEBOOK_DEFAULT_PROJECT_ROLE: "Publisher" }).defaultProjectRole).toBe("publisher");
  expect(loadSettings({}).defaultProjectRole).toBe("none");
  expect(() => loadSettings({ PHRASEBOOK_DEFAULT_PROJECT_ROLE: "member" })).toThrow("PHRASEBOOK_DEFAULT_PROJECT_ROLE: must be one of none, viewer, translator, reviewer, developer, publisher, admin");
});

describe("upgrade (docs/deploy.md Upgrades)", () => {
  test("every member of before holds developer on every existing project, exactly their old rights; admins need no row", async () => {
    const dataDir = testDir();
    const db = new Database(join(dataDir, DATABASE_FILE), { create: true });
    const before = MIGRATIONS.findIndex((m) => m.tag.endsWith("_project_members"));
    expect(before).toBeGreaterThan(0);
    migrate(db, MIGRATIONS.slice(0, before));
    db.run("INSERT INTO users (public_id, email, name, password_hash, role, created_at) VALUES ('usr_00000000000000000001', 'a@example.test', 'A', NULL, 'admin', 0)");
    db.run("INSERT INTO users (public_id, email, name, password_hash, role, created_at) VALUES ('usr_00000000000000000002', 'm@example.test', 'M', NULL, 'member', 0)");
    db.run("INSERT INTO projects (public_id, name, base_language_code, cdn_slug, created_at) VALUES ('prj_00000000000000000001', 'P1', 'en', 'slug000000000001', 0)");
    db.run("INSERT INTO projects (public_id, name, base_language_code, cdn_slug, created_at) VALUES ('prj_00000000000000000002', 'P2', 'en', 'slug000000000002', 0)");
    migrate(db);
    expect(db.query("SELECT project_id, user_id, role, languages FROM project_members ORDER BY project_id").all()).toEqual([
      { project_id: 1, user_id: 2, role: "developer", languages: null },
      { project_id: 2, user_id: 2, role: "developer", languages: null },
    ]);
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("a new data dir starts with no member rows", async () => {
    const t = await testApp();
    try {
      expect(t.query("SELECT count(*) AS n FROM project_members")).toEqual([{ n: 0 }]);
    } finally {
      await t.close();
    }
  });
});
