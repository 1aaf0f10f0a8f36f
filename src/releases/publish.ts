import { availableParallelism } from "node:os";
import { recordAudit, SYSTEM, type AuditBy } from "../audit/record.ts";
import { and, eq, isNotNull, max } from "drizzle-orm";
import { ReleaseStaging } from "../bundles/files.ts";
import { conflict, notFound } from "../common/errors.ts";
import { newSlug } from "../common/ids.ts";
import { log } from "../common/log.ts";
import type { AppDeps, ServiceDeps } from "../deps.ts";
import { BUNDLE_FORMATS } from "../formats/registry.ts";
import type { Db } from "../storage/db.ts";
import { sumOrZero } from "../storage/functions.ts";
import { languageCounts, languages, releaseLanguages, releases, type ProjectRow, type ReleaseRow } from "../storage/schema.ts";
import { channelsOn } from "./channels.ts";
import type { ManifestBasis } from "../delivery/manifest.ts";
import { checkingOrder, CheckTally, publishRefusal } from "./checks.ts";
import { LanguageCompiler, type Compiled } from "./compile-job.ts";
import { CompilingThreads } from "./compile-threads.ts";
import { projectValueCount } from "./queries.ts";
import { findRelease } from "./releases.ts";
import { openSnapshot, type SnapshotSource, type SnapshotView } from "./snapshot.ts";

export interface PublishOptions {
  /** Publish although messages have errors (docs/product.md §7); the caller checks it is an admin. */
  allowErrors?: boolean;
  /** Who publishes, for the audit log (docs/dashboard-api.md "Audit log"). */
  by?: AuditBy;
  /** Worker threads that compile the languages; 0 compiles on the calling thread. By default by size (compilingThreads). */
  threads?: number;
}

/**
 * Publishing (docs/interface.md §3, docs/product.md §3, docs/publishing.md §2), all or nothing:
 * snapshot, check every message (a 409 with the errors unless `allowErrors`; nothing is
 * published), claim the draft, compile every language to every bundle format of the registry (JSON,
 * YAML and ARB) from the same checked reading, write and flush the files into a staging folder,
 * hand them to every publish target (the data directory moves them into place, the replica copies
 * them: docs/architecture.md "Publish targets"), then in one transaction give the release its
 * slug, record the shipped languages with `is_base_language` as of now and the formats written,
 * mark it published (and forced, when errors were let through), write release_published and the
 * path record's changes. Then the change notice purges the CDN and API caches, so `latest` tracks
 * this release at once, and wakes the targets that follow the record.
 */
export async function publishRelease(
  deps: ServiceDeps & Pick<AppDeps, "targets">,
  dataDir: string,
  project: ProjectRow,
  releasePublicId: string,
  options: PublishOptions = {},
): Promise<ReleaseRow> {
  assertDraft(findRelease(deps.db, project, releasePublicId));
  const started = performance.now();
  const threads = options.threads ?? compilingThreads(deps.db, project.id);
  // Threads that cannot start leave the work to this thread, slower but the same.
  const pool =
    threads > 0
      ? await CompilingThreads.start(threads).catch((err) => void log.warn("publish threads did not start; compiling on the server's thread", { error: String(err) }))
      : undefined;
  try {
    // With threads, each thread opens a copy of the snapshot, all of one moment, and reads its
    // languages from it (compile-threads.ts).
    const view = await pool?.openSnapshots(deps.db, project.id);
    if (pool && view) return await publishSnapshot(deps, dataDir, project, releasePublicId, view, pool.compile.bind(pool), options, threads, started);
    // Else the snapshot is a read transaction of this thread's, read one language at a time
    // (snapshot.ts `openSnapshot`): the checks and the files hold one language's values at a time,
    // never the project's; the claim still refuses a second publish of the same draft
    // (docs/publishing.md §2).
    const snapshot = openSnapshot(deps.db, project.id);
    try {
      const here: Compile = (_, dir, allowErrors) => compileHere(snapshot, dir, allowErrors);
      const view = { languages: snapshot.languages, keyCount: snapshot.keys.length, syntax: snapshot.syntax };
      return await publishSnapshot(deps, dataDir, project, releasePublicId, view, here, options, 0, started);
    } finally {
      snapshot.close();
    }
  } finally {
    await pool?.close();
  }
}

