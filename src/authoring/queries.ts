import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../storage/db.ts";

/** The trigram index finds terms of this many characters or more (src/storage/derived.ts). */
export const TRIGRAM_LENGTH = 3;

/**
 * A search term as a query of the trigram index: trigrams that cover the term (every third, and
 * the last), all required. A value holding the term holds each of them (the index folds letter
 * case at least as far as LIKE does), so the values it finds include every match; `valuesMatching`
 * then compares each with the term exactly. Null for a term too short to have a trigram.
 */
export function trigramQuery(search: string): string | null {
  const chars = [...search];
  if (chars.length < TRIGRAM_LENGTH) return null;
  const grams = new Set<string>();
  for (let i = 0; i + TRIGRAM_LENGTH <= chars.length; i += TRIGRAM_LENGTH) grams.add(chars.slice(i, i + TRIGRAM_LENGTH).join(""));
  grams.add(chars.slice(-TRIGRAM_LENGTH).join(""));
  return [...grams].map((g) => `"${g.replace(/"/g, '""')}"`).join(" AND ");
}

/**
 * The keys with a value in the project's languages that is LIKE `pattern` (`search` escaped):
 * through the trigram index for a term it can find (the values holding its trigrams, each then
 * compared), else one pass over the project's values (docs/dashboard.md "Speed").
 */
export function valuesMatching(projectId: number, search: string, pattern: string): SQL {
  const inProject = sql`language_id IN (SELECT id FROM languages WHERE project_id = ${projectId})`;
  const like = sql`value LIKE ${pattern} ESCAPE '\\'`;
  const match = trigramQuery(search);
  if (match === null) return sql`(SELECT key_id FROM translations WHERE ${inProject} AND ${like})`;
  return sql`(SELECT key_id FROM translations WHERE rowid IN (SELECT rowid FROM translation_search WHERE translation_search MATCH ${match}) AND ${inProject} AND ${like})`;
}

/**
 * Statements for bulk writes: an import of 50,000 entries runs a hundred thousand of them inside one
 * transaction, and the query builder costs about ten times more per statement
 * (docs/architecture.md "Reaching SQLite"). Prepared per import, which is cheap next to the import.
 */
export function prepareImportQueries(db: Db) {
  const c = db.$client;
  return {
    projectKeys: c.prepare<{ id: number; key: string; context: string | null; arb_metadata: string | null; translatable: number }, [number]>(
      "SELECT id, key, context, arb_metadata, translatable FROM translation_keys WHERE project_id = ?",
    ),
    languageValues: c.prepare<{ key_id: number; value: string }, [number]>("SELECT key_id, value FROM translations WHERE language_id = ?"),
    insertKey: c.prepare<{ id: number }, [string, number, string, string | null, number, number, number]>(
      "INSERT INTO translation_keys (public_id, project_id, key, context, translatable, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
    ),
    updateContext: c.prepare<unknown, [string | null, number, number]>("UPDATE translation_keys SET context = ?, updated_at = ? WHERE id = ?"),
    updateTranslatable: c.prepare<unknown, [number, number, number]>("UPDATE translation_keys SET translatable = ?, updated_at = ? WHERE id = ?"),
    updateArbMetadata: c.prepare<unknown, [string, number, number]>("UPDATE translation_keys SET arb_metadata = ?, updated_at = ? WHERE id = ?"),
    updateArbAttributes: c.prepare<unknown, [string | null, number]>("UPDATE projects SET arb_attributes = ? WHERE id = ?"),
    insertValue: c.prepare<unknown, [number, number, string, number]>(
      "INSERT INTO translations (key_id, language_id, value, status, updated_at) VALUES (?, ?, ?, 'translated', ?)",
    ),
    /** A new value with its findings (ProjectChecks.storeNew): one write of the row. */
    insertChecked: c.prepare<unknown, [number, number, string, number, string, number, number, number]>(
      `INSERT INTO translations (key_id, language_id, value, status, updated_at, problems, error_count, warning_count, checked_at)
       VALUES (?, ?, ?, 'translated', ?, ?, ?, ?, ?)`,
    ),
    /** A changed value with its findings (ProjectChecks.storeReplacing): one write of the row. */
    updateValue: c.prepare<unknown, [string, number, string, number, number, number, number, number]>(
      `UPDATE translations SET value = ?, status = 'translated', updated_at = ?, problems = ?, error_count = ?, warning_count = ?, checked_at = ?
       WHERE key_id = ? AND language_id = ?`,
    ),
    insertHistory: c.prepare<unknown, [number, number, string, string | null, string, string, string, number]>(
      `INSERT INTO translation_history (key_id, language_id, value, previous_value, status, by_kind, by_public_id, by_name, via, at)
       VALUES (?, ?, ?, ?, 'translated', ?, ?, ?, 'import', ?)`,
    ),
    deleteKey: c.prepare<unknown, [number]>("DELETE FROM translation_keys WHERE id = ?"),
    /** The keys whose value in this language has at least one message-check finding (docs/product.md §7). */
    keysWithProblems: c.prepare<{ key_id: number }, [number]>("SELECT key_id FROM translations WHERE language_id = ? AND (error_count > 0 OR warning_count > 0)"),
    /** Those findings one by one, in key order, for the import's answer (docs/publishing.md §6). */
    languageProblems: c.prepare<{ key_id: number; key: string; code: string; severity: "error" | "warning"; message: string }, [number]>(
      `SELECT t.key_id AS key_id, k.key AS key, p.value ->> '$.code' AS code, p.value ->> '$.severity' AS severity, p.value ->> '$.message' AS message
       FROM translations t JOIN translation_keys k ON k.id = t.key_id JOIN json_each(t.problems) p
       WHERE t.language_id = ? AND (t.error_count > 0 OR t.warning_count > 0) ORDER BY k.key, p.key`,
    ),
  };
}

