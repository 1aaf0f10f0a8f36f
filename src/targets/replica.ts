import { eq, isNotNull, or } from "drizzle-orm";
import { log } from "../common/log.ts";
import { HttpError } from "../common/errors.ts";
import type { ReleaseCopier } from "../deps.ts";
import type { Db } from "../storage/db.ts";
import { releases } from "../storage/schema.ts";
import { releaseDir } from "../bundles/layout.ts";
import { copiedReleaseIds, copyRelease, hasCopy, removeCopy } from "./release-copies.ts";
import { replicaFiles, type ReplicaFiles, type ReplicaTarget } from "./store.ts";

/**
 * Continuous replication, the Phrasebook side (docs/deploy.md "Continuous replication"):
 * Litestream copies the database (litestream.ts); this copies the release files, which Litestream
 * does not see.
 *
 * - A publish copies its files before it marks the release published (`copyRelease`), so every
 *   release the replica's database calls published has its files in the replica.
 * - At start, releases published before replication was turned on are copied.
 * - Copies of releases that are no longer published (deleted) are removed once two passes ten
 *   minutes apart found them so: the replica's database may lag the live one by a second, and must
 *   never name a release whose copy is gone.
 */
const PRUNE_EVERY_MS = 10 * 60_000;

export class ReleaseReplication implements ReleaseCopier {
  private readonly files: ReplicaFiles;
  private pruneTimer: Timer | undefined;
  private unreferenced = new Set<string>();
  private background: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
    target: ReplicaTarget,
  ) {
    this.files = replicaFiles(target);
  }

  async copyRelease(releasePublicId: string, dir: string): Promise<void> {
    try {
      const copied = await copyRelease(this.files, releasePublicId, dir);
      log.info("release files copied to the replica", { release_id: releasePublicId, ...copied });
    } catch (err) {
      log.error("could not copy release files to the replica", { release_id: releasePublicId, error: String(err) });
      // The release stays a draft: published, it would be missing from a restore.
      throw new HttpError(503, "the replica cannot be written, so the release was not published; check the replica (see the server log) and publish again", { "retry-after": "10" });
    }
  }

  /** Copies what is missing, then prunes every ten minutes; runs beside the server. */
  start(): void {
    this.background = this.catchUp().catch((err) => log.error("could not copy published releases to the replica", { error: String(err) }));
    this.pruneTimer = setInterval(() => {
      this.background = this.background.then(() => this.prune()).catch((err) => log.error("could not prune the replica's release copies", { error: String(err) }));
    }, PRUNE_EVERY_MS);
    this.pruneTimer.unref?.();
  }

  async stop(): Promise<void> {
    clearInterval(this.pruneTimer);
    await this.background;
  }

  private publishedIds(): Set<string> {
    return new Set(this.db.select({ id: releases.publicId }).from(releases).where(eq(releases.status, "published")).all().map((r) => r.id));
  }

  async catchUp(): Promise<number> {
    let copied = 0;
    for (const id of this.publishedIds()) {
      if (await hasCopy(this.files, id)) continue;
      await copyRelease(this.files, id, releaseDir(this.dataDir, id));
      copied++;
    }
    if (copied > 0) log.info("copied published releases to the replica", { releases: copied });
    return copied;
  }

  async prune(): Promise<number> {
    const keep = new Set(
      this.db
        .select({ id: releases.publicId })
        .from(releases)
        .where(or(eq(releases.status, "published"), isNotNull(releases.publishingSince)))
        .all()
        .map((r) => r.id),
    );
    const stale = (await copiedReleaseIds(this.files)).filter((id) => !keep.has(id));
    const gone = stale.filter((id) => this.unreferenced.has(id));
    for (const id of gone) await removeCopy(this.files, id);
    this.unreferenced = new Set(stale.filter((id) => !this.unreferenced.has(id)));
    if (gone.length > 0) log.info("removed the replica's copies of deleted releases", { releases: gone.length });
    return gone.length;
  }
}