/**
 * Checks every language and writes its files into a folder (null: checks only); answers the
 * findings and, by language and format, the digest of each file written (docs/delivery.md).
 */
type Compile = (view: SnapshotView, dir: string | null, allowErrors: boolean) => Promise<Compiled>;

async function publishSnapshot(
  deps: ServiceDeps & Pick<AppDeps, "targets">,
  dataDir: string,
  project: ProjectRow,
  releasePublicId: string,
  snapshot: SnapshotView,
  compile: Compile,
  options: PublishOptions,
  threads: number,
  started: number,
): Promise<ReleaseRow> {
  const { db, changes } = deps;
  const allowErrors = options.allowErrors === true;
  // A refusal costs only the checks when the findings kept on save already say a message has an
  // error: nothing is claimed or compiled. Otherwise each language is checked and compiled from
  // the same values and reads (docs/publishing.md §2), and a finding the kept ones missed still
  // refuses the publish before anything is published.
  if (!allowErrors && keptErrorCount(db, project.id) > 0) {
    const { tally: check } = await compile(snapshot, null, false);
    if (check.errorCount > 0) throw publishRefusal(check.result());
  }
  const release = claimDraft(deps, project, releasePublicId);
  let staging: ReleaseStaging | undefined;
  try {
    staging = await ReleaseStaging.create(dataDir, release.publicId);
    const { tally: check, files } = await compile(snapshot, staging.path, allowErrors);
    // Every language is checked either way, so the refusal counts and lists every error.
    if (check.errorCount > 0 && !allowErrors) throw publishRefusal(check.result());
    // Every target holds the files before the database names them: the data directory for the
    // CDN, the replica so a restore never finds a published release without its files.
    await deps.targets.take({ publicId: release.publicId, dir: staging.path });
    staging = undefined;
    let row: ReleaseRow;
    try {
      row = markPublished(deps, project, release, snapshot.languages, { tag: release.tag, files }, check.errorCount > 0, options.by ?? SYSTEM);
    } catch (err) {
      await deps.targets.drop(release.publicId);
      throw err;
    }
    changes.notify(project.id);
    log.info("release published", {
      release_id: row.publicId,
      languages: snapshot.languages.length,
      keys: snapshot.keyCount,
      forced_errors: check.errorCount,
      threads,
      duration_ms: Math.round(performance.now() - started),
    });
    return row;
  } finally {
    db.update(releases).set({ publishingSince: null }).where(eq(releases.id, release.id)).run();
    if (staging) await staging.discard();
  }
}

/**
 * From this many values (keys x languages) a publish compiles on worker threads: below it, the
 * few hundred milliseconds of a thread's start would cost more than they save.
 */
export const THREADS_FROM_VALUES = 200_000;
/**
 * At most this many compiling threads: each holds the base language's parsed messages and one
 * language's values and files, about 100 MB at 100,000 keys, and a publish stays within 600 MB
 * (docs/publishing.md §7). Two keep both cores of the smallest supported machine busy.
 */
export const THREADS_MAX = 2;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How many threads compile the project's languages; 0 is the calling thread. */
function compilingThreads(db: Db, projectId: number): number {
  if (projectValueCount(db, projectId) < THREADS_FROM_VALUES) return 0;
  return Math.max(1, Math.min(THREADS_MAX, availableParallelism()));
}

