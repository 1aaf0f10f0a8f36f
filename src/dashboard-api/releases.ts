import { Elysia } from "elysia";
import { forbidden } from "../common/errors.ts";
import type { AppDeps } from "../deps.ts";
import { NewRelease, PublishOptions, ReleasePatch } from "../releases/model.ts";
import { deleteRelease, publishRelease, rotateReleaseSlug } from "../releases/publish.ts";
import { createRelease, findRelease, listReleases, releaseDetail, updateRelease } from "../releases/releases.ts";
import { grantHolds, type DashboardContext } from "./access.ts";

/** Releases: drafts, publishing, slugs, deletion (docs/product.md §4, docs/publishing.md). */
export function releaseRoutes(deps: AppDeps, context: DashboardContext) {
  const { db, settings } = deps;
  const { cdnUrl, dataDir } = settings;
  return new Elysia()
    .use(context)
    .get("/projects/:pid/releases", ({ project }) => ({ items: listReleases(db, project) }), { access: "read", inProject: true })
    .post("/projects/:pid/releases", ({ project, caller, body, status }) => status(201, createRelease(deps, project, caller.userId, body)), {
      access: "release",
      inProject: true,
      body: NewRelease,
    })
    .get("/projects/:pid/releases/:rid", ({ project, params }) => releaseDetail(db, cdnUrl, project, findRelease(db, project, params.rid)), {
      access: "read",
      inProject: true,
    })
    .patch("/projects/:pid/releases/:rid", ({ project, params, body }) => releaseDetail(db, cdnUrl, project, updateRelease(deps, project, params.rid, body)), {
      access: "release",
      inProject: true,
      body: ReleasePatch,
    })
    .post(
      "/projects/:pid/releases/:rid/publish",
      async ({ project, grant, params, body }) => {
        // Letting errors through is a project admin's call; a publish-scope token cannot (docs/product.md §7).
        const allowErrors = body?.allow_errors === true;
        if (allowErrors && !grantHolds(grant, "settings")) throw forbidden("only an admin may publish with errors (allow_errors)");
        return releaseDetail(db, cdnUrl, project, await publishRelease(deps, dataDir, project, params.rid, { allowErrors }));
      },
      { access: "release", inProject: true, body: PublishOptions },
    )
    .post("/projects/:pid/releases/:rid/rotate-slug", ({ project, params }) => rotateReleaseSlug(deps, project, params.rid), {
      access: "settings",
      inProject: true,
    })
    .delete(
      "/projects/:pid/releases/:rid",
      async ({ project, params, status }) => {
        await deleteRelease(deps, dataDir, project, params.rid);
        return status(204);
      },
      { access: "delete-release", inProject: true },
    );
}
