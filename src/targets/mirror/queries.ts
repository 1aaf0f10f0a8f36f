import { and, asc, count, eq, gt, inArray, max, min, sql } from "drizzle-orm";
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
      db.all<Record<string, unknown>>(sql`
        SELECT * FROM ${q} AS r
        WHERE r.done = 0 AND r.next_attempt_at <= ${now}
          AND NOT EXISTS (SELECT 1 FROM ${q} AS n WHERE n.path = r.path AND n.id > r.id)
          AND (r.level = 0 OR NOT EXISTS (
            SELECT 1 FROM ${q} AS d
            WHERE d.project_id = r.project_id AND d.done = 0 AND d.level < r.level AND d.op = 'put'
              AND (d.release = r.release OR d.release = '' OR r.release = '')))
        ORDER BY r.id LIMIT ${limit}`).map(fromSql),
    /** Waiting rows a newer row of the same path makes unnecessary (not those being copied now). */
    superseded: (busy: number[]) =>
      db.all<{ id: number; changeId: number }>(sql`
        SELECT r.id AS id, r.change_id AS changeId FROM ${q} AS r
        WHERE r.done = 0 AND EXISTS (SELECT 1 FROM ${q} AS n WHERE n.path = r.path AND n.id > r.id)
          ${busy.length ? sql`AND r.id NOT IN (${sql.join(busy.map((id) => sql`${id}`), sql`, `)})` : sql``}`),
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

/** Raw rows come with SQLite's column names and 0/1 for booleans. */
function fromSql(row: Record<string, unknown>): QueueRow {
  return {
    id: row.id as number,
    changeId: row.change_id as number,
    projectId: row.project_id as number,
    path: row.path as string,
    op: row.op as QueueRow["op"],
    put: row.put as string | null,
    level: row.level as number,
    release: row.release as string,
    checkFirst: Boolean(row.check_first),
    done: Boolean(row.done),
    purge: Boolean(row.purge),
    attempts: row.attempts as number,
    nextAttemptAt: row.next_attempt_at as number,
    lastError: row.last_error as string | null,
    createdAt: row.created_at as number,
  };
}

export type MirrorQueries = ReturnType<typeof prepareMirrorQueries>;