/** Checks every language, base first, on this thread, yielding between languages. */
async function compileHere(snapshot: SnapshotSource, dir: string | null, allowErrors: boolean): Promise<Compiled> {
  const tally = new CheckTally(snapshot.syntax);
  const files: Compiled["files"] = {};
  const compiler = new LanguageCompiler(snapshot);
  for (const [position, lang] of checkingOrder(snapshot.languages).entries()) {
    const job = { code: lang.code, name: lang.name, dir: tally.errorCount > 0 && !allowErrors ? null : dir, allowErrors };
    const done = await compiler.run(job);
    tally.add(position, done.findings);
    if (done.files) files[lang.code] = done.files;
    // A language's values, reads and files are garbage once written, tens of MB at 100,000 keys,
    // and left to itself the collector let a publish of 10 languages reach 500 MB.
    Bun.gc(true);
    await yieldToRequests();
  }
  await compiler.flush();
  return { tally, files };
}

/** The errors the message checks found on save, summed over the project's languages (kept counts). */
function keptErrorCount(db: Db, projectId: number): number {
  const row = db
    .select({ errors: sumOrZero(languageCounts.errorCount) })
    .from(languageCounts)
    .innerJoin(languages, eq(languages.id, languageCounts.languageId))
    .where(eq(languages.projectId, projectId))
    .get();
  return row?.errors ?? 0;
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

/**
 * `latest` is the newest published_at; it is kept strictly increasing within a project so two
 * publishes (or republishes) in the same millisecond still have an order. Call it inside the
 * transaction that publishes.
 */
export function nextPublishedAt(db: Db, projectId: number, now: number): number {
  const last = db
    .select({ at: max(releases.publishedAt) })
    .from(releases)
    .where(and(eq(releases.projectId, projectId), eq(releases.status, "published")))
    .get()?.at;
  return Math.max(now, (last ?? 0) + 1);
}

function markPublished({ db, clock, changes }: ServiceDeps, project: ProjectRow, release: ReleaseRow, langs: SnapshotView["languages"], basis: ManifestBasis, forced: boolean, by: AuditBy): ReleaseRow {
  return db.transaction((tx) => {
    const publishedAt = nextPublishedAt(tx as unknown as Db, project.id, clock.now());
    const row = tx
      .update(releases)
      // A schedule the draft had is done with (docs/releases.md "Scheduled publish").
      .set({ status: "published", slug: newSlug(), publishedAt, publishingSince: null, forced, formats: [...BUNDLE_FORMATS], scheduledAt: null, scheduleError: null, manifest: JSON.stringify(basis) })
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
    changes.paths.releasePublished(project.id, row.id);
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
    changes.paths.releaseSlugRotated(project.id, release.id, release.slug!);
    recordAudit(db, clock, by, { action: "slug_rotated", target: auditRelease(release), projectId: project.id, details: { of: "release" } });
  });
  changes.notify(project.id);
  return { slug };
}

/**
 * Deletes the row (writing release_deleted and the path record's change), purges caches, then the
 * publish targets replay the deletion (docs/product.md §3): the data directory's files are gone
 * before this returns. `latest` falls back to the previous published release, or 404s when none
 * is left. A crash between the two leaves files no release names; the start removes them.
 */
export async function deleteRelease(deps: ServiceDeps & Pick<AppDeps, "targets">, project: ProjectRow, releasePublicId: string, by: AuditBy = SYSTEM): Promise<void> {
  const { db, clock, changes } = deps;
  const r = findRelease(db, project, releasePublicId);
  db.transaction((tx) => {
    // docs/releases.md "Channels": a release a channel serves stays until the channel moves.
    const on = channelsOn(tx as unknown as Db, r.id);
    if (on.length > 0) throw conflict(`the channel${on.length > 1 ? "s" : ""} ${on.map((n) => `"${n}"`).join(", ")} point${on.length > 1 ? "" : "s"} at this release: move ${on.length > 1 ? "them" : "it"} first`);
    const ref = r.status === "published" ? changes.paths.releaseRef(r.id) : null;
    tx.delete(releases).where(eq(releases.id, r.id)).run();
    if (ref) changes.paths.releaseDeleted(project.id, ref);
    changes.event(project, "release_deleted", { release_id: r.publicId, name: r.name, tag: r.tag });
    recordAudit(db, clock, by, { action: "release_deleted", target: auditRelease(r), projectId: project.id, details: { status: r.status } });
  });
  changes.notify(project.id);
  await deps.targets.settle();
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
