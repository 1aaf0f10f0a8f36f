import { eq, sql } from "drizzle-orm";
import type { Db } from "../storage/db.ts";
import { publishTargetCursors } from "../storage/schema.ts";

/** The targets' cursors in the path record (docs/architecture.md "Publish targets"). */
export function prepareCursorQueries(db: Db) {
  return {
    cursor: db.select({ lastChangeId: publishTargetCursors.lastChangeId }).from(publishTargetCursors).where(eq(publishTargetCursors.target, sql.placeholder("target"))).prepare(),
    setCursor: (target: string, lastChangeId: number, now: number) =>
      db
        .insert(publishTargetCursors)
        .values({ target, lastChangeId, updatedAt: now })
        .onConflictDoUpdate({ target: publishTargetCursors.target, set: { lastChangeId, updatedAt: now } })
        .run(),
  };
}

export type CursorQueries = ReturnType<typeof prepareCursorQueries>;
