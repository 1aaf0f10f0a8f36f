import type { PathRecord } from "../changes/paths.ts";
import type { Clock } from "../common/clock.ts";
import { log } from "../common/log.ts";
import type { CursorQueries } from "./queries.ts";
import type { PublishTarget } from "./target.ts";

/** Changes read from the record at a time. */
const BATCH = 100;
/** A failed replay is tried again after 1 s, doubling up to a minute (docs/architecture.md "Publish targets"). */
export const RETRY_FIRST_MS = 1000;
export const RETRY_MAX_MS = 60_000;

/**
 * Replays the path record into one target, from its cursor, one change at a time and in order:
 * the cursor moves only once a change is replayed, so a restart or a failure resumes exactly
 * there, and nothing after a failing change is replayed before it (a `latest` object never names
 * a file its target lacks). One run at a time; a wake during a run makes one more run.
 */
export class Follower {
  private running: Promise<void> | null = null;
  private again = false;
  private retryTimer: Timer | undefined;
  private failures = 0;
  private stopped = false;
  private caughtUp: Promise<void> | null = null;

  constructor(
    readonly target: PublishTarget,
    private readonly record: PathRecord,
    private readonly cursors: CursorQueries,
    private readonly clock: Clock,
  ) {
    // A target without a cursor (new, or turned on later) starts at the newest change, before
    // anything else can be recorded: what came before is on disk already (the data directory) or
    // in the state its catch-up reads (the replica).
    if (this.cursor() === null) this.cursors.setCursor(target.name, record.lastId(), clock.now());
  }

  /** The last change this target finished. */
  private cursor(): number | null {
    return this.cursors.cursor.get({ target: this.target.name })?.lastChangeId ?? null;
  }

  /** The target's catch-up from the state (at each start, before it replays anything). */
  private ensureCaughtUp(): Promise<void> {
    this.caughtUp ??= this.target.catchUp ? this.target.catchUp().then(() => undefined) : Promise.resolve();
    return this.caughtUp;
  }

  /** Replays what is new now; resolves when this run (and any asked for meanwhile) is done. */
  run(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.replayPending();
        } while (this.again && !this.stopped);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private async replayPending(): Promise<void> {
    try {
      await this.ensureCaughtUp();
    } catch (err) {
      this.caughtUp = null;
      this.failed(err, null);
      return;
    }
    for (;;) {
      const from = this.cursor() ?? 0;
      const batch = this.record.after(from, BATCH);
      if (batch.length === 0) return;
      for (const change of batch) {
        if (this.stopped) return;
        try {
          await this.target.replay?.(change);
        } catch (err) {
          this.failed(err, change.id);
          return;
        }
        this.cursors.setCursor(this.target.name, change.id, this.clock.now());
        this.failures = 0;
      }
    }
  }

  private failed(err: unknown, changeId: number | null): void {
    this.failures++;
    const delayMs = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (this.failures - 1));
    log.warn("a publish target could not replay a change; trying again", { target: this.target.name, change: changeId, attempts: this.failures, retry_in_ms: delayMs, error: String(err) });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.run(), delayMs);
    this.retryTimer.unref?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.running;
  }
}
