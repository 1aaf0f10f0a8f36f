import { recordAudit, SYSTEM, type AuditBy } from "../audit/record.ts";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { removeReleaseFiles, ReleaseStaging } from "../bundles/files.ts";
import { bundleFileName } from "../bundles/layout.ts";
import { conflict, notFound } from "../common/errors.ts";
import { newSlug } from "../common/ids.ts";
import { log } from "../common/log.ts";
import type { ServiceDeps } from "../deps.ts";
import { compileLanguage } from "../formats/bundle.ts";
import { BUNDLE_FORMATS } from "../formats/registry.ts";
import type { Db } from "../storage/db.ts";
import { releaseLanguages, releases, type ProjectRow, type ReleaseRow } from "../storage/schema.ts";
import { checkSnapshot, publishRefusal } from "./checks.ts";
import { findRelease } from "./releases.ts";
import { takeSnapshot, type SnapshotLanguage } from "./snapshot.ts";

export interface PublishOptions {
  /** Publish although messages have errors (docs/product.md §7); the caller checks it is an admin. */
  allowErrors?: boolean;
  /** Who publishes, for the audit log (docs/dashboard-api.md "Audit log"). */
  by?: AuditBy;
}

/**
 * Publishing (docs/interface.md §3, docs/product.md §3, docs/publishing.md §2), all or nothing:
 * snapshot, check every message (a 409 with the errors unless `allowErrors`, before anything is
 * written), claim the draft, compile every language to every bundle format of the registry (JSON,
 * YAML and ARB), write and flush the files, then in one transaction give the release its slug,
 * record the shipped languages with `is_base_language` as of now and the formats written, mark it
 * published (and forced, when errors were let through) and write release_published. Then the
 * change notice purges the CDN and API caches, so `latest` tracks this release at once.
 */
export async function publishRelease(
  deps: ServiceDeps,
  dataDir: string,
  project: ProjectRow,
  releasePublicId: string,
  options: PublishOptions = {},
): Promise<ReleaseRow> {
  const { db, changes } = deps;
  assertDraft(findRelease(db, project, releasePublicId));
  const started = performance.now();
  // The snapshot is one synchronous read; checking it yields between languages, and the claim
  // after it still refuses a second publish of the same draft (docs/publishing.md §2).
  const snapshot = takeSnapshot(db, project.id);
  const check = await checkSnapshot(snapshot);
  if (check.errorCount > 0 && !options.allowErrors) throw publishRefusal(check);
  const release = claimDraft(deps, project, releasePublicId);
  let staging: ReleaseStaging | undefined;
  try {
    staging = await ReleaseStaging.create(dataDir, release.publicId);
    // Compiling a language overlaps with writing and flushing the previous one (the file system
    // work runs off the main thread).
    let writing: Promise<unknown> = Promise.resolve();
    for (const lang of snapshot.languages) {
      const files = compileLanguage(snapshot, lang, snapshot.syntax);
      await writing;
      writing = Promise.all(BUNDLE_FORMATS.map((format) => staging!.write(bundleFileName(lang.code, format), files[format])));
      writing.catch(() => {}); // awaited on the next turn or below; this only silences the early report
    }
    await writing;
    await staging.commit();
    staging = undefined;
    let row: ReleaseRow;
    try {
      row = markPublished(deps, project, release, snapshot.languages, check.errorCount > 0, options.by ?? SYSTEM);
    } catch (err) {
      await removeReleaseFiles(dataDir, release.publicId);
      throw err;
    }
    changes.notify(project.id);
    log.info("release published", {
      release_id: row.publicId,
      languages: snapshot.languages.length,
      keys: snapshot.keys.length,
      forced_errors: check.errorCount,
      duration_ms: Math.round(performance.now() - started),
    });
    return row;
  } finally {
    db.update(releases).set({ publishingSince: null }).where(eq(releases.id, release.id)).run();
    if (staging) await staging.discard();
  }
}

/** A release as the audit log names it. */
function auditRelease(r: ReleaseRow) {
  return { kind: "release" as const, id: r.publicId, name: `${r.name} (${r.tag})` };
}

