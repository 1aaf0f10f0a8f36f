import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../storage/db.ts";
import { TRANSLATION_SEARCH } from "../storage/derived.ts";
import { indexOn, named, selected, type RowOf, type Stored } from "../storage/names.ts";
import { comments, glossaryTerms, languageCounts, languages, projects, translationHistory, translationKeys, translations } from "../storage/schema.ts";
import type { KeyStatus } from "./model.ts";

/**
 * The authoring capability's hand-written SQL and its query-builder fragments with subqueries
 * (docs/architecture.md "Reaching SQLite"): tables and columns are named from the schema objects,
 * rows typed from them.
 */

const k = named(translationKeys);
const l = named(languages);
const p = named(projects);
const tr = named(translations);
const th = named(translationHistory);
const gt = named(glossaryTerms);
// In a join, each under its alias: the key `k`, its value `t` in the language `l`, the language's counts `n`.
const jk = named(translationKeys, "k");
const jt = named(translations, "t");
const jl = named(languages, "l");
const jn = named(languageCounts, "n");
type Key = Stored<typeof translationKeys>;
type Value = Stored<typeof translations>;

/** The trigram index finds terms of this many characters or more (src/storage/derived.ts). */
export const TRIGRAM_LENGTH = 3;

/**
 * A search across words whose trigrams spanning a gap between words (`t p` of `checkout payment`)
 * find fewer values than this is answered from those values alone; past it, the words' own
 * trigrams are required too (`trigramMatch`).
 */
export const CROSSING_CANDIDATES_MAX = 20_000;

const quoted = (grams: Iterable<string>) => [...new Set(grams)].map((g) => `"${g.replace(/"/g, '""')}"`).join(" AND ");

/**
 * A search term's trigrams that cover it: every third, and the last. A value holding the term
 * holds each of them (the index folds letter case at least as far as LIKE does), so the values
 * holding them all include every match.
 */
function coveringTrigrams(chars: string[]): string[] {
  const grams: string[] = [];
  for (let i = 0; i + TRIGRAM_LENGTH <= chars.length; i += TRIGRAM_LENGTH) grams.push(chars.slice(i, i + TRIGRAM_LENGTH).join(""));
  grams.push(chars.slice(-TRIGRAM_LENGTH).join(""));
  return grams;
}

/** The term's trigrams that span a gap between two words: a letter, white space, a letter (`t p`). */
function crossingTrigrams(chars: string[]): string[] {
  const grams: string[] = [];
  const blank = (c: string) => /\s/u.test(c);
  for (let i = 0; i + TRIGRAM_LENGTH <= chars.length; i++) {
    if (!blank(chars[i]!) && blank(chars[i + 1]!) && !blank(chars[i + 2]!)) grams.push(chars.slice(i, i + TRIGRAM_LENGTH).join(""));
  }
  return grams;
}

/** The trigram index's table, named in statements (src/storage/derived.ts). */
const searchIndex = sql.identifier(TRANSLATION_SEARCH);
const CROSSING_COUNT = `SELECT count(*) AS n FROM (SELECT rowid FROM ${TRANSLATION_SEARCH} WHERE ${TRANSLATION_SEARCH} MATCH ? LIMIT ?)`;

/**
 * A search term as a query of the trigram index, or null for a term too short to have a trigram;
 * `valuesMatching` then compares each value it finds with the term exactly, so the choice of
 * trigrams changes what a search costs, never what it finds. The index keeps only which values
 * hold a trigram (`detail=none`), and reading a trigram's list costs in proportion to its length:
 * a common trigram (`pay`, `men`) is held by a million values at 100,000 keys x 50 languages, so a
 * query of six of them read six million entries to find a few thousand values. A term of several
 * words has trigrams across its gaps (`t p`), rare where the words are common: when those alone
 * find fewer than CROSSING_CANDIDATES_MAX values (counted up to there, which costs little), they
 * are the query; else the covering trigrams join them (docs/dashboard.md "Speed").
 */
