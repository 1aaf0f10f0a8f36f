/**
 * The standard world (world.ts) with one user per project role in "Shop" (docs/dashboard-api.md
 * "Project roles"), each signed in: a viewer, a translator and a reviewer limited to `de`, a
 * developer, a publisher, a project admin, and an outsider who holds no role in any project. None
 * of them holds a role in "Other".
 */
import type { TestApp } from "../helpers/app.ts";
import type { RoleWho, World } from "../helpers/scenario.ts";
import { standardWorld } from "./world.ts";

export const ROLE_USERS: { who: RoleWho; role: string | null; languages?: string[] }[] = [
  { who: "viewer", role: "viewer" },
  { who: "translator", role: "translator", languages: ["de"] },
  { who: "reviewer", role: "reviewer", languages: ["de"] },
  { who: "developer", role: "developer" },
  { who: "publisher", role: "publisher" },
  { who: "project-admin", role: "admin" },
  { who: "outsider", role: null },
];

export async function rolesWorld(t: TestApp): Promise<World> {
  const world = await standardWorld(t);
  const admin = await t.login();
  for (const { who, role, languages } of ROLE_USERS) {
    const email = `${who}@example.test`;
    const made = await admin.post("/users", { email, name: who, password: `${who}-password`, role: "member" });
    if (made.status !== 201) throw new Error(`${who}: ${made.status} ${JSON.stringify(made.body)}`);
    world.ids[`${who.replace("-", "")}Id`] = made.body.id;
    if (role) {
      const put = await admin.put(`/projects/${world.ids.pid}/members/${made.body.id}`, { role, ...(languages ? { languages } : {}) });
      if (put.status !== 200) throw new Error(`${who} role: ${put.status} ${JSON.stringify(put.body)}`);
    }
    const client = await t.login(email, `${who}-password`);
    world.sessions[who] = { cookie: client.cookie, csrf: client.csrf };
  }
  return world;
}
