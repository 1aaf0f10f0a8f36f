import { Elysia, t } from "elysia";
import type { AppDeps } from "../../app.ts";
import { findProject } from "../projects.ts";
import { createToken, deleteToken, listTokens } from "../tokens.ts";
import { requireAdmin, sessionGuard } from "./guard.ts";

export function tokenRoutes(deps: AppDeps) {
  const { db, clock, changes } = deps;
  return new Elysia()
    .use(sessionGuard(deps))
    .get("/projects/:pid/tokens", ({ params }) => ({ items: listTokens(db, findProject(db, params.pid)) }))
    .post(
      "/projects/:pid/tokens",
      ({ params, body, session, set }) => {
        requireAdmin(session);
        set.status = 201;
        return createToken(db, clock, findProject(db, params.pid), body);
      },
      { body: t.Object({ name: t.String({ maxLength: 100 }) }) },
    )
    .delete("/projects/:pid/tokens/:tokenId", ({ params, session, set }) => {
      requireAdmin(session);
      const project = findProject(db, params.pid);
      deleteToken(db, project, params.tokenId);
      changes.notify(project.id); // drops API cache entries a deleted token could still read
      set.status = 204;
    });
}