export function trigramMatch(db: Db, search: string, crossingMax = CROSSING_CANDIDATES_MAX): string | null {
  const chars = [...search];
  if (chars.length < TRIGRAM_LENGTH) return null;
  const crossing = crossingTrigrams(chars);
  if (crossing.length > 0) {
    const query = quoted(crossing);
    const found = db.$client.query<{ n: number }, [string, number]>(CROSSING_COUNT).get(query, crossingMax)!.n;
    if (found < crossingMax) return query;
  }
  return quoted([...crossing, ...coveringTrigrams(chars)]);
}

/** Escapes LIKE wildcards so a search for `100%` or `a_b` means those characters. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `text LIKE pattern`, the pattern's wildcards escaped by `likePattern`. */
function like(text: SQLWrapper, pattern: string): SQL {
  return sql`${text} LIKE ${pattern} ESCAPE '\\'`;
}

/**
 * Which values a search reads: those of the languages given (the ones a translator's or reviewer's
 * role shows, docs/dashboard-api.md "Project roles"), or of every language of the project (null).
 */
export type SearchedLanguages = readonly number[] | null;

function inLanguages(projectId: number, searched: SearchedLanguages): SQL {
  if (searched === null) return sql`${translations.languageId} IN (SELECT ${languages.id} FROM ${languages} WHERE ${languages.projectId} = ${projectId})`;
  return sql`${translations.languageId} IN (SELECT value FROM json_each(${JSON.stringify(searched)}))`;
}

/**
 * The keys with a value in the searched languages that is LIKE `pattern` (`term` escaped):
 * through the trigram index for a term it can find (`match`, the values holding its trigrams,
 * each then compared), else one pass over the project's values (docs/dashboard.md "Speed").
 */
export function valuesMatching(projectId: number, match: string | null, pattern: string, searched: SearchedLanguages): SQL {
  const inSearched = inLanguages(projectId, searched);
  if (match === null) return sql`(SELECT ${translations.keyId} FROM ${translations} WHERE ${inSearched} AND ${like(translations.value, pattern)})`;
  return sql`(SELECT ${translations.keyId} FROM ${translations} WHERE rowid IN (SELECT rowid FROM ${searchIndex} WHERE ${searchIndex} MATCH ${match}) AND ${inSearched} AND ${like(translations.value, pattern)})`;
}

/**
 * `term` as a condition on a key row of the project: in the key, its context or one of its values
 * in the searched languages (docs/decisions.md; a language the caller may not read is never
 * searched, docs/dashboard-api.md "Project roles"). The values are found through their trigram
 * index when the term has three characters or more, and else in one pass over the project's
 * languages (`valuesMatching`, docs/dashboard.md "Speed").
 */
export function searchCondition(db: Db, projectId: number, term: string, searched: SearchedLanguages): SQL {
  const pattern = likePattern(term);
  return sql`(${like(translationKeys.key, pattern)}
          OR ${like(translationKeys.context, pattern)}
          OR ${translationKeys.id} IN ${valuesMatching(projectId, trigramMatch(db, term), pattern, searched)})`;
}

/**
 * Whether a key row matches a one- or two-character `term` (no trigram to look up): in its name,
 * its context, or one of its values in the searched languages, found by the key (the first column
 * of their primary key).
 */
export function keyHit(term: string, searched: SearchedLanguages): SQL<number> {
  const pattern = likePattern(term);
  const inSearched = searched === null ? sql`` : sql` AND ${translations.languageId} IN (SELECT value FROM json_each(${JSON.stringify(searched)}))`;
  return sql<number>`(${like(translationKeys.key, pattern)}
    OR ${like(translationKeys.context, pattern)}
    OR EXISTS (SELECT 1 FROM ${translations} WHERE ${translations.keyId} = ${translationKeys.id}${inSearched} AND ${like(translations.value, pattern)}))`;
}

/** What the `status` filter of the key list asks of a key row (docs/product.md §8). */
export interface StatusFilter {
  status: KeyStatus;
  projectId: number;
  /** The language the status is about; none: any of the project's (`problems` only). */
  languageId?: number;
  /** `missing` only: keys that need no value in the language (an i18next plural form it does not use). */
  notNeeded?: number[];
  /** `missing` only: a key marked not to be translated needs no value (every language but the base). */
  translatableOnly?: boolean;
}

