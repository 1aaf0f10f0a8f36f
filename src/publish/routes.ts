import { Elysia, t } from "elysia";
import type { AppDeps } from "../app.ts";
import { releaseDetail } from "../authoring/releases.ts";
import { findProject } from "../authoring/projects.ts";
import { requireAdmin, sessionGuard } from "../authoring/routes/guard.ts";
import { importTranslations } from "./import.ts";
import { publishRelease, rotateReleaseSlug } from "./publish.ts";

/** Import content may be as large as a request body may be (the server's limit is 16 MB). */
const IMPORT_CONTENT_MAX_CHARS = 16 * 1024 * 1024;

/**
 * The publish, rotate and import lines of CONTRACTS 4. The services announce each change
 * (`changes.notify`), which purges the CDN and API caches of the project at once.
 */
export function publishRoutes(deps: AppDeps) {
  const { db, clock, changes, settings } = deps;
  return new Elysia({ prefix: "/dashboard/api" })
    .use(sessionGuard(deps))
    .post("/projects/:pid/releases/:rid/publish", async ({ params, session }) => {
      requireAdmin(session);
      const project = findProject(db, params.pid);
      const row = await publishRelease({ db, clock, changes, dataDir: settings.dataDir }, project, params.rid);
      return releaseDetail(db, settings.cdnUrl, findProject(db, params.pid), row);
    })
    .post("/projects/:pid/releases/:rid/rotate-slug", ({ params, session }) => {
      requireAdmin(session);
      const project = findProject(db, params.pid);
      return rotateReleaseSlug({ db, changes }, project, params.rid);
    })
    .post(
      "/projects/:pid/import",
      ({ params, body }) => {
        const project = findProject(db, params.pid);
        const result = importTranslations(db, clock, project, body);
        changes.notify(project.id);
        return result;
      },
      {
        body: t.Object({
          language_code: t.String({ minLength: 1, maxLength: 35 }),
          format: t.Union([t.Literal("json"), t.Literal("yaml"), t.Literal("arb")]),
          content: t.String({ maxLength: IMPORT_CONTENT_MAX_CHARS }),
        }),
      },
    );
}
