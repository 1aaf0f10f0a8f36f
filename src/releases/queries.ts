import type { MessageSyntax } from "../messages/read-types.ts";
import type { Db } from "../storage/db.ts";

/**
 * Reads of a whole project at publish time: every key, every language and every value, as plain
 * rows in one synchronous pass (docs/architecture.md "Reaching SQLite"). Prepared per publish.
 */
export function prepareSnapshotQueries(db: Db) {
  const c = db.$client;
  return {
    project: c.query<{ base: string; syntax: MessageSyntax; arbAttributes: string | null; approvedOnly: number }, [number]>(
      "SELECT base_language_code AS base, message_syntax AS syntax, arb_attributes AS arbAttributes, publish_approved_only AS approvedOnly FROM projects WHERE id = ?",
    ),
    keys: c.query<{ id: number; publicId: string; key: string; context: string | null; arbMetadata: string | null; translatable: number }, [number]>(
      "SELECT id, public_id AS publicId, key, context, arb_metadata AS arbMetadata, translatable FROM translation_keys WHERE project_id = ?",
    ),
    languages: c.query<{ id: number; code: string; name: string }, [number]>("SELECT id, code, name FROM languages WHERE project_id = ? ORDER BY code"),
    values: c.query<[number, string], [number]>("SELECT key_id, value FROM translations WHERE language_id = ?"),
    // docs/releases.md "Reviewed strings only": the value as it is when approved, else the value of
    // the newest approval in its history (an edit after an approval ships the approved one); a value
    // never approved is left out, like a missing translation. The language's approvals are read in
    // one pass of translation_history_approved_idx: a history walk per value took about 1 s per
    // language at 100,000 keys x 10 languages, and grows with the languages (bench/RESULTS.md).
    approvedValues: c.query<[number, string], [number]>(
      `SELECT key_id, value FROM translations WHERE language_id = ?1 AND status = 'approved'
       UNION ALL
       SELECT t.key_id, h.value
       FROM (SELECT key_id, max(id) AS id FROM translation_history WHERE language_id = ?1 AND status = 'approved' GROUP BY key_id) last
       JOIN translations t ON t.key_id = last.key_id AND t.language_id = ?1 AND t.status <> 'approved'
       JOIN translation_history h ON h.id = last.id`,
    ),
  };
}