/**
 * The `status` filter as a condition on a key row (docs/product.md §8). The language's values are
 * read in one pass (by the translations' language index) rather than looked up key by key: 3 to 10
 * times less work at 10,000 keys (docs/dashboard.md "Speed").
 */
export function statusCondition({ status, projectId, languageId, notNeeded = [], translatableOnly = false }: StatusFilter): SQL {
  const inLanguage =
    languageId !== undefined
      ? sql`${translations.languageId} = ${languageId}`
      : sql`${translations.languageId} IN (SELECT ${languages.id} FROM ${languages} WHERE ${languages.projectId} = ${projectId})`;
  const keysWith = (extra: SQL) => sql`(SELECT ${translations.keyId} FROM ${translations} WHERE ${inLanguage}${extra})`;
  switch (status) {
    case "missing": {
      const needed = notNeeded.length > 0 ? sql` AND ${translationKeys.id} NOT IN (SELECT value FROM json_each(${JSON.stringify(notNeeded)}))` : sql``;
      const translatable = translatableOnly ? sql` AND ${translationKeys.translatable} = 1` : sql``;
      return sql`${translationKeys.id} NOT IN ${keysWith(sql``)}${needed}${translatable}`;
    }
    case "translated":
      return sql`${translationKeys.id} IN ${keysWith(sql` AND ${translations.status} = 'translated'`)}`;
    case "approved":
      return sql`${translationKeys.id} IN ${keysWith(sql` AND ${translations.status} = 'approved'`)}`;
    case "problems":
      return sql`${translationKeys.id} IN ${keysWith(sql` AND (${translations.errorCount} > 0 OR ${translations.warningCount} > 0)`)}`;
  }
}

/**
 * The key grid's counts of one language (key-counts.ts, docs/product.md §8). Without a search: the
 * project's keys, and those marked not to be translated (docs/formats.md "Not translatable").
 */
export const keyTotals = {
  n: sql<number>`count(*)`,
  notTranslatable: sql<number>`coalesce(sum(${translationKeys.translatable} = 0), 0)`,
};

/**
 * With a search: each key the search finds joined to its one value in the language (a left join),
 * counted by status. A key marked not to be translated needs no value but in the base language.
 */
export function statusCounts(isBase: boolean) {
  const needsValue = isBase ? sql`1` : sql`${translationKeys.translatable} = 1`;
  return {
    total: sql<number>`count(*)`,
    missing: sql<number>`coalesce(sum(${translations.keyId} IS NULL AND ${needsValue}), 0)`,
    translated: sql<number>`coalesce(sum(${translations.status} = 'translated'), 0)`,
    approved: sql<number>`coalesce(sum(${translations.status} = 'approved'), 0)`,
    problems: sql<number>`coalesce(sum(${translations.errorCount} > 0 OR ${translations.warningCount} > 0), 0)`,
  };
}

const NOT_TRANSLATABLE_VALUES = `SELECT count(*) AS n FROM ${jk} JOIN ${jt} ON ${jt.keyId} = ${jk.id} AND ${jt.languageId} = ? WHERE ${jk.projectId} = ? AND ${jk.translatable} = 0`;

/** How many keys marked not to be translated have a value in the language anyway (found by the translations' primary key). */
export function notTranslatableValues(db: Db, projectId: number, languageId: number): number {
  return db.$client.query<{ n: number }, [number, number]>(NOT_TRANSLATABLE_VALUES).get(languageId, projectId)!.n;
}

const NOT_TRANSLATABLE_KEYS = `SELECT ${k.id} FROM ${k} WHERE ${k.projectId} = ? AND ${k.translatable} = 0`;

/** The ids of the project's keys marked not to be translated (docs/formats.md "Not translatable"). */
export function notTranslatableKeyIds(db: Db, projectId: number): Key["id"][] {
  return db.$client
    .query<Pick<Key, "id">, [number]>(NOT_TRANSLATABLE_KEYS)
    .all(projectId)
    .map((r) => r.id);
}

const VALUES_AMONG = `SELECT count(*) AS n, coalesce(sum(${jt.status} = 'approved'), 0) AS approved FROM ${jt} JOIN ${jl} ON ${jl.id} = ${jt.languageId}
             WHERE ${jl.projectId} = ? AND ${jl.code} = ? AND ${jt.keyId} IN (SELECT value FROM json_each(?))`;