/**
 * Statements of the message checks (docs/messages.md "When"): a save reads the key's base value
 * and, for a base value, its other translations; rechecks walk a project's or the whole table's
 * unchecked rows by rowid, a chunk at a time. `query()` keeps each statement compiled on the
 * connection, so a save pays for preparing them once.
 */
export function prepareCheckQueries(db: Db) {
  const c = db.$client;
  return {
    languages: c.query<{ id: number; code: string; name: string }, [number]>("SELECT id, code, name FROM languages WHERE project_id = ?"),
    value: c.query<{ value: string }, [number, number]>("SELECT value FROM translations WHERE key_id = ? AND language_id = ?"),
    keyName: c.query<{ key: string; projectId: number }, [number]>("SELECT key, project_id AS projectId FROM translation_keys WHERE id = ?"),
    keyNamed: c.query<{ id: number }, [number, string]>("SELECT id FROM translation_keys WHERE project_id = ? AND key = ?"),
    otherLanguages: c.query<{ languageId: number; value: string }, [number, number]>(
      "SELECT language_id AS languageId, value FROM translations WHERE key_id = ? AND language_id != ?",
    ),
    store: c.query<unknown, [string, number, number, number, number, number]>(
      "UPDATE translations SET problems = ?, error_count = ?, warning_count = ?, checked_at = ? WHERE key_id = ? AND language_id = ?",
    ),
    markProjectUnchecked: c.query<unknown, [number]>(
      "UPDATE translations SET checked_at = NULL WHERE language_id IN (SELECT id FROM languages WHERE project_id = ?)",
    ),
    uncheckedOfLanguage: c.query<{ rowid: number; keyId: number; value: string }, [number, number, number]>(
      "SELECT rowid, key_id AS keyId, value FROM translations WHERE language_id = ? AND rowid > ? AND checked_at IS NULL ORDER BY rowid LIMIT ?",
    ),
    /** What changes whenever the project's glossary does: its terms' count and last change. */
    glossaryStamp: c.query<{ stamp: string }, [number]>(
      "SELECT count(*) || ':' || coalesce(sum(updated_at), 0) || ':' || coalesce(max(id), 0) AS stamp FROM glossary_terms WHERE project_id = ?",
    ),
    glossaryTerms: c.query<{ term: string; translations: string; caseSensitive: number; doNotTranslate: number }, [number]>(
      "SELECT term, translations, case_sensitive AS caseSensitive, do_not_translate AS doNotTranslate FROM glossary_terms WHERE project_id = ?",
    ),
    uncheckedAnywhere: c.query<{ rowid: number; keyId: number; languageId: number; value: string; projectId: number }, [number, number]>(
      `SELECT t.rowid AS rowid, t.key_id AS keyId, t.language_id AS languageId, t.value AS value, l.project_id AS projectId
       FROM translations t JOIN languages l ON l.id = t.language_id
       WHERE t.rowid > ? AND t.checked_at IS NULL ORDER BY t.rowid LIMIT ?`,
    ),
  };
}

export type CheckQueries = ReturnType<typeof prepareCheckQueries>;

