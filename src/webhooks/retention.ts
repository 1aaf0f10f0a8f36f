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

export interface RetentionJob {
  /** When it runs next (epoch milliseconds), or null before it is scheduled. */
  nextRunAt(): number | null;
  stop(): void;
}

/** croner's pattern: hourly at RETENTION_MINUTE, in UTC. */
export const RETENTION_SCHEDULE = `${RETENTION_MINUTE} * * * *`;

/**
 * The periodic job: once at start, then hourly on croner (never overlapping itself; unref'd, so it
 * never keeps the process alive). croner is loaded and the job scheduled one turn after start, and
 * with a fixed UTC offset rather than a time zone: its first time-zone computation cost about 20 ms
 * of CPU at every start (bench/RESULTS.md "Start-up"). Unnamed, so two apps in one process (tests)
 * each have their own.
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
  let stopped = false;
  let job: { nextRun(): Date | null; stop(): void } | undefined;
  const scheduled = import("croner").then(({ Cron }) => {
    if (stopped) return;
    run();
    job = new Cron(RETENTION_SCHEDULE, { utcOffset: 0, protect: true, unref: true }, run);
  });
  scheduled.catch((err) => log.error("webhook retention could not be scheduled", { error: String(err) }));
  return {
    nextRunAt: () => job?.nextRun()?.getTime() ?? null,
    stop: () => {
      stopped = true;
      job?.stop();
    },
  };
}
