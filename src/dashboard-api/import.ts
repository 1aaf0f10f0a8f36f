import { Elysia } from "elysia";
import { ImportRunner } from "../authoring/import-runner.ts";
import { ImportBody } from "../authoring/model.ts";
import type { AppDeps } from "../deps.ts";
import type { DashboardContext } from "./access.ts";
import { importOffThread } from "./worker.ts";

/** Import as sync (docs/product.md §4, §6): developers and up, and tokens with the write scope. */
export function importRoutes(deps: AppDeps, context: DashboardContext) {
  const runner = new ImportRunner(deps, importOffThread);
  return new Elysia().use(context).post("/projects/:pid/import", ({ project, body, caller, request }) => runner.run(project, body, caller.actor, request.signal), {
    access: "import",
    inProject: true,
    // The options and their limits are the model's (authoring/model.ts); the format, the registry's.
    body: ImportBody,
  });
}