/** One finding of the problem list as the statements return it. */
export interface ProblemRow {
  key_id: string;
  key: string;
  language_code: string;
  code: string;
  severity: string;
  message: string;
}

/**
 * The project's problem list (docs/product.md §7, docs/messages.md "The problem list"): one row per
 * finding, from the JSON the checks stored, in key then language order; `?2` narrows to a language,
 * `?3` to a severity. Three statements:
 *
 * - `counts`: the findings and the values holding them, from `language_counts` (one row per
 *   language, kept by triggers): the total without reading a finding.
 * - `walk` / `walkLanguage`: the project's keys in key order by their unique index, each key's values
 *   with a finding looked up by the key (in one language: one primary-key look-up), stopping once
 *   the page is full. The cost is the keys walked up to the page's end, not the findings.
 * - `sorted`: every value with a finding (the partial index), sorted. The cost is the findings,
 *   for a page deep among few findings, where walking the keys would read most of them.
 */
const PROBLEM_SELECT = `SELECT k.public_id AS key_id, k.key AS key, l.code AS language_code, p.value ->> '$.code' AS code,
         p.value ->> '$.severity' AS severity, p.value ->> '$.message' AS message`;
const PROBLEM_SEVERITY = `(?3 IS NULL OR p.value ->> '$.severity' = ?3)`;
const PROBLEM_ORDER = `ORDER BY k.key, l.code, p.key LIMIT ?4 OFFSET ?5`;

/** The text of the problem list's statements (`prepareProblemQueries`), for the tests' query plans too. */
export const PROBLEM_SQL = {
  counts: `SELECT coalesce(sum(CASE ?3 WHEN 'error' THEN n.error_count WHEN 'warning' THEN n.warning_count ELSE n.error_count + n.warning_count END), 0) AS findings,
         coalesce(sum(n.problem_value_count), 0) AS valued,
         (SELECT count(*) FROM translation_keys WHERE project_id = ?1) AS keys,
         count(*) AS languages
       FROM languages l LEFT JOIN language_counts n ON n.language_id = l.id
       WHERE l.project_id = ?1 AND (?2 IS NULL OR l.id = ?2)`,
  // CROSS JOIN keeps the order written: keys first, in the order of their index.
  walk: `${PROBLEM_SELECT}
       FROM translation_keys k INDEXED BY keys_project_key_uq
       CROSS JOIN translations t INDEXED BY translations_problems_idx
       CROSS JOIN languages l
       CROSS JOIN json_each(t.problems) p
       WHERE k.project_id = ?1 AND ?2 IS NULL AND t.key_id = k.id AND (t.error_count > 0 OR t.warning_count > 0)
         AND t.language_id IN (SELECT id FROM languages WHERE project_id = ?1)
         AND l.id = t.language_id AND ${PROBLEM_SEVERITY}
       ${PROBLEM_ORDER}`,
  walkLanguage: `${PROBLEM_SELECT}
       FROM translation_keys k INDEXED BY keys_project_key_uq
       CROSS JOIN translations t
       CROSS JOIN languages l
       CROSS JOIN json_each(t.problems) p
       WHERE k.project_id = ?1 AND t.key_id = k.id AND t.language_id = ?2 AND (t.error_count > 0 OR t.warning_count > 0)
         AND l.id = t.language_id AND ${PROBLEM_SEVERITY}
       ${PROBLEM_ORDER}`,
  sorted: `${PROBLEM_SELECT}
       FROM translations t
         JOIN languages l ON l.id = t.language_id
         JOIN translation_keys k ON k.id = t.key_id
         JOIN json_each(t.problems) p
       WHERE l.project_id = ?1 AND (t.error_count > 0 OR t.warning_count > 0)
         AND (?2 IS NULL OR l.id = ?2) AND ${PROBLEM_SEVERITY}
       ${PROBLEM_ORDER}`,
};

export function prepareProblemQueries(db: Db) {
  const c = db.$client;
  type Params = [number, number | null, string | null, number, number];
  return {
    counts: c.query<{ findings: number; valued: number; keys: number; languages: number }, [number, number | null, string | null]>(PROBLEM_SQL.counts),
    walk: c.query<ProblemRow, Params>(PROBLEM_SQL.walk),
    walkLanguage: c.query<ProblemRow, Params>(PROBLEM_SQL.walkLanguage),
    sorted: c.query<ProblemRow, Params>(PROBLEM_SQL.sorted),
  };
}
