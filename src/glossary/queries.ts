import { trigramQuery } from "../authoring/queries.ts";
import type { Db } from "../storage/db.ts";

/**
 * Marks unchecked the translations of the keys whose base value may hold `text` (docs/messages.md
 * "When": a glossary change rechecks what it can change, not the whole project). Found through
 * the values' trigram index (letter case folded) for a text of three characters or more, else
 * by one pass over the base language's values; more than hold it is fine, the recheck decides.
 */
export function markTermUnchecked(db: Db, projectId: number, baseLanguageId: number, text: string): void {
  const c = db.$client;
  const match = trigramQuery(text);
  const holding =
    match === null
      ? "SELECT key_id FROM translations WHERE language_id = ?1 AND instr(lower(value), lower(?2)) > 0"
      : "SELECT key_id FROM translations WHERE language_id = ?1 AND rowid IN (SELECT rowid FROM translation_search WHERE translation_search MATCH ?2)";
  c.query(
    `UPDATE translations SET checked_at = NULL WHERE language_id IN (SELECT id FROM languages WHERE project_id = ?3) AND language_id != ?1 AND key_id IN (${holding})`,
  ).run(baseLanguageId, match ?? text, projectId);
}
