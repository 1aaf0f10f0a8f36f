import { and, desc, eq } from "drizzle-orm";
import { iso } from "../common/clock.ts";
import type { AppDeps } from "../deps.ts";
import { releases, type ProjectRow } from "../storage/schema.ts";
import { leftOutKeys } from "./build-files.ts";
import { buildRows, findBuild, type BuildView } from "./builds.ts";
import { deliveryOf } from "./objects.ts";

/**
 * `GET /projects/:pid/builds` (docs/delivery.md "App builds"): the kept builds, newest registration
 * first, each with how many keys of the latest release its files leave out.
 */
export async function listBuilds(deps: Pick<AppDeps, "db" | "settings" | "changes">, project: ProjectRow): Promise<BuildView[]> {
  const { db } = deps;
  const latest = db
    .select()
    .from(releases)
    .where(and(eq(releases.projectId, project.id), eq(releases.status, "published")))
    .orderBy(desc(releases.publishedAt), desc(releases.id))
    .limit(1)
    .get();
  const signature = latest ? await deliveryOf(deps).releaseSignature(latest) : undefined;
  return buildRows(db, project.id).map((row) => ({
    build_id: row.buildId,
    name: row.name,
    registered_at: iso(row.registeredAt),
    left_out: signature ? leftOutKeys(signature, findBuild(db, project.id, row.buildId)!.messages).size : null,
  }));
}
