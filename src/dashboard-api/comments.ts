import { Elysia } from "elysia";
import { addComment, deleteComment, listComments, resolveComment } from "../comments/comments.ts";
import { NewComment } from "../comments/model.ts";
import type { AppDeps } from "../deps.ts";
import { grantHolds, visibleLanguages, type DashboardContext } from "./access.ts";

/**
 * Comments on keys (docs/translators.md "Comments"): read by viewers (those of the languages their
 * role shows), written and resolved by translators and up and write tokens, deleted by their
 * author or a project admin.
 */
export function commentRoutes(deps: AppDeps, context: DashboardContext) {
  const { db } = deps;
  return new Elysia()
    .use(context)
    .get("/projects/:pid/keys/:keyId/comments", ({ project, grant, params }) => ({ items: listComments(db, project, params.keyId, visibleLanguages(grant, project)) }), {
      access: "read",
      inProject: true,
    })
    .post(
      "/projects/:pid/keys/:keyId/comments",
      ({ project, grant, params, body, caller, status }) => status(201, addComment(deps, project, params.keyId, body, caller.actor, visibleLanguages(grant, project))),
      { access: "comment", inProject: true, body: NewComment },
    )
    .post("/projects/:pid/keys/:keyId/comments/:commentId/resolve", ({ project, params }) => resolveComment(deps, project, params.keyId, params.commentId), {
      access: "comment",
      inProject: true,
    })
    .delete(
      "/projects/:pid/keys/:keyId/comments/:commentId",
      ({ project, grant, params, caller, status }) => {
        deleteComment(deps, project, params.keyId, params.commentId, caller.actor, grantHolds(grant, "settings"));
        return status(204);
      },
      { access: "comment", inProject: true },
    );
}
