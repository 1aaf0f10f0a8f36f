import { and, asc, count, eq, exists, gt, inArray, lt, lte, max, min, notExists, notInArray, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../storage/db.ts";
import { mirrorQueue, mirrorState, projects } from "../../storage/schema.ts";

export type QueueRow = typeof mirrorQueue.$inferSelect;
export type NewQueueRow = typeof mirrorQueue.$inferInsert;

/**
 * The mirror queue's statements (docs/architecture.md "Reaching SQLite"). None is on a request's
 * path: the queue is filled after a change commits and emptied by the mirror's copies.
 */
export function prepareMirrorQueries(db: Db) {
  const q = mirrorQueue;
  // The queue as the outer row (r), a newer row of its path (n), and a row it waits for (d).
  const r = alias(mirrorQueue, "r");
  const n = alias(mirrorQueue, "n");
  const d = alias(mirrorQueue, "d");
  return {
    insert: (rows: NewQueueRow[]) => {
      // SQLite takes at most 32,766 variables a statement: 14 columns, so 1,000 rows at a time.
      for (let i = 0; i < rows.length; i += 1000) db.insert(q).values(rows.slice(i, i + 1000)).run();
    },
    /**
     * Rows no other row holds back: not done, due, the newest of their path, and, above the
     * pinned level, with no waiting put of a lower level of the same release (or of the project,
     * where either names no release). Oldest first.
     */
    ready: (now: number, limit: number) =>
      db
        .select()
        .from(r)
        .where(
          and(
            eq(r.done, false),
            lte(r.nextAttemptAt, now),
            notExists(db.select({ one: sql`1` }).from(n).where(and(eq(n.path, r.path), gt(n.id, r.id)))),
            or(
              eq(r.level, 0),
              notExists(
                db
                  .select({ one: sql`1` })
                  .from(d)
                  .where(and(eq(d.projectId, r.projectId), eq(d.done, false), lt(d.level, r.level), eq(d.op, "put"), or(eq(d.release, r.release), eq(d.release, ""), eq(r.release, "")))),
              ),
            ),
          ),
        )
        .orderBy(asc(r.id))
        .limit(limit)
        .all(),
    /** Waiting rows a newer row of the same path makes unnecessary (not those being copied now). */
    superseded: (busy: number[]) =>
      db
        .select({ id: r.id, changeId: r.changeId })
        .from(r)
        .where(and(eq(r.done, false), exists(db.select({ one: sql`1` }).from(n).where(and(eq(n.path, r.path), gt(n.id, r.id)))), busy.length ? notInArray(r.id, busy) : undefined))
        .all(),
    markDone: (ids: number[], purge: boolean) => db.update(q).set({ done: true, purge }).where(inArray(q.id, ids)).run(),
    failed: (id: number, nextAttemptAt: number, error: string) =>
      db.update(q).set({ attempts: sql`${q.attempts} + 1`, nextAttemptAt, lastError: error }).where(eq(q.id, id)).run(),
    /** How many rows of a change still wait. */
    waitingOf: (changeId: number) => db.select({ n: count() }).from(q).where(and(eq(q.changeId, changeId), eq(q.done, false))).get()!.n,
    purgedPathsOf: (changeId: number) => db.select({ path: q.path }).from(q).where(and(eq(q.changeId, changeId), eq(q.purge, true))).orderBy(asc(q.id)).all().map((r) => r.path),
    removeChange: (changeId: number) => db.delete(q).where(eq(q.changeId, changeId)).run(),
    clear: () => db.delete(q).run(),
    /** When the soonest retry is due (a waiting row's next attempt after `now`), or null. */
    nextRetry: (now: number) => db.select({ at: min(q.nextAttemptAt) }).from(q).where(and(eq(q.done, false), gt(q.nextAttemptAt, now))).get()?.at ?? null,
    pending: () => db.select({ n: count() }).from(q).where(eq(q.done, false)).get()!.n,
    failing: (limit: number) =>
      db
        .select({ path: q.path, error: q.lastError, attempts: q.attempts, nextAttemptAt: q.nextAttemptAt })
        .from(q)
        .where(and(eq(q.done, false), gt(q.attempts, 0)))
        .orderBy(asc(q.id))
        .limit(limit)
        .all(),
    lastId: () => db.select({ id: max(q.id) }).from(q).get()?.id ?? 0,
    state: () => db.select().from(mirrorState).where(eq(mirrorState.id, 1)).get(),
    setLocation: (location: string) =>
      db.insert(mirrorState).values({ id: 1, location }).onConflictDoUpdate({ target: mirrorState.id, set: { location } }).run(),
    copied: (at: number) => db.update(mirrorState).set({ lastCopiedAt: at }).where(eq(mirrorState.id, 1)).run(),
    projects: () => db.select({ id: projects.id, slug: projects.cdnSlug }).from(projects).orderBy(asc(projects.id)).all(),
  };
}

export type MirrorQueries = ReturnType<typeof prepareMirrorQueries>;
