import type { Db } from "../storage/db.ts";

/** Token checks run on every public API request: their statements are prepared once. */
export function prepareTokenQueries(db: Db) {
  const c = db.$client;
  return {
    byHash: c.query<{ id: number; project_id: number; token_hash: string }, [string]>(
      "SELECT id, project_id, token_hash FROM api_tokens WHERE token_hash = ?",
    ),
    touch: c.query<unknown, [number, number]>("UPDATE api_tokens SET last_used_at = ? WHERE id = ?"),
  };
}

export type TokenQueries = ReturnType<typeof prepareTokenQueries>;