/** How many of the keys `keyIds` have a value in the language of `code`, and how many of those are approved. */
export function valuesAmong(db: Db, projectId: number, code: string, keyIds: number[]): { n: number; approved: number } {
  return db.$client.query<{ n: number; approved: number }, [number, string, string]>(VALUES_AMONG).get(projectId, code, JSON.stringify(keyIds))!;
}

/** The suffixes of i18next's plural forms (docs/messages.md "i18next plural forms"). */
const PLURAL_SUFFIXES = ["zero", "one", "two", "few", "many", "other"];
const PLURAL_SUFFIX_KEYS = `SELECT ${selected(k, "id", "key")} FROM ${k} WHERE ${k.projectId} = ? AND (${PLURAL_SUFFIXES.map((c) => `${k.key} LIKE '%\\_${c}' ESCAPE '\\'`).join(" OR ")})`;

/** The project's keys whose name ends in a plural suffix (`_one`, `_other`...), in one pass over its keys. */
export function pluralSuffixKeys(db: Db, projectId: number): Pick<Key, "id" | "key">[] {
  return db.$client.query<Pick<Key, "id" | "key">, [number]>(PLURAL_SUFFIX_KEYS).all(projectId);
}

/**
 * Drops a cell's history entries past its newest `?3` (docs/dashboard.md "History"), but for the
 * newest approval, which a release of reviewed strings only may still ship (docs/releases.md
 * "Reviewed strings only"). Walks the cell's entries by translation_history_cell_idx, newest
 * first, at most `?3` + 1 of them.
 */
const PRUNE_HISTORY = `DELETE FROM ${th} WHERE ${th.keyId} = ?1 AND ${th.languageId} = ?2
  AND ${th.id} <= (SELECT ${th.id} FROM ${th} WHERE ${th.keyId} = ?1 AND ${th.languageId} = ?2 ORDER BY ${th.id} DESC LIMIT 1 OFFSET ?3)
  AND ${th.id} IS NOT (SELECT max(${th.id}) FROM ${th} WHERE ${th.keyId} = ?1 AND ${th.languageId} = ?2 AND ${th.status} = 'approved')`;

/** Keeps a cell's newest `kept` history entries and its newest approval; call it in the transaction that added one. */
export function pruneHistory(db: Db, keyId: number, languageId: number, kept: number): void {
  db.$client.query<unknown, [number, number, number]>(PRUNE_HISTORY).run(keyId, languageId, kept);
}

const importKey = selected(k, "id", "key", "context", "arbMetadata", "translatable");
const keyValue = selected(tr, "keyId", "value");

/**
 * Statements for bulk writes: an import of 50,000 entries runs a hundred thousand of them inside one
 * transaction, and the query builder costs about ten times more per statement
 * (docs/architecture.md "Reaching SQLite"). Prepared per import, which is cheap next to the import.
 */
