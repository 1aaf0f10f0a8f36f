import { Elysia } from "elysia";
import { editorPreferencesOf, setEditorPreferences } from "../authoring/editor-preferences.ts";
import { keyCounts } from "../authoring/key-counts.ts";
import type { KeyReads } from "../authoring/key-reads.ts";
import { actorKey } from "../changes/actor.ts";
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
export function editorRoutes(deps: AppDeps, context: DashboardContext, reads: KeyReads) {
  const { db, clock, settings } = deps;
  return new Elysia()
    .use(context)
    // With a search, on the threads of `reads` (docs/dashboard.md "Speed"); without, from the kept counts.
    .get("/projects/:pid/key-counts", async ({ project, grant, query, caller, request }) => {
      const visible = visibleLanguages(grant, project);
      if (!query.search?.trim()) return keyCounts(db, project, query, visible);
      const job = { kind: "counts" as const, dataDir: settings.dataDir, project, query, visible: visible && [...visible] };
      return reads.run<ReturnType<typeof keyCounts>>(actorKey(caller.actor), job, request.signal);
    }, {
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
