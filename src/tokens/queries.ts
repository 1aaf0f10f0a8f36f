import type { Db } from "../storage/db.ts";

export interface TokenRecord {
  id: number;
  public_id: string;
  project_id: number;
  name: string;
  token_hash: string;
  /** JSON text: a non-empty subset of read, write, publish. */
  scopes: string;
}

/**
 * Token checks run on every public API request and every bearer request to the dashboard API:
 * their statements are prepared once per app.
 */
export function prepareTokenQueries(db: Db) {
  const c = db.$client;
  const busyTimeout = c.query<{ timeout: number }, []>("PRAGMA busy_timeout");
  // The time condition keeps "at most once a minute" true across every reader of tokens in the
  // process (the public API and the dashboard API remember tokens separately).
  const touch = c.query<unknown, [number, number, number]>("UPDATE api_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)");
  return {
    byHash: c.query<TokenRecord, [string]>("SELECT id, public_id, project_id, name, token_hash, scopes FROM api_tokens WHERE token_hash = ?"),
    /**
     * Writes `last_used_at` unless another connection holds the write lock (a large import applies
     * in a worker thread with its own connection, docs/publishing.md §6): the value is advisory,
     * and waiting for the lock would hold up every request this process serves meanwhile. Answers
     * whether it was written; the caller tries again on a later request.
     */
    touch(nowMs: number, tokenId: number, intervalMs: number): boolean {
      const previous = busyTimeout.get()?.timeout ?? 0;
      c.run("PRAGMA busy_timeout = 0");
      try {
        touch.run(nowMs, tokenId, nowMs - intervalMs);
        return true;
      } catch (err) {
        if ((err as { code?: string }).code === "SQLITE_BUSY") return false;
        throw err;
      } finally {
        c.run(`PRAGMA busy_timeout = ${Number(previous)}`);
      }
    },
  };
}

export type TokenQueries = ReturnType<typeof prepareTokenQueries>;
