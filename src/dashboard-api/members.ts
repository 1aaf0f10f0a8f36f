import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { listMembers, removeMember, setMember } from "../members/members.ts";
import { MemberInput } from "../members/model.ts";
import type { DashboardContext } from "./access.ts";

/** A project's members and their roles (docs/dashboard-api.md "Project roles"): the project's admins and global admins. */
export function memberRoutes(deps: AppDeps, context: DashboardContext) {
  const { db, clock, settings } = deps;
  return new Elysia()
    .use(context)
    .get("/projects/:pid/members", ({ project }) => listMembers(db, project, settings.defaultProjectRole), { access: "members", inProject: true })
    .put("/projects/:pid/members/:userId", ({ project, params, body, by }) => setMember(db, clock, project, params.userId, body, by), {
      access: "members",
      inProject: true,
      body: MemberInput,
    })
    .delete(
      "/projects/:pid/members/:userId",
      ({ project, params, status, by }) => {
        removeMember(db, clock, project, params.userId, by);
        return status(204);
      },
      { access: "members", inProject: true },
    );
}
