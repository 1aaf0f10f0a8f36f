import type { MessageSyntax } from "../messages/read-types.ts";
import type { Db } from "../storage/db.ts";

/**
 * Reads of a whole project at publish time: every key, every language and every value, as plain
 * rows in one synchronous pass (docs/architecture.md "Reaching SQLite"). Prepared per publish.
 */
export function prepareSnapshotQueries(db: Db) {
  const c = db.$client;
  return {
    project: c.query<{ base: string; syntax: MessageSyntax; arbAttributes: string | null }, [number]>(
      "SELECT base_language_code AS base, message_syntax AS syntax, arb_attributes AS arbAttributes FROM projects WHERE id = ?",
    ),
    keys: c.query<{ id: number; publicId: string; key: string; context: string | null; arbMetadata: string | null }, [number]>(
      "SELECT id, public_id AS publicId, key, context, arb_metadata AS arbMetadata FROM translation_keys WHERE project_id = ?",
    ),
    languages: c.query<{ id: number; code: string; name: string }, [number]>("SELECT id, code, name FROM languages WHERE project_id = ? ORDER BY code"),
    values: c.query<[number, string], [number]>("SELECT key_id, value FROM translations WHERE language_id = ?"),
  };
}
