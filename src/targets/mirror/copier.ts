import { iso, type Clock } from "../../common/clock.ts";
import { log } from "../../common/log.ts";
import type { Db } from "../../storage/db.ts";
import type { PutOp } from "../cdn-paths.ts";
import { RETRY_FIRST_MS, RETRY_MAX_MS } from "../follower.ts";
import type { PurgeQueue } from "../purge/queue.ts";
import type { ObjectRenderer } from "../render.ts";
import { StoreError, type Bucket } from "./bucket.ts";
import { holds, objectHeaders, sha256Of } from "./objects.ts";
import type { MirrorQueries, QueueRow } from "./queries.ts";

/** Objects copied at the same time: enough to fill a link to the store with a release's files. */
export const COPIES_AT_ONCE = 8;
/**
 * A retry's time is the clock's, looked at again at least this often: a clock that moves other
 * than a timer (a test's) is followed within a second.
 */
const RECHECK_MS = 1000;
/** The failing objects `GET /dashboard/api/mirror` lists (the oldest first); `pending` counts them all. */
export const FAILED_LISTED = 100;

export interface MirrorStatus {
  pending: number;
  failed: { path: string; error: string; attempts: number; next_attempt_at: string }[];
  last_copied_at: string | null;
}

/**
 * Empties the mirror's queue into the bucket (docs/deploy.md "Object storage and CDN purge"):
 * up to COPIES_AT_ONCE objects at once, each only when nothing holds it back (queries.ts `ready`:
 * the earlier rows of its path, and for a `latest`, channel or manifest object the pinned objects
 * of its release). A failed copy is tried again after 1 s, doubling to at most 60 s, and holds back
 * only the rows that wait for it. Once every row of a change is done, the CDN in front is purged of
 * the change's paths whose content changed, in the same transaction that ends the change.
 */
export class Copier {
  /** Rows being copied now, by id, with their path: a path is copied by one row at a time. */
  private readonly busy = new Map<number, string>();
  private readonly copies = new Set<Promise<void>>();
  private timer: Timer | undefined;
  private scheduled = false;
  private started = false;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly q: MirrorQueries,
    private readonly bucket: Bucket,
    private readonly renderer: ObjectRenderer,
    private readonly clock: Clock,
    private readonly purge: PurgeQueue | undefined,
    private readonly concurrency = COPIES_AT_ONCE,
  ) {}

  start(): void {
    this.started = true;
    this.kick();
  }

  /** Looks for rows to copy soon (after rows were queued, or a copy ended). */
  kick(): void {
    if (!this.started || this.stopped || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.stopped) this.pump();
    });
  }

  private pump(): void {
    clearTimeout(this.timer);
    const now = this.clock.now();
    this.dropSuperseded();
    const free = this.concurrency - this.busy.size;
    if (free > 0) {
      const busyPaths = new Set(this.busy.values());
      const rows = this.q.ready(now, free + this.busy.size).filter((r) => !this.busy.has(r.id) && !busyPaths.has(r.path));
      for (const row of rows.slice(0, free)) {
        busyPaths.add(row.path);
        this.busy.set(row.id, row.path);
        const copy: Promise<void> = this.copy(row)
          // The database refused to record the outcome (a full disk): the row is tried again as it was.
          .catch((err) => log.error("the mirror could not record a copy", { error: String(err) }))
          .finally(() => {
            this.busy.delete(row.id);
            this.copies.delete(copy);
            this.kick();
          });
        this.copies.add(copy);
      }
    }
    // Nothing under way: wake when the soonest retry is due (each copy's end wakes it otherwise).
    if (this.busy.size === 0) {
      const due = this.q.nextRetry(now);
      if (due !== null) {
        this.timer = setTimeout(() => this.kick(), Math.min(RECHECK_MS, Math.max(1, due - now)));
        this.timer.unref?.();
      }
    }
  }

  /** Waiting rows of a path a newer row replaces: done without a copy (the newer row makes the path what it must be). */
  private dropSuperseded(): void {
    // Read first: most looks find none, and a writing transaction would take the write lock for nothing.
    const gone = this.q.superseded([...this.busy.keys()]);
    if (gone.length === 0) return;
    this.db.transaction(() => {
      this.q.markDone(
        gone.map((r) => r.id),
        false,
      );
      for (const changeId of new Set(gone.map((r) => r.changeId))) this.settle(changeId);
    });
    this.purge?.kick();
  }

  private async copy(row: QueueRow): Promise<void> {
    const key = this.bucket.key(row.path);
    try {
      let sha256: string | null = null;
      let moving = false;
      if (row.op === "delete") await this.bucket.delete(key);
      else {
        const op = JSON.parse(row.put!) as PutOp;
        moving = op.moving;
        const object = await this.renderer.render(op);
        // Its source is gone (a release deleted since): a later change of the record removes the path.
        if (object === null) return this.finish(row, null, false, false);
        sha256 = sha256Of(object);
        const headers = objectHeaders(row.path, object, sha256, this.purge?.api.name === "fastly");
        if (!row.checkFirst || !holds(await this.bucket.head(key), object, headers)) await this.bucket.put(key, object.bytes, headers, sha256);
      }
      this.finish(row, sha256, moving, true);
    } catch (err) {
      if (this.stopped) return; // ended by the server's stop: the row waits for the next start as it is
      const delayMs = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** row.attempts);
      const error = err instanceof StoreError ? err.message : `the object could not be made: ${String(err)}`;
      this.q.failed(row.id, this.clock.now() + delayMs, error);
      // No path in the log: it holds CDN slugs (docs/deploy.md "Monitoring"); the dashboard's answer has it.
      log.warn("the mirror could not copy an object; trying again", { op: row.op, attempts: row.attempts + 1, retry_in_ms: delayMs, error });
    }
  }

  /** The row is done; its change ends (and is purged) once no row of it waits. */
  private finish(row: QueueRow, sha256: string | null, moving: boolean, copied: boolean): void {
    this.db.transaction(() => {
      const purge = copied && this.purge !== undefined && this.purge.changed(row.path, row.op === "delete" ? null : sha256, moving);
      this.q.markDone([row.id], purge);
      if (copied) this.q.copied(this.clock.now());
      this.settle(row.changeId);
    });
    this.purge?.kick();
  }

  /** Inside a transaction: a change with no waiting row is over; its changed paths are purged. */
  private settle(changeId: number): void {
    if (this.q.waitingOf(changeId) > 0) return;
    const paths = this.q.purgedPathsOf(changeId);
    if (paths.length && this.purge) this.purge.enqueue(paths);
    this.q.removeChange(changeId);
  }

  status(): MirrorStatus {
    return {
      pending: this.q.pending(),
      failed: this.q.failing(FAILED_LISTED).map((r) => ({ path: r.path, error: r.error ?? "", attempts: r.attempts, next_attempt_at: iso(r.nextAttemptAt) })),
      last_copied_at: iso(this.q.state()?.lastCopiedAt ?? null),
    };
  }

  /** Stops at once: copies under way are ended (a store that hangs must not hold up a shutdown) and stay queued. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.bucket.abortAll();
    await Promise.all(this.copies);
  }
}
