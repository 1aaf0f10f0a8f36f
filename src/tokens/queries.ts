import { withoutWaiting, type Db } from "../storage/db.ts";
import { named, selected, type RowOf } from "../storage/names.ts";
import { apiTokens } from "../storage/schema.ts";

const a = named(apiTokens);
const token = selected(a, "id", "publicId", "projectId", "name", "tokenHash", "scopes");

/** A token as its check reads it; `scopes` is JSON text: a non-empty subset of read, write, publish. */
export type TokenRecord = RowOf<typeof token>;

/**
 * Token checks run on every public API request and every bearer request to the dashboard API:
 * their statements are prepared once per app.
 */
export function prepareTokenQueries(db: Db) {
  const sqlite = db.$client;
  // The time condition keeps "at most once a minute" true across every reader of tokens in the
  // process (the public API and the dashboard API remember tokens separately).
  const touch = sqlite.query<unknown, [number, number, number]>(
    `UPDATE ${a} SET ${a.lastUsedAt} = ? WHERE ${a.id} = ? AND (${a.lastUsedAt} IS NULL OR ${a.lastUsedAt} <= ?)`,
  );
  return {
    byHash: sqlite.query<TokenRecord, [string]>(`SELECT ${token} FROM ${a} WHERE ${a.tokenHash} = ?`),
    /**
     * Writes `last_used_at` unless another connection holds the write lock (a large import applies
     * in a worker thread with its own connection, docs/publishing.md §6): the value is advisory,
     * and waiting for the lock would hold up every request this process serves meanwhile. Answers
     * whether it was written; the caller tries again on a later request.
     */
    touch(nowMs: number, tokenId: number, intervalMs: number): boolean {
      try {
        withoutWaiting(sqlite, () => touch.run(nowMs, tokenId, nowMs - intervalMs));
        return true;
      } catch (err) {
        if ((err as { code?: string }).code === "SQLITE_BUSY") return false;
        throw err;
      }
    },
  };
}

export type TokenQueries = ReturnType<typeof prepareTokenQueries>;
