import { and, eq, sql } from "drizzle-orm";
import type { Clock } from "../common/clock.ts";
import { conflict, notFound } from "../common/errors.ts";
import { newSlug } from "../common/ids.ts";
import { log } from "../common/log.ts";
import type { ProjectChanges } from "../common/project-changes.ts";
import { BUNDLE_FORMATS } from "../cdn/urls.ts";
import type { ProjectRow } from "../authoring/projects.ts";
import { deleteReleaseRow, findRelease, type ReleaseRow } from "../authoring/releases.ts";
import type { Db } from "../storage/db.ts";
import { releaseLanguages, releases } from "../storage/schema.ts";
import { enqueueEvent } from "../webhooks/outbox.ts";
import { arbNames } from "./compile/arb-names.ts";
import { compileLanguage } from "./compile/bundle.ts";
import { ReleaseStaging, removeReleaseFiles } from "./files.ts";
import { bundleFileName } from "./layout.ts";
import { takeSnapshot } from "./snapshot.ts";

export interface PublishDeps {
  db: Db;
  clock: Clock;
  dataDir: string;
  /** Told right after each commit; the CDN cache and the API cache purge the project. */
  changes: ProjectChanges;
}

/** Releases being published right now in this process: a second click answers 409, not a race. */
const inFlight = new Set<number>();

/**
 * Spec 3 (draft -> published) and CONTRACTS 3, all or nothing: snapshot, compile every language
 * to JSON, YAML and ARB, write and flush the files, then in one transaction give the release its
 * slug, record the shipped languages with `is_base_language` as of now, mark it published and
 * enqueue release_published. Then the project change notice purges the CDN cache, so `latest`
 * tracks this release at once.
 */
export async function publishRelease(deps: PublishDeps, project: ProjectRow, releasePublicId: string): Promise<ReleaseRow> {
  const { db, clock, dataDir } = deps;
  const release = findRelease(db, project, releasePublicId);
  if (release.status === "published") throw conflict("release is already published");
  if (inFlight.has(release.id)) throw conflict("release is already being published");
  inFlight.add(release.id);
  const started = performance.now();
  let staging: ReleaseStaging | undefined;
  try {
    const snapshot = takeSnapshot(db, project.id);
    const names = arbNames(snapshot.keys);
    staging = await ReleaseStaging.create(dataDir, release.publicId);
    // Compiling a language overlaps with writing and flushing the previous one (the file system
    // work runs off the main thread).
    let writing: Promise<unknown> = Promise.resolve();
    for (const lang of snapshot.languages) {
      const files = compileLanguage(snapshot, names, lang);
      await writing;
      writing = Promise.all(BUNDLE_FORMATS.map((ext) => staging!.write(bundleFileName(lang.code, ext), files[ext])));
      writing.catch(() => {}); // awaited on the next turn or below; this only silences the early report
    }
    await writing;
    await staging.commit();
    staging = undefined;
    let row: ReleaseRow;
    try {
      row = markPublished(db, clock, project, release, snapshot.languages);
    } catch (err) {
      await removeReleaseFiles(dataDir, release.publicId);
      throw err;
    }
    deps.changes.notify(project.id);
    log.info("release published", {
      release_id: row.publicId,
      languages: snapshot.languages.length,
      keys: snapshot.keys.length,
      duration_ms: Math.round(performance.now() - started),
    });
    return row;
  } finally {
    inFlight.delete(release.id);
    if (staging) await staging.discard();
  }
}

function markPublished(db: Db, clock: Clock, project: ProjectRow, release: ReleaseRow, langs: { code: string; name: string; isBase: boolean }[]): ReleaseRow {
  return db.transaction((tx) => {
    // `latest` is the newest published_at; keep it strictly increasing within a project so two
    // publishes in the same millisecond still have an order.
    const last = tx
      .select({ at: sql<number | null>`max(${releases.publishedAt})` })
      .from(releases)
      .where(and(eq(releases.projectId, project.id), eq(releases.status, "published")))
      .get()?.at;
    const publishedAt = Math.max(clock.now(), (last ?? 0) + 1);
    const row = tx
      .update(releases)
      .set({ status: "published", slug: newSlug(), publishedAt })
      .where(and(eq(releases.id, release.id), eq(releases.status, "draft")))
      .returning()
      .get();
    if (!row) throw notFound("release not found"); // deleted while its files were being written
    if (langs.length > 0) {
      tx.insert(releaseLanguages)
        .values(langs.map((l) => ({ releaseId: row.id, code: l.code, name: l.name, isBaseLanguage: l.isBase })))
        .run();
    }
    enqueueEvent(tx, clock, project, "release_published", { release_id: row.publicId, name: row.name, tag: row.tag, status: "published" });
    return row;
  });
}

/** Spec 5 rule 7: a new release slug revokes the release's old URLs at once (CONTRACTS 3). */
export function rotateReleaseSlug(deps: Pick<PublishDeps, "db" | "changes">, project: ProjectRow, releasePublicId: string): { slug: string } {
  const release = findRelease(deps.db, project, releasePublicId);
  if (release.status !== "published") throw conflict("only a published release has a slug to rotate");
  const slug = newSlug();
  deps.db.update(releases).set({ slug }).where(eq(releases.id, release.id)).run();
  deps.changes.notify(project.id);
  return { slug };
}

/**
 * Deletes the row (emitting release_deleted), purges caches, then removes the files (CONTRACTS 3):
 * `latest` falls back to the previous published release, or 404s when none is left.
 */
export async function deleteRelease(deps: PublishDeps, project: ProjectRow, releasePublicId: string): Promise<void> {
  const row = deleteReleaseRow(deps.db, deps.clock, project, releasePublicId);
  deps.changes.notify(project.id);
  if (row.status === "published") await removeReleaseFiles(deps.dataDir, row.publicId);
}
