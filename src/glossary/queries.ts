import { trigramMatch } from "../authoring/queries.ts";
import type { Db } from "../storage/db.ts";
import { TRANSLATION_SEARCH } from "../storage/derived.ts";
import { named } from "../storage/names.ts";
import { languages, translations } from "../storage/schema.ts";

const tr = named(translations);
const l = named(languages);

/** Every key of the base language (`?1`) whose value holds `?2` in any letter case (ASCII), by one pass over the language. */
const HOLDING_SCAN = `SELECT ${tr.keyId} FROM ${tr} WHERE ${tr.languageId} = ?1 AND instr(lower(${tr.value}), lower(?2)) > 0`;
/** The same through the values' trigram index (letter case folded), for a text with a trigram. */
const HOLDING_INDEXED = `SELECT ${tr.keyId} FROM ${tr} WHERE ${tr.languageId} = ?1 AND rowid IN (SELECT rowid FROM ${TRANSLATION_SEARCH} WHERE ${TRANSLATION_SEARCH} MATCH ?2)`;
const unchecking = (holding: string) =>
  `UPDATE ${tr} SET ${tr.checkedAt} = NULL WHERE ${tr.languageId} IN (SELECT ${l.id} FROM ${l} WHERE ${l.projectId} = ?3) AND ${tr.languageId} != ?1 AND ${tr.keyId} IN (${holding})`;

/**
 * Marks unchecked the translations of the keys whose base value may hold `text` (docs/messages.md
 * "When": a glossary change rechecks what it can change, not the whole project). Found through
 * the values' trigram index (letter case folded) for a text of three characters or more, else
 * by one pass over the base language's values; more than hold it is fine, the recheck decides.
 */
export function markTermUnchecked(db: Db, projectId: number, baseLanguageId: number, text: string): void {
  const match = trigramMatch(db, text);
  db.$client.query(unchecking(match === null ? HOLDING_SCAN : HOLDING_INDEXED)).run(baseLanguageId, match ?? text, projectId);
}
