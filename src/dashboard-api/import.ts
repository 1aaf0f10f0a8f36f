import { Elysia, t } from "elysia";
import { ImportRunner } from "../authoring/import-runner.ts";
import type { AppDeps } from "../deps.ts";
import { FORMAT_NAMES } from "../formats/registry.ts";
import type { DashboardContext } from "./access.ts";
import { importOffThread } from "./worker.ts";

/**
 * The file travels as a JSON string inside a request body of at most 16 MB; the file itself may be
 * at most 10 MB of UTF-8 (formats/read.ts IMPORT_LIMITS), a 413 naming that limit.
 */
const IMPORT_CONTENT_MAX_CHARS = 16 * 1024 * 1024;

/** Every format of the registry can be imported (docs/formats.md). */
const ImportFormat = t.Union(FORMAT_NAMES.map((name) => t.Literal(name)));

/** Import as sync (docs/product.md §4, §6): members, and tokens with the write scope. */
export function importRoutes(deps: AppDeps, context: DashboardContext) {
  const runner = new ImportRunner(deps, importOffThread);
  return new Elysia().use(context).post("/projects/:pid/import", ({ project, body, caller }) => runner.run(project, body, caller.actor), {
    access: "edit",
    inProject: true,
    body: t.Object({
      language_code: t.String({ minLength: 1, maxLength: 35 }),
      format: ImportFormat,
      content: t.String({ maxLength: IMPORT_CONTENT_MAX_CHARS }),
      dry_run: t.Optional(t.Boolean()),
      delete_missing: t.Optional(t.Boolean()),
    }),
  });
}
