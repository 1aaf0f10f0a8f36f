import { Elysia } from "elysia";
import { keyHistory } from "../authoring/history.ts";
import { createKey, deleteKey, getKey, listKeys, updateKey } from "../authoring/keys.ts";
import type { listProblems } from "../authoring/problems.ts";
import { HistoryListQuery, KeyListQuery, KeyPatch, NewKey, ProblemListQuery, TranslationValue } from "../authoring/model.ts";
import type { KeyReads } from "../authoring/key-reads.ts";
import { actorKey } from "../changes/actor.ts";
import { approveTranslation, setTranslation } from "../authoring/translations.ts";
import type { AppDeps } from "../deps.ts";
import { onlyVisible, visibleLanguages, type DashboardContext } from "./access.ts";

/** A key with only the translations a language-limited role sees (docs/dashboard-api.md "Project roles"). */
function keyShown<K extends { translations: Record<string, unknown> }>(visible: Set<string> | null, key: K): K {
  if (visible === null) return key;
  return { ...key, translations: Object.fromEntries(Object.entries(key.translations).filter(([code]) => visible.has(code.toLowerCase()))) };
}

function keysShown<L extends { items: { translations: Record<string, unknown> }[] }>(visible: Set<string> | null, list: L): L {
  return visible === null ? list : { ...list, items: list.items.map((key) => keyShown(visible, key)) };
}

/** A page of findings without those of languages the role does not see (the page's totals still count them). */
function problemsShown<L extends { items: { language_code: string }[] }>(visible: Set<string> | null, list: L): L {
  return visible === null ? list : { ...list, items: onlyVisible(visible, list.items, (p) => p.language_code) };
}

/**
 * Keys and translations: members may edit these (docs/product.md §4). Import: import.ts. A search,
 * a status filter and the problem list read up to every value of the project: they run on the
 * threads of `reads`, a caller's few at a time (docs/dashboard.md "Speed"); a plain page of keys
 * reads a page's worth and stays here.
 */
export function keyRoutes(deps: AppDeps, context: DashboardContext, reads: KeyReads) {
  const { db, settings } = deps;
  return new Elysia()
    .use(context)
    .get(
      "/projects/:pid/keys",
      async ({ project, grant, query, caller, request }) => {
        const visible = visibleLanguages(grant, project);
        // A search reads only what the caller may read (docs/dashboard-api.md "Project roles").
        const reading = query.search?.trim() || query.status !== undefined;
        const list = reading
          ? await reads.run<ReturnType<typeof listKeys>>(actorKey(caller.actor), { kind: "list", dataDir: settings.dataDir, project, query, visible: visible && [...visible] }, request.signal)
          : listKeys(db, project, query, visible);
        return keysShown(visible, list);
      },
      {
        access: "read",
        inProject: true,
        // docs/product.md §8: the editor's filters.
        query: KeyListQuery,
      },
    )
    // Every message-check finding of the project (docs/product.md §7).
    .get(
      "/projects/:pid/problems",
      async ({ project, grant, query, caller, request }) =>
        problemsShown(
          visibleLanguages(grant, project),
          await reads.run<ReturnType<typeof listProblems>>(actorKey(caller.actor), { kind: "problems", dataDir: settings.dataDir, project, query, visible: null }, request.signal),
        ),
      {
      access: "read",
      inProject: true,
      query: ProblemListQuery,
    })
    .post("/projects/:pid/keys", ({ project, body, status }) => status(201, createKey(deps, project, body)), {
      access: "keys",
      inProject: true,
      body: NewKey,
    })
    .get("/projects/:pid/keys/:keyId", ({ project, grant, params }) => keyShown(visibleLanguages(grant, project), getKey(db, project, params.keyId)), { access: "read", inProject: true })
    .patch("/projects/:pid/keys/:keyId", ({ project, params, body }) => updateKey(deps, project, params.keyId, body), {
      access: "keys",
      inProject: true,
      body: KeyPatch,
    })
    .delete(
      "/projects/:pid/keys/:keyId",
      ({ project, params, status }) => {
        deleteKey(deps, project, params.keyId);
        return status(204);
      },
      { access: "keys", inProject: true },
    )
    .put(
      "/projects/:pid/keys/:keyId/translations/:code",
      ({ project, params, body, caller }) => setTranslation(deps, project, params.keyId, params.code, body.value, caller.actor),
      { access: "translate", inProject: true, body: TranslationValue },
    )
    .post(
      "/projects/:pid/keys/:keyId/translations/:code/approve",
      ({ project, params, caller }) => approveTranslation(deps, project, params.keyId, params.code, caller.actor),
      { access: "approve", inProject: true },
    )
    // The changes of the key's translations, newest first, a page at a time, in the languages the
    // caller's role shows (docs/product.md §8, docs/dashboard-api.md "Project roles").
    .get("/projects/:pid/keys/:keyId/history", ({ project, grant, params, query }) => keyHistory(db, project, params.keyId, query, visibleLanguages(grant, project)), {
      access: "read",
      inProject: true,
      query: HistoryListQuery,
    });
}