export function prepareImportQueries(db: Db) {
  const sqlite = db.$client;
  return {
    projectKeys: sqlite.prepare<RowOf<typeof importKey>, [number]>(`SELECT ${importKey} FROM ${k} WHERE ${k.projectId} = ?`),
    languageValues: sqlite.prepare<RowOf<typeof keyValue>, [number]>(`SELECT ${keyValue} FROM ${tr} WHERE ${tr.languageId} = ?`),
    insertKey: sqlite.prepare<Pick<Key, "id">, [string, number, string, string | null, number, number, number]>(
      `INSERT INTO ${k} (${k.publicId}, ${k.projectId}, ${k.key}, ${k.context}, ${k.translatable}, ${k.createdAt}, ${k.updatedAt}) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${k.id}`,
    ),
    updateContext: sqlite.prepare<unknown, [string | null, number, number]>(`UPDATE ${k} SET ${k.context} = ?, ${k.updatedAt} = ? WHERE ${k.id} = ?`),
    updateTranslatable: sqlite.prepare<unknown, [number, number, number]>(`UPDATE ${k} SET ${k.translatable} = ?, ${k.updatedAt} = ? WHERE ${k.id} = ?`),
    updateArbMetadata: sqlite.prepare<unknown, [string, number, number]>(`UPDATE ${k} SET ${k.arbMetadata} = ?, ${k.updatedAt} = ? WHERE ${k.id} = ?`),
    updateArbAttributes: sqlite.prepare<unknown, [string | null, number]>(`UPDATE ${p} SET ${p.arbAttributes} = ? WHERE ${p.id} = ?`),
    insertValue: sqlite.prepare<unknown, [number, number, string, number]>(
      `INSERT INTO ${tr} (${tr.keyId}, ${tr.languageId}, ${tr.value}, ${tr.status}, ${tr.updatedAt}) VALUES (?, ?, ?, 'translated', ?)`,
    ),
    /** A new value with its findings (ProjectChecks.storeNew): one write of the row. */
    insertChecked: sqlite.prepare<unknown, [number, number, string, number, string, number, number, number]>(
      `INSERT INTO ${tr} (${tr.keyId}, ${tr.languageId}, ${tr.value}, ${tr.status}, ${tr.updatedAt}, ${tr.problems}, ${tr.errorCount}, ${tr.warningCount}, ${tr.checkedAt})
       VALUES (?, ?, ?, 'translated', ?, ?, ?, ?, ?)`,
    ),
    /** A changed value with its findings (ProjectChecks.storeReplacing): one write of the row. */
    updateValue: sqlite.prepare<unknown, [string, number, string, number, number, number, number, number]>(
      `UPDATE ${tr} SET ${tr.value} = ?, ${tr.status} = 'translated', ${tr.updatedAt} = ?, ${tr.problems} = ?, ${tr.errorCount} = ?, ${tr.warningCount} = ?, ${tr.checkedAt} = ?
       WHERE ${tr.keyId} = ? AND ${tr.languageId} = ?`,
    ),
    insertHistory: sqlite.prepare<unknown, [number, number, string, string | null, string, string, string, number]>(
      `INSERT INTO ${th} (${th.keyId}, ${th.languageId}, ${th.value}, ${th.previousValue}, ${th.status}, ${th.byKind}, ${th.byPublicId}, ${th.byName}, ${th.via}, ${th.at})
       VALUES (?, ?, ?, ?, 'translated', ?, ?, ?, 'import', ?)`,
    ),
    /** A changed value's cell keeps its newest history entries (`pruneHistory`). */
    pruneHistory: sqlite.prepare<unknown, [number, number, number]>(PRUNE_HISTORY),
    deleteKey: sqlite.prepare<unknown, [number]>(`DELETE FROM ${k} WHERE ${k.id} = ?`),
    /** The keys whose value in this language has at least one message-check finding (docs/product.md §7). */
    keysWithProblems: sqlite.prepare<Pick<Value, "keyId">, [number]>(
      `SELECT ${selected(tr, "keyId")} FROM ${tr} WHERE ${tr.languageId} = ? AND (${tr.errorCount} > 0 OR ${tr.warningCount} > 0)`,
    ),
    /** Those findings one by one, in key order, for the import's answer (docs/publishing.md §6). */
    languageProblems: sqlite.prepare<Pick<Value, "keyId"> & Pick<Key, "key"> & Finding, [number]>(
      `SELECT ${selected(jt, "keyId")}, ${selected(jk, "key")}, ${FINDING}
       FROM ${jt} JOIN ${jk} ON ${jk.id} = ${jt.keyId} JOIN json_each(${jt.problems}) p
       WHERE ${jt.languageId} = ? AND (${jt.errorCount} > 0 OR ${jt.warningCount} > 0) ORDER BY ${jk.key}, p.key`,
    ),
  };
}

/** One finding of the message checks, read from a value's JSON list `p` (docs/product.md §7). */
type Finding = { code: string; severity: "error" | "warning"; message: string };
const FINDING = `p.value ->> '$.code' AS code, p.value ->> '$.severity' AS severity, p.value ->> '$.message' AS message`;

/**
 * Statements of the message checks (docs/messages.md "When"): a save reads the key's base value
 * and, for a base value, its other translations; rechecks walk a project's or the whole table's
 * unchecked rows by rowid, a chunk at a time. `query()` keeps each statement compiled on the
 * connection, so a save pays for preparing them once.
 */
