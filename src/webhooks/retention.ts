import { Cron } from "croner";
import { and, isNotNull, lt } from "drizzle-orm";
import type { Clock } from "../common/clock.ts";
import { log } from "../common/log.ts";
import type { Db } from "../storage/db.ts";
import { deliveries, outboxEvents } from "../storage/schema.ts";

/** docs/interface.md §6.5 and §8: deliveries (with their attempts) are kept 30 days. */
export const DELIVERY_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
/** Hourly, at an odd minute so it does not line up with other hourly work. */
export const RETENTION_SCHEDULE = "17 * * * *";

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

/** The periodic job (croner, never overlapping itself); it also runs once at start. */
export function startRetentionJob(db: Db, clock: Clock): Cron {
  const run = () => {
    const removed = removeOldDeliveries(db, clock.now());
    if (removed.deliveries || removed.events) log.info("removed old webhook deliveries", removed);
  };
  const job = new Cron(RETENTION_SCHEDULE, { name: "webhook-log-retention", protect: true, unref: true, catch: (err) => log.error("webhook retention failed", { error: String(err) }) }, run);
  try {
    run();
  } catch (err) {
    log.error("webhook retention failed", { error: String(err) });
  }
  return job;
}
