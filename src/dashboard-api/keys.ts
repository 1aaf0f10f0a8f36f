import { Elysia } from "elysia";
import { keyHistory } from "../authoring/history.ts";
import { createKey, deleteKey, getKey, listKeys, updateKey } from "../authoring/keys.ts";
import { HistoryListQuery, KeyListQuery, KeyPatch, NewKey, ProblemListQuery, TranslationValue } from "../authoring/model.ts";
import { listProblems } from "../authoring/problems.ts";
import { approveTranslation, setTranslation } from "../authoring/translations.ts";
import type { AppDeps } from "../deps.ts";
import type { DashboardContext } from "./access.ts";

/** Keys and translations: members may edit these (docs/product.md §4). Import: import.ts. */
export function keyRoutes(deps: AppDeps, context: DashboardContext) {
  const { db } = deps;
  return new Elysia()
    .use(context)
    .get("/projects/:pid/keys", ({ project, query }) => listKeys(db, project, query), {
      access: "read",
      inProject: true,
      // docs/product.md §8: the editor's filters.
      query: KeyListQuery,
    })
    // Every message-check finding of the project (docs/product.md §7).
    .get("/projects/:pid/problems", ({ project, query }) => listProblems(db, project, query), {
      access: "read",
      inProject: true,
      query: ProblemListQuery,
    })
    .post("/projects/:pid/keys", ({ project, body, status }) => status(201, createKey(deps, project, body)), {
      access: "edit",
      inProject: true,
      body: NewKey,
    })
    .get("/projects/:pid/keys/:keyId", ({ project, params }) => getKey(db, project, params.keyId), { access: "read", inProject: true })
    .patch("/projects/:pid/keys/:keyId", ({ project, params, body }) => updateKey(deps, project, params.keyId, body), {
      access: "edit",
      inProject: true,
      body: KeyPatch,
    })
    .delete(
      "/projects/:pid/keys/:keyId",
      ({ project, params, status }) => {
        deleteKey(deps, project, params.keyId);
        return status(204);
      },
      { access: "edit", inProject: true },
    )
    .put(
      "/projects/:pid/keys/:keyId/translations/:code",
      ({ project, params, body, caller }) => setTranslation(deps, project, params.keyId, params.code, body.value, caller.actor),
      { access: "edit", inProject: true, body: TranslationValue },
    )
    .post(
      "/projects/:pid/keys/:keyId/translations/:code/approve",
      ({ project, params, caller }) => approveTranslation(deps, project, params.keyId, params.code, caller.actor),
      { access: "edit", inProject: true },
    )
    // The changes of the key's translations, newest first, a page at a time (docs/product.md §8).
    .get("/projects/:pid/keys/:keyId/history", ({ project, params, query }) => keyHistory(db, project, params.keyId, query), {
      access: "read",
      inProject: true,
      query: HistoryListQuery,
    });
}
