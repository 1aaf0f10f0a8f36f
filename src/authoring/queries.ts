import type { Db } from "../storage/db.ts";

/**
 * Statements for bulk writes: an import of 10,000 entries runs tens of thousands of them inside one
 * transaction, and the query builder costs about ten times more per statement
 * (docs/architecture.md "Reaching SQLite"). Prepared per import, which is cheap next to the import.
 */
export function prepareImportQueries(db: Db) {
  const c = db.$client;
  return {
    insertKey: c.prepare<{ id: number }, [string, number, string, string | null, number, number]>(
      "INSERT INTO translation_keys (public_id, project_id, key, context, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
    ),
    updateContext: c.prepare<unknown, [string, number, number]>("UPDATE translation_keys SET context = ?, updated_at = ? WHERE id = ?"),
    insertValue: c.prepare<unknown, [number, number, string, number]>(
      "INSERT INTO translations (key_id, language_id, value, status, updated_at) VALUES (?, ?, ?, 'translated', ?)",
    ),
    updateValue: c.prepare<unknown, [string, number, number, number]>(
      "UPDATE translations SET value = ?, status = 'translated', updated_at = ? WHERE key_id = ? AND language_id = ?",
    ),
    insertHistory: c.prepare<unknown, [number, number, string, string | null, string, string, string, number]>(
      `INSERT INTO translation_history (key_id, language_id, value, previous_value, status, by_kind, by_public_id, by_name, via, at)
       VALUES (?, ?, ?, ?, 'translated', ?, ?, ?, 'import', ?)`,
    ),
  };
}
