import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../storage/db.ts";
import { purgedContent, purgeQueue } from "../../storage/schema.ts";

/** The purge queue's statements and the content last purged per path (docs/architecture.md "Reaching SQLite"). */
export function preparePurgeQueries(db: Db) {
  return {
    insert: (rows: (typeof purgeQueue.$inferInsert)[]) => (rows.length ? db.insert(purgeQueue).values(rows).run() : undefined),
    /** The call due soonest (a failing one waits its turn without holding back the others). */
    next: () => db.select().from(purgeQueue).orderBy(asc(purgeQueue.nextAttemptAt), asc(purgeQueue.id)).limit(1).get(),
    sent: (id: number) => db.delete(purgeQueue).where(eq(purgeQueue.id, id)).run(),
    failed: (id: number, nextAttemptAt: number, error: string) =>
      db.update(purgeQueue).set({ attempts: sql`${purgeQueue.attempts} + 1`, nextAttemptAt, lastError: error }).where(eq(purgeQueue.id, id)).run(),
    content: (path: string) => db.select({ sha256: purgedContent.sha256 }).from(purgedContent).where(eq(purgedContent.path, path)).get()?.sha256 ?? null,
    setContent: (path: string, sha256: string) =>
      db.insert(purgedContent).values({ path, sha256 }).onConflictDoUpdate({ target: purgedContent.path, set: { sha256 } }).run(),
    forget: (path: string) => db.delete(purgedContent).where(eq(purgedContent.path, path)).run(),
  };
}

export type PurgeQueries = ReturnType<typeof preparePurgeQueries>;
