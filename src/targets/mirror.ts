import type { RecordedPathChange } from "../changes/paths.ts";
import { PathRecord } from "../changes/paths.ts";
import type { Clock } from "../common/clock.ts";
import { CliError } from "../common/errors.ts";
import { log } from "../common/log.ts";
import type { Db } from "../storage/db.ts";
import { pathOps } from "./cdn-paths.ts";
import { Bucket } from "./mirror/bucket.ts";
import { Copier, type MirrorStatus } from "./mirror/copier.ts";
import { locationId, mirrorLocation } from "./mirror/location.ts";
import { queueRows, servedPuts } from "./mirror/objects.ts";
import { prepareMirrorQueries, type MirrorQueries } from "./mirror/queries.ts";
import type { PurgeQueue } from "./purge/queue.ts";
import { purgeQueueFor } from "./purge/target.ts";
import type { ObjectRenderer } from "./render.ts";
import type { PublishTargets } from "./registry.ts";
import type { PublishTarget, PublishTargetKind } from "./target.ts";

export const MIRROR = "mirror";

/**
 * Object storage behind another CDN (docs/deploy.md "Object storage and CDN purge"): every CDN
 * path is also an object `{prefix}/{path}` in a bucket, with the CDN's bytes, `Content-Type` and
 * `Cache-Control`. The mirror follows the path record like every target, but a replay only queues
 * the change's objects (mirror/queries.ts), in the database, at once: a publish never waits for
 * the store, and one object the store refuses holds back only the objects that depend on it,
 * where the record's cursor alone would hold back every later change of every project. The queue
 * is emptied by the copier (mirror/copier.ts), which purges the CDN in front once the bucket holds
 * a change.
 *
 * A bucket (or prefix) the queue was not filled for gets a full pass at start: every object the
 * CDN serves, each written only where the bucket lacks it or holds something else.
 */
export class MirrorTarget implements PublishTarget {
  readonly name = MIRROR;
  private readonly q: MirrorQueries;
  private readonly record: PathRecord;
  readonly copier: Copier;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    renderer: ObjectRenderer,
    readonly bucket: Bucket,
    private readonly location: string,
    readonly purge: PurgeQueue | undefined,
  ) {
    this.q = prepareMirrorQueries(db);
    this.record = new PathRecord(db, clock);
    this.copier = new Copier(db, this.q, bucket, renderer, clock, purge);
  }

  async replay({ id, projectId, change }: RecordedPathChange): Promise<void> {
    const rows = queueRows(pathOps(change), id, projectId, this.clock.now());
    if (rows.length) this.db.transaction(() => this.q.insert(rows));
    this.copier.kick();
  }

  /** A full pass when the bucket or prefix is not the one the queue was filled for (a first start included). */
  async catchUp(): Promise<number> {
    if (this.q.state()?.location === this.location) return 0;
    const now = this.clock.now();
    let objects = 0;
    this.db.transaction(() => {
      this.q.clear();
      this.q.setLocation(this.location);
      for (const project of this.q.projects()) {
        const rows = queueRows(servedPuts(this.record, project.id, project.slug), 0, project.id, now, true);
        this.q.insert(rows);
        objects += rows.length;
      }
    });
    if (objects) log.info("the mirror checks every object of the bucket", { objects });
    this.copier.kick();
    return objects;
  }

  start(): void {
    this.copier.start();
    this.purge?.start();
  }

  async stop(): Promise<void> {
    await this.copier.stop();
    await this.purge?.stop();
  }

  status(): MirrorStatus {
    return this.copier.status();
  }

  /** Objects waiting to be written or removed. */
  pending(): number {
    return this.q.pending();
  }
}

export const mirror: PublishTargetKind = {
  name: MIRROR,
  make: (context) => {
    const location = mirrorLocation(context.settings);
    if (!location) return undefined;
    if (!location.accessKeyId || !location.secretAccessKey) {
      throw new CliError("PHRASEBOOK_S3_ACCESS_KEY_ID and PHRASEBOOK_S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) are required with PHRASEBOOK_S3_BUCKET");
    }
    return new MirrorTarget(context.db, context.clock, context.renderer, new Bucket(location, context.fetch), locationId(location, { cdnUrl: context.settings.cdnUrl, surrogateKeys: context.settings.purge === "fastly" }), purgeQueueFor(context));
  },
};

/** `GET /dashboard/api/mirror` (docs/dashboard-api.md "Mirror"): null when no mirror is configured. */
export function mirrorStatus(targets: PublishTargets): MirrorStatus | null {
  return targets.target<MirrorTarget>(MIRROR)?.status() ?? null;
}
