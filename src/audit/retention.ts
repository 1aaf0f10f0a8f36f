import { lt } from "drizzle-orm";
import type { Clock } from "../common/clock.ts";
import { log } from "../common/log.ts";
import type { Db } from "../storage/db.ts";
import { auditLog } from "../storage/schema.ts";
import { AUDIT_RETENTION_DAYS } from "./limits.ts";

const DAY_MS = 86_400_000;
/** Daily at 03:41 UTC: an odd minute, away from the webhook log's hourly run. */
export const AUDIT_RETENTION_SCHEDULE = "41 3 * * *";

/** Removes entries older than AUDIT_RETENTION_DAYS (kept 400 days: docs/dashboard-api.md "Audit log"). */
export function removeOldAuditEntries(db: Db, now: number): number {
  const cutoff = now - AUDIT_RETENTION_DAYS * DAY_MS;
  return db.delete(auditLog).where(lt(auditLog.at, cutoff)).returning({ id: auditLog.id }).all().length;
}

export interface AuditRetentionJob {
  stop(): void;
}

/**
 * The periodic job, after the webhook log's (webhooks/retention.ts): once one turn after start,
 * then daily on croner, loaded then, with a fixed UTC offset; never overlapping itself, unref'd.
 */
export function startAuditRetentionJob(db: Db, clock: Clock): AuditRetentionJob {
  const run = () => {
    try {
      const removed = removeOldAuditEntries(db, clock.now());
      if (removed) log.info("removed old audit log entries", { entries: removed });
    } catch (err) {
      log.error("audit log retention failed", { error: String(err) });
    }
  };
  let stopped = false;
  let job: { stop(): void } | undefined;
  const scheduled = import("croner").then(({ Cron }) => {
    if (stopped) return;
    run();
    job = new Cron(AUDIT_RETENTION_SCHEDULE, { utcOffset: 0, protect: true, unref: true }, run);
  });
  scheduled.catch((err) => log.error("audit log retention could not be scheduled", { error: String(err) }));
  return {
    stop: () => {
      stopped = true;
      job?.stop();
    },
  };
}