export function prepareCheckQueries(db: Db) {
  const sqlite = db.$client;
  const language = selected(l, "id", "code", "name");
  const unchecked = selected(tr, "keyId", "value");
  const uncheckedValue = selected(jt, "keyId", "languageId", "value");
  const uncheckedProject = selected(jl, "projectId");
  return {
    languages: sqlite.query<RowOf<typeof language>, [number]>(`SELECT ${language} FROM ${l} WHERE ${l.projectId} = ?`),
    value: sqlite.query<Pick<Value, "value">, [number, number]>(`SELECT ${tr.value} FROM ${tr} WHERE ${tr.keyId} = ? AND ${tr.languageId} = ?`),
    keyName: sqlite.query<Pick<Key, "key" | "projectId">, [number]>(`SELECT ${selected(k, "key", "projectId")} FROM ${k} WHERE ${k.id} = ?`),
    keyNamed: sqlite.query<Pick<Key, "id">, [number, string]>(`SELECT ${k.id} FROM ${k} WHERE ${k.projectId} = ? AND ${k.key} = ?`),
    otherLanguages: sqlite.query<Pick<Value, "languageId" | "value">, [number, number]>(
      `SELECT ${selected(tr, "languageId", "value")} FROM ${tr} WHERE ${tr.keyId} = ? AND ${tr.languageId} != ?`,
    ),
    store: sqlite.query<unknown, [string, number, number, number, number, number]>(
      `UPDATE ${tr} SET ${tr.problems} = ?, ${tr.errorCount} = ?, ${tr.warningCount} = ?, ${tr.checkedAt} = ? WHERE ${tr.keyId} = ? AND ${tr.languageId} = ?`,
    ),
    markProjectUnchecked: sqlite.query<unknown, [number]>(
      `UPDATE ${tr} SET ${tr.checkedAt} = NULL WHERE ${tr.languageId} IN (SELECT ${l.id} FROM ${l} WHERE ${l.projectId} = ?)`,
    ),
    uncheckedOfLanguage: sqlite.query<{ rowid: number } & RowOf<typeof unchecked>, [number, number, number]>(
      `SELECT rowid, ${unchecked} FROM ${tr} WHERE ${tr.languageId} = ? AND rowid > ? AND ${tr.checkedAt} IS NULL ORDER BY rowid LIMIT ?`,
    ),
    /** What changes whenever the project's glossary does: its terms' count, their last changes and its newest id. */
    glossaryStamp: sqlite.query<{ stamp: string }, [number]>(
      `SELECT count(*) || ':' || coalesce(sum(${gt.updatedAt}), 0) || ':' || coalesce(max(${gt.id}), 0) AS stamp FROM ${gt} WHERE ${gt.projectId} = ?`,
    ),
    glossaryTerms: sqlite.query<Pick<Stored<typeof glossaryTerms>, "term" | "translations" | "caseSensitive" | "doNotTranslate">, [number]>(
      `SELECT ${selected(gt, "term", "translations", "caseSensitive", "doNotTranslate")} FROM ${gt} WHERE ${gt.projectId} = ?`,
    ),
    uncheckedAnywhere: sqlite.query<{ rowid: number } & RowOf<typeof uncheckedValue> & RowOf<typeof uncheckedProject>, [number, number]>(
      `SELECT t.rowid AS rowid, ${uncheckedValue}, ${uncheckedProject}
       FROM ${jt} JOIN ${jl} ON ${jl.id} = ${jt.languageId}
       WHERE t.rowid > ? AND ${jt.checkedAt} IS NULL ORDER BY t.rowid LIMIT ?`,
    ),
  };
}

export type CheckQueries = ReturnType<typeof prepareCheckQueries>;

