import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { deleteMemoryImport, listMemoryImports } from "../memory/imports.ts";
import { MEMORY_IMPORT_MAX_BYTES, MemoryExportQuery, MemoryImportQuery, PretranslateInput, SuggestionsQuery } from "../memory/model.ts";
import { MemoryImports } from "../memory/runner.ts";
import { TranslatorHelp } from "../memory/service.ts";
import { invalidQueryParameter } from "../common/errors.ts";
import { readScope, requireVisible, type Access, type DashboardContext } from "./access.ts";
import type { RawBody, RawBodyRoute } from "./guards.ts";
import { memoryExportOffThread, memoryImportOffThread, pretranslateOffThread } from "./worker.ts";

/** A TMX file is the body of an import (docs/architecture.md "Adding a binary upload"). */
export const MEMORY_IMPORT_BODY: RawBodyRoute<Access> = {
  method: "POST",
  path: "/projects/:pid/tm/import",
  types: ["application/xml", "text/xml", "application/x-tmx+xml"],
  maxBytes: MEMORY_IMPORT_MAX_BYTES,
  access: "import",
};

/**
 * The translation memory, machine translation and pre-translation (docs/translators.md): reading
 * for viewers (in the languages their role shows), importing and pre-translating for developers
 * and write tokens.
 */
export function memoryRoutes(deps: AppDeps, context: DashboardContext) {
  const { db, settings, clock } = deps;
  const help = new TranslatorHelp(deps, pretranslateOffThread);
  const imports = new MemoryImports(settings.dataDir, () => clock.now(), memoryImportOffThread);
  return new Elysia()
    .use(context)
    .get(
      "/projects/:pid/keys/:keyId/suggestions",
      ({ project, grant, caller, params, query }) => {
        if (query.language !== undefined) requireVisible(grant, project, query.language);
        return help.suggestions(project, params.keyId, query, readScope(deps, caller, query.language ?? ""));
      },
      { access: "read", inProject: true, query: SuggestionsQuery },
    )
    .get(
      "/projects/:pid/tm.tmx",
      async ({ project, grant, query, set }) => {
        if (query.language === undefined || query.language.trim() === "") throw invalidQueryParameter("language", "required: the language the memory translates into");
        requireVisible(grant, project, query.language);
        if (query.imported !== undefined && query.imported !== "true" && query.imported !== "false") throw invalidQueryParameter("imported", "must be true or false");
        const file = await memoryExportOffThread({ dataDir: settings.dataDir, project, language: query.language, imported: query.imported === "true", now: clock.now() });
        set.headers["content-type"] = "application/x-tmx+xml; charset=utf-8";
        set.headers["content-disposition"] = `attachment; filename="${file.name.replace(/[^\w.-]/g, "_")}"`;
        set.headers["cache-control"] = "no-store";
        return file.body;
      },
      { access: "read", inProject: true, query: MemoryExportQuery },
    )
    .post("/projects/:pid/tm/import", ({ project, body, query, caller }) => imports.run(project, (body as RawBody).bytes, query.name ?? null, caller.actor), {
      access: MEMORY_IMPORT_BODY.access,
      inProject: true,
      query: MemoryImportQuery,
    })
    .get("/projects/:pid/tm/imports", ({ project }) => listMemoryImports(db, project), { access: "read", inProject: true })
    .delete(
      "/projects/:pid/tm/imports/:importId",
      ({ project, params, status }) => {
        deleteMemoryImport(db, project, params.importId);
        return status(204);
      },
      { access: "import", inProject: true },
    )
    .post("/projects/:pid/pretranslate", ({ project, body, caller }) => help.pretranslate(project, body, readScope(deps, caller, body.language_code), caller.actor), {
      access: "import",
      inProject: true,
      body: PretranslateInput,
    });
}
