import { Elysia } from "elysia";
import { editorPreferencesOf, setEditorPreferences } from "../authoring/editor-preferences.ts";
import { keyCounts } from "../authoring/key-counts.ts";
import { EditorPreferencesInput, KeyCountsQuery } from "../authoring/model.ts";
import { forbidden } from "../common/errors.ts";
import type { AppDeps } from "../deps.ts";
import { visibleLanguages, type Caller, type DashboardContext } from "./access.ts";

/** The signed-in user's row id; `access: "own"` has already refused a token, this says so again for the types. */
function userIdOf(caller: Caller): number {
  if (caller.kind !== "session") throw forbidden("token lacks scope admin");
  return caller.userId;
}

/**
 * What the key grid needs beyond the key list (docs/product.md §8, docs/dashboard.md): the counts
 * beside its filters, and the languages each user chose to see in a project.
 */
export function editorRoutes(deps: AppDeps, context: DashboardContext) {
  const { db, clock } = deps;
  return new Elysia()
    .use(context)
    .get("/projects/:pid/key-counts", ({ project, grant, query }) => keyCounts(db, project, query, visibleLanguages(grant, project)), {
      access: "read",
      inProject: true,
      query: KeyCountsQuery,
    })
    .get("/projects/:pid/editor-preferences", ({ project, caller }) => editorPreferencesOf(db, project, userIdOf(caller)), { access: "own", inProject: true })
    .put("/projects/:pid/editor-preferences", ({ project, caller, body }) => setEditorPreferences(db, clock, project, userIdOf(caller), body.languages), {
      access: "own",
      inProject: true,
      body: EditorPreferencesInput,
    });
}