/** One finding of the problem list as the statements return it: `key_id` is the key's public id. */
export interface ProblemRow {
  key_id: Key["publicId"];
  key: Key["key"];
  language_code: Stored<typeof languages>["code"];
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
const PROBLEM_SELECT = `SELECT ${jk.publicId} AS key_id, ${jk.key} AS key, ${jl.code} AS language_code, ${FINDING}`;
const PROBLEM_SEVERITY = `(?3 IS NULL OR p.value ->> '$.severity' = ?3)`;
const PROBLEM_ORDER = `ORDER BY ${jk.key}, ${jl.code}, p.key LIMIT ?4 OFFSET ?5`;
const HAS_FINDING = `(${jt.errorCount} > 0 OR ${jt.warningCount} > 0)`;
const KEYS_BY_NAME = indexOn(translationKeys, "keys_project_key_uq");
const VALUES_WITH_FINDINGS = indexOn(translations, "translations_problems_idx");

/** The text of the problem list's statements (`prepareProblemQueries`), for the tests' query plans too. */
export const PROBLEM_SQL = {
  counts: `SELECT coalesce(sum(CASE ?3 WHEN 'error' THEN ${jn.errorCount} WHEN 'warning' THEN ${jn.warningCount} ELSE ${jn.errorCount} + ${jn.warningCount} END), 0) AS findings,
         coalesce(sum(${jn.problemValueCount}), 0) AS valued,
         (SELECT count(*) FROM ${k} WHERE ${k.projectId} = ?1) AS keys,
         count(*) AS languages
       FROM ${jl} LEFT JOIN ${jn} ON ${jn.languageId} = ${jl.id}
       WHERE ${jl.projectId} = ?1 AND (?2 IS NULL OR ${jl.id} = ?2)`,
  // CROSS JOIN keeps the order written: keys first, in the order of their index.
  walk: `${PROBLEM_SELECT}
       FROM ${jk} INDEXED BY ${KEYS_BY_NAME}
       CROSS JOIN ${jt} INDEXED BY ${VALUES_WITH_FINDINGS}
       CROSS JOIN ${jl}
       CROSS JOIN json_each(${jt.problems}) p
       WHERE ${jk.projectId} = ?1 AND ?2 IS NULL AND ${jt.keyId} = ${jk.id} AND ${HAS_FINDING}
         AND ${jt.languageId} IN (SELECT ${l.id} FROM ${l} WHERE ${l.projectId} = ?1)
         AND ${jl.id} = ${jt.languageId} AND ${PROBLEM_SEVERITY}
       ${PROBLEM_ORDER}`,
  walkLanguage: `${PROBLEM_SELECT}
       FROM ${jk} INDEXED BY ${KEYS_BY_NAME}
       CROSS JOIN ${jt}
       CROSS JOIN ${jl}
       CROSS JOIN json_each(${jt.problems}) p
       WHERE ${jk.projectId} = ?1 AND ${jt.keyId} = ${jk.id} AND ${jt.languageId} = ?2 AND ${HAS_FINDING}
         AND ${jl.id} = ${jt.languageId} AND ${PROBLEM_SEVERITY}
       ${PROBLEM_ORDER}`,
  sorted: `${PROBLEM_SELECT}
       FROM ${jt}
         JOIN ${jl} ON ${jl.id} = ${jt.languageId}
         JOIN ${jk} ON ${jk.id} = ${jt.keyId}
         JOIN json_each(${jt.problems}) p
       WHERE ${jl.projectId} = ?1 AND ${HAS_FINDING}
         AND (?2 IS NULL OR ${jl.id} = ?2) AND ${PROBLEM_SEVERITY}
       ${PROBLEM_ORDER}`,
};

export function prepareProblemQueries(db: Db) {
  const sqlite = db.$client;
  type Params = [number, number | null, string | null, number, number];
  return {
    counts: sqlite.query<{ findings: number; valued: number; keys: number; languages: number }, [number, number | null, string | null]>(PROBLEM_SQL.counts),
    walk: sqlite.query<ProblemRow, Params>(PROBLEM_SQL.walk),
    walkLanguage: sqlite.query<ProblemRow, Params>(PROBLEM_SQL.walkLanguage),
    sorted: sqlite.query<ProblemRow, Params>(PROBLEM_SQL.sorted),
  };
}

/** Keys with a comment not yet resolved (docs/translators.md "Comments"): the `comments=open` filter, through the partial index. */
export function openCommentsCondition(): SQL {
  return sql`${translationKeys.id} IN (SELECT ${comments.keyId} FROM ${comments} WHERE ${comments.resolvedAt} IS NULL)`;
}
