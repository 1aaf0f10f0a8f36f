import { eq, isNotNull, or } from "drizzle-orm";
import { releaseDir } from "../bundles/layout.ts";
import type { RecordedPathChange } from "../changes/paths.ts";
import { HttpError } from "../common/errors.ts";
import { log } from "../common/log.ts";
import type { Db } from "../storage/db.ts";
import { releases } from "../storage/schema.ts";
import { objectStore, type ObjectLocation, type ObjectStore } from "./object-store.ts";
import { copiedReleaseIds, copyRelease, hasCopy, removeCopy } from "./replica-copies.ts";
import type { PublishTarget, PublishTargetKind, StagedRelease } from "./target.ts";

/**
 * Where the replica lives (docs/deploy.md "Continuous replication"): a folder, or a bucket and a
 * path in S3-compatible storage. Litestream keeps the database under `db/`; the files of each
 * published release are kept under `releases/<release id>/`, beside it. The keys are Litestream's
 * (LITESTREAM_ACCESS_KEY_ID, else AWS_ACCESS_KEY_ID), so one pair serves both.
 */
export interface ReplicaSettings {
  replicaUrl: string | undefined;
  replicaS3Endpoint: string | undefined;
  replicaS3Region: string | undefined;
}

export function replicaLocation(settings: ReplicaSettings, env: Record<string, string | undefined> = process.env): ObjectLocation | undefined {
  const url = settings.replicaUrl;
  if (!url) return undefined;
  if (!url.startsWith("s3://")) return { kind: "folder", path: url };
  const rest = url.slice("s3://".length);
  const slash = rest.indexOf("/");
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? "" : rest.slice(slash + 1).replace(/^\/+|\/+$/g, "");
  return {
    kind: "s3",
    bucket,
    path,
    endpoint: settings.replicaS3Endpoint,
    region: settings.replicaS3Region,
    accessKeyId: env.LITESTREAM_ACCESS_KEY_ID ?? env.AWS_ACCESS_KEY_ID,
    secretAccessKey: env.LITESTREAM_SECRET_ACCESS_KEY ?? env.AWS_SECRET_ACCESS_KEY,
  };
}

/**
 * Copies of each published release's files beside the replica (docs/deploy.md "Continuous
 * replication"): Litestream copies the database, this the files, which it does not see.
 *
 * - It takes a release before the release is published, so every release the replica's database
 *   calls published has its files in the replica; a replica that cannot be written stops the
 *   publish with a 503.
 * - At start it copies the releases published while it was off.
 * - A deleted release's copy goes once two passes ten minutes apart found it unpublished: the
 *   replica's database may lag the live one by a second, and must never name a release whose copy
 *   is gone. Replaying a deletion asks for such a pass; one runs every ten minutes anyway.
 */
const PRUNE_EVERY_MS = 10 * 60_000;

export class ReplicaCopies implements PublishTarget {
  readonly name = "replica";
  private pruneTimer: Timer | undefined;
  private unreferenced = new Set<string>();
  private background: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
    readonly files: ObjectStore,
  ) {}

  async take(release: StagedRelease): Promise<void> {
    try {
      const copied = await copyRelease(this.files, release.publicId, release.dir);
      log.info("release files copied to the replica", { release_id: release.publicId, ...copied });
    } catch (err) {
      log.error("could not copy release files to the replica", { release_id: release.publicId, error: String(err) });
      // The release stays a draft: published, it would be missing from a restore.
      throw new HttpError(503, "the replica cannot be written, so the release was not published; check the replica (see the server log) and publish again", { "retry-after": "10" });
    }
  }

  /** A copy of a release that was not published after all goes at the next passes, like a deleted one. */
  async drop(): Promise<void> {}

  async replay({ change }: RecordedPathChange): Promise<void> {
    // A release published while the copy was made elsewhere (a restore, an older version) is copied now.
    if (change.kind === "release_published" && !(await hasCopy(this.files, change.release.id))) {
      const published = this.publishedIds();
      if (published.has(change.release.id)) await copyRelease(this.files, change.release.id, releaseDir(this.dataDir, change.release.id));
    }
  }

  start(): void {
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

  /** Copies what is missing: releases published while replication was off. */
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

export const replicaCopies: PublishTargetKind = {
  name: "replica",
  make: ({ settings, db }) => {
    const location = replicaLocation(settings);
    return location && new ReplicaCopies(db, settings.dataDir, objectStore(location));
  },
};