/** A published release, or one being published, cannot be published (again): 409. */
function assertDraft(release: ReleaseRow): void {
  if (release.status === "published") throw conflict("release is already published");
  if (release.publishingSince !== null) throw conflict("release is already being published");
}

/**
 * Marks the draft as being published, in a write transaction: of two publishes of one release,
 * the second is a 409 however close together they come.
 */
function claimDraft({ db, clock }: ServiceDeps, project: ProjectRow, releasePublicId: string): ReleaseRow {
  return db.transaction(
    () => {
      const release = findRelease(db, project, releasePublicId);
      assertDraft(release);
      db.update(releases).set({ publishingSince: clock.now() }).where(eq(releases.id, release.id)).run();
      return release;
    },
    { behavior: "immediate" },
  );
}

function markPublished({ db, clock, changes }: ServiceDeps, project: ProjectRow, release: ReleaseRow, langs: SnapshotLanguage[], forced: boolean, by: AuditBy): ReleaseRow {
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
      .set({ status: "published", slug: newSlug(), publishedAt, publishingSince: null, forced, formats: [...BUNDLE_FORMATS] })
      .where(and(eq(releases.id, release.id), eq(releases.status, "draft")))
      .returning()
      .get();
    if (!row) throw notFound("release not found"); // deleted while its files were being written
    if (langs.length > 0) {
      tx.insert(releaseLanguages)
        .values(langs.map((l) => ({ releaseId: row.id, code: l.code, name: l.name, isBaseLanguage: l.isBase })))
        .run();
    }
    changes.event(project, "release_published", { release_id: row.publicId, name: row.name, tag: row.tag, status: "published" });
    recordAudit(db, clock, by, { action: "release_published", target: auditRelease(row), projectId: project.id, details: { languages: langs.map((l) => l.code), forced } });
    return row;
  });
}

/**
 * A new release slug revokes the release's old URLs at once (docs/interface.md §5 rule 7,
 * docs/product.md §3).
 */
export function rotateReleaseSlug({ db, clock, changes }: ServiceDeps, project: ProjectRow, releasePublicId: string, by: AuditBy = SYSTEM): { slug: string } {
  const release = findRelease(db, project, releasePublicId);
  if (release.status !== "published") throw conflict("only a published release has a slug to rotate");
  const slug = newSlug();
  db.transaction(() => {
    db.update(releases).set({ slug }).where(eq(releases.id, release.id)).run();
    recordAudit(db, clock, by, { action: "slug_rotated", target: auditRelease(release), projectId: project.id, details: { of: "release" } });
  });
  changes.notify(project.id);
  return { slug };
}

/**
 * Deletes the row (writing release_deleted), purges caches, then removes the files
 * (docs/product.md §3): `latest` falls back to the previous published release, or 404s when none
 * is left. A crash between the two leaves files no release names; the start removes them.
 */
export async function deleteRelease({ db, clock, changes }: ServiceDeps, dataDir: string, project: ProjectRow, releasePublicId: string, by: AuditBy = SYSTEM): Promise<void> {
  const r = findRelease(db, project, releasePublicId);
  db.transaction((tx) => {
    tx.delete(releases).where(eq(releases.id, r.id)).run();
    changes.event(project, "release_deleted", { release_id: r.publicId, name: r.name, tag: r.tag });
    recordAudit(db, clock, by, { action: "release_deleted", target: auditRelease(r), projectId: project.id, details: { status: r.status } });
  });
  changes.notify(project.id);
  if (r.status === "published") await removeReleaseFiles(dataDir, r.publicId);
}

/** Public ids of every published release: the start keeps their folders and nothing else. */
export function publishedReleaseIds(db: Db): Set<string> {
  return new Set(
    db
      .select({ id: releases.publicId })
      .from(releases)
      .where(eq(releases.status, "published"))
      .all()
      .map((r) => r.id),
  );
}

/** At start no publish can be under way: a mark left by a killed process is cleared. */
export function clearUnfinishedPublishes(db: Db): number {
  return db.update(releases).set({ publishingSince: null }).where(isNotNull(releases.publishingSince)).returning({ id: releases.id }).all().length;
}
