import { Elysia, t } from "elysia";
import type { AppDeps } from "../../app.ts";
import { findProject } from "../projects.ts";
import { deleteRelease } from "../../publish/publish.ts";
import { createRelease, findRelease, listReleases, releaseDetail, updateRelease } from "../releases.ts";
import { requireAdmin, sessionGuard } from "./guard.ts";

const Name = t.String({ maxLength: 200 });
const Tag = t.String({ maxLength: 100 });

export function releaseRoutes(deps: AppDeps) {
  const { db, clock, changes, settings } = deps;
  return new Elysia()
    .use(sessionGuard(deps))
    .get("/projects/:pid/releases", ({ params }) => ({ items: listReleases(db, findProject(db, params.pid)) }))
    .post(
      "/projects/:pid/releases",
      ({ params, body, session, set }) => {
        requireAdmin(session);
        set.status = 201;
        return createRelease(db, clock, findProject(db, params.pid), session.userId, body);
      },
      { body: t.Object({ name: Name, tag: Tag }) },
    )
    .get("/projects/:pid/releases/:rid", ({ params }) => {
      const project = findProject(db, params.pid);
      return releaseDetail(db, settings.cdnUrl, project, findRelease(db, project, params.rid));
    })
    .patch(
      "/projects/:pid/releases/:rid",
      ({ params, body, session }) => {
        requireAdmin(session);
        const project = findProject(db, params.pid);
        const row = updateRelease(db, clock, project, params.rid, body);
        changes.notify(project.id);
        return releaseDetail(db, settings.cdnUrl, project, row);
      },
      { body: t.Object({ name: t.Optional(Name), tag: t.Optional(Tag) }) },
    )
    .delete("/projects/:pid/releases/:rid", async ({ params, session, set }) => {
      requireAdmin(session);
      const project = findProject(db, params.pid);
      // CONTRACTS 3: the row and its event, the cache purge, then its files.
      await deleteRelease({ db, clock, changes, dataDir: settings.dataDir }, project, params.rid);
      set.status = 204;
    });
}
