import { and, isNotNull, lt } from "drizzle-orm";
import type { Clock } from "../common/clock.ts";
import { log } from "../common/log.ts";
import type { Db } from "../storage/db.ts";
import { deliveries, outboxEvents } from "../storage/schema.ts";

/** docs/interface.md §6.5 and §8: deliveries (with their attempts) are kept 30 days. */
export const DELIVERY_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
/** Hourly, at this minute of the hour (UTC): an odd one, so it does not line up with other hourly work. */
export const RETENTION_MINUTE = 17;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * Removes deliveries older than the retention period (their attempts go with them, by foreign
 * key) and outbox events already turned into deliveries that long ago.
 */
export function removeOldDeliveries(db: Db, now: number): { deliveries: number; events: number } {
  const cutoff = now - DELIVERY_RETENTION_DAYS * DAY_MS;
  return db.transaction((tx) => ({
    deliveries: tx.delete(deliveries).where(lt(deliveries.createdAt, cutoff)).returning({ id: deliveries.id }).all().length,
    events: tx
      .delete(outboxEvents)
      .where(and(isNotNull(outboxEvents.dispatchedAt), lt(outboxEvents.createdAt, cutoff)))
      .returning({ id: outboxEvents.id })
      .all().length,
  }));
}

/** Milliseconds from `now` to the next run: the next minute RETENTION_MINUTE of an hour, never 0. */
export function msUntilNextRun(now: number): number {
  const intoHour = (((now - RETENTION_MINUTE * MINUTE_MS) % HOUR_MS) + HOUR_MS) % HOUR_MS;
  return HOUR_MS - intoHour;
}

export interface RetentionJob {
  /** When it runs next (epoch milliseconds). */
  nextRunAt(): number;
  stop(): void;
}

/**
 * The periodic job: once at start, then hourly. A timer, not a cron library: the one schedule it
 * has is simple, and a cron library's first use cost about 20 ms of CPU at every start, for its
 * time zone handling (bench/RESULTS.md "Start-up"). The work is synchronous, so a run never
 * overlaps the one before; the timer is unref'd, so it never keeps the process alive.
 */
export function startRetentionJob(db: Db, clock: Clock): RetentionJob {
  const run = () => {
    try {
      const removed = removeOldDeliveries(db, clock.now());
      if (removed.deliveries || removed.events) log.info("removed old webhook deliveries", removed);
    } catch (err) {
      log.error("webhook retention failed", { error: String(err) });
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let nextAt = 0;
  const schedule = () => {
    const now = Date.now();
    nextAt = now + msUntilNextRun(now);
    timer = setTimeout(() => {
      run();
      schedule();
    }, nextAt - now);
    timer.unref();
  };
  run();
  schedule();
  return {
    nextRunAt: () => nextAt,
    stop: () => clearTimeout(timer),
  };
}
