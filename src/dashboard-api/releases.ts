import { Elysia } from "elysia";
import { forbidden } from "../common/errors.ts";
import type { AppDeps } from "../deps.ts";
import type { ReleaseDiff } from "../releases/diff.ts";
import type { ExportFile } from "../releases/export.ts";
import { ReleaseReads } from "../releases/read-job.ts";
import { DiffQuery, ExportQuery, NewRelease, PublishOptions, ReleasePatch, RepublishInput, ScheduleInput } from "../releases/model.ts";
import { deleteRelease, publishRelease, rotateReleaseSlug } from "../releases/publish.ts";
import { createRelease, findRelease, listReleases, releaseDetail, updateRelease } from "../releases/releases.ts";
import { republishRelease } from "../releases/republish.ts";
import { cancelSchedule, scheduleRelease } from "../releases/schedule.ts";
import { releaseReadOffThread } from "./worker.ts";
import { grantHolds, onlyVisible, visibleLanguages, type Access, type DashboardContext } from "./access.ts";

/**
 * Who may run each release operation (docs/releases.md, docs/dashboard-api.md "Access"), in one
 * place so that finer rights (per-project roles) can be mapped onto it: reading a diff or the
 * channels is reading the project; republishing, scheduling and moving channels are publishing.
 */
export const RELEASE_OPERATIONS_ACCESS = {
  diff: "read",
  republish: "release",
  schedule: "release",
  readChannels: "read",
  moveChannel: "release",
  rotateChannelSlug: "channel-slug",
  deleteChannel: "release",
} as const satisfies Record<string, Access>;

/**
 * A diff without the values and language codes of languages a language-limited role does not see
 * (docs/dashboard-api.md "Project roles"): a draft's diff holds strings not yet published. Its
 * counts stay whole, as a page of problems counts every language's.
 */
function diffShown(visible: Set<string> | null, diff: ReleaseDiff): ReleaseDiff {
  if (visible === null) return diff;
  const code = (c: string) => c;
  return {
    ...diff,
    changed: onlyVisible(visible, diff.changed, (c) => c.language_code),
    languages_added: onlyVisible(visible, diff.languages_added, code),
    languages_removed: onlyVisible(visible, diff.languages_removed, code),
  };
}

/** Releases: drafts, publishing, slugs, deletion (docs/product.md §4, docs/publishing.md). */
export function releaseRoutes(deps: AppDeps, context: DashboardContext) {
  const { db, settings } = deps;
  const { cdnUrl, dataDir } = settings;
  // Exports and diffs build whole files: on worker threads, a few at a time (releases/read-job.ts).
  const reads = new ReleaseReads(releaseReadOffThread);
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
    // A published release's strings as a file of any format (docs/formats.md "Export").
    .get(
      "/projects/:pid/releases/:rid/export",
      async ({ project, params, query, set }) => {
        const release = findRelease(db, project, params.rid); // an unknown release is a 404 before any thread starts
        const file = await reads.run<ExportFile>({ kind: "export", dataDir, project, releaseId: release.publicId, query });
        set.headers["content-type"] = file.contentType;
        set.headers["content-disposition"] = `attachment; filename="${file.name}"`;
        set.headers["cache-control"] = "no-store";
        return file.body;
      },
      { access: "read", inProject: true, query: ExportQuery },
    )
    .patch("/projects/:pid/releases/:rid", ({ project, params, body }) => releaseDetail(db, cdnUrl, project, updateRelease(deps, project, params.rid, body)), {
      access: "release",
      inProject: true,
      body: ReleasePatch,
    })
    .post(
      "/projects/:pid/releases/:rid/publish",
      async ({ project, grant, params, body, by }) => {
        // Letting errors through is a project admin's call; a publish-scope token cannot (docs/product.md §7).
        const allowErrors = body?.allow_errors === true;
        if (allowErrors && !grantHolds(grant, "settings")) throw forbidden("only an admin may publish with errors (allow_errors)");
        return releaseDetail(db, cdnUrl, project, await publishRelease(deps, dataDir, project, params.rid, { allowErrors, by }));
      },
      { access: "release", inProject: true, body: PublishOptions },
    )
    .post(
      "/projects/:pid/releases/:rid/republish",
      async ({ project, params, body, caller, by, status }) =>
        status(201, releaseDetail(db, cdnUrl, project, await republishRelease(deps, dataDir, project, params.rid, caller.userId, body, by))),
      { access: RELEASE_OPERATIONS_ACCESS.republish, inProject: true, body: RepublishInput },
    )
    .get("/projects/:pid/releases/:rid/diff", async ({ project, grant, params, query }) => diffShown(visibleLanguages(grant, project), await reads.run<ReleaseDiff>({ kind: "diff", dataDir, project, releaseId: params.rid, against: query.against })), {
      access: RELEASE_OPERATIONS_ACCESS.diff,
      inProject: true,
      query: DiffQuery,
    })
    .put("/projects/:pid/releases/:rid/schedule", ({ project, params, body, by }) => releaseDetail(db, cdnUrl, project, scheduleRelease(deps, project, params.rid, body, by)), {
      access: RELEASE_OPERATIONS_ACCESS.schedule,
      inProject: true,
      body: ScheduleInput,
    })
    .delete(
      "/projects/:pid/releases/:rid/schedule",
      ({ project, params, by, status }) => {
        cancelSchedule(deps, project, params.rid, by);
        return status(204);
      },
      { access: RELEASE_OPERATIONS_ACCESS.schedule, inProject: true },
    )
    .post("/projects/:pid/releases/:rid/rotate-slug", ({ project, params, by }) => rotateReleaseSlug(deps, project, params.rid, by), {
      access: "settings",
      inProject: true,
    })
    .delete(
      "/projects/:pid/releases/:rid",
      async ({ project, params, status, by }) => {
        await deleteRelease(deps, project, params.rid, by);
        return status(204);
      },
      { access: "delete-release", inProject: true },
    );
}
