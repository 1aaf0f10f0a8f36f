import type { Db } from "../storage/db.ts";
import type { MessageSyntax } from "../messages/read-types.ts";

/**
 * The translation memory's statements (docs/architecture.md "Reaching SQLite"): the postings of
 * its trigram index (`memory_search`, src/storage/derived.ts), and the candidates it finds, with
 * what a suggestion shows of them. Prepared once per app; a suggestion runs a few dozen of them.
 */

/** A stored translation whose key's base string is a candidate. */
export interface KeyCandidate {
  /** The base value's rowid: its id in the index. */
  id: number;
  source: string;
  keyRowId: number;
  keyId: string;
  key: string;
  projectId: number;
  projectPublicId: string;
  projectName: string;
  syntax: MessageSyntax;
  baseCode: string;
  code: string;
  target: string;
}

/** An imported memory unit whose source is a candidate, with its translation into the language asked. */
export interface UnitCandidate {
  id: number;
  source: string;
  tuid: string | null;
  importId: string;
  importName: string;
  projectId: number;
  projectPublicId: string;
  projectName: string;
  syntax: MessageSyntax;
  baseCode: string;
  code: string;
  target: string;
}

export function prepareMemoryQueries(db: Db) {
  const c = db.$client;
  return {
    /** The rowids holding one trigram (a query of one quoted phrase of three characters). */
    postings: c.query<{ rowid: number }, [string]>("SELECT rowid FROM memory_search WHERE memory_search MATCH ?"),
    /** How many rows hold a trigram, counted up to a cap (a common one is not read past it). */
    cappedCount: c.query<{ n: number }, [string, number]>("SELECT count(*) AS n FROM (SELECT 1 FROM memory_search WHERE memory_search MATCH ? LIMIT ?)"),
    /** The short source strings of lengths `?1` to `?2` (src/storage/derived.ts `memory_short`), by their index ids. */
    shortOfLengths: c.query<{ id: number; text: string }, [number, number]>("SELECT id, text FROM memory_short WHERE len BETWEEN ? AND ?"),
    /** The text and syntax of the base values among `?1` (a JSON list of rowids): what a candidate is scored by. */
    keySources: c.query<{ id: number; source: string; syntax: MessageSyntax }, [string]>(
      `SELECT t.rowid AS id, t.value AS source, p.message_syntax AS syntax FROM json_each(?1) j
       CROSS JOIN translations t ON t.rowid = j.value JOIN translation_keys k ON k.id = t.key_id JOIN projects p ON p.id = k.project_id`,
    ),
    /** The same of imported units among `?1` (unit ids). */
    unitSources: c.query<{ id: number; source: string; syntax: MessageSyntax }, [string]>(
      `SELECT u.id AS id, u.source AS source, p.message_syntax AS syntax FROM json_each(?1) j CROSS JOIN memory_units u ON u.id = j.value JOIN projects p ON p.id = u.project_id`,
    ),
    /** Base values among `?1` (a JSON list of rowids) with a translation into `?2` (any letter case), but key `?3`'s. */
    keyCandidates: c.query<KeyCandidate, [string, string, number]>(
      `SELECT t.rowid AS id, t.value AS source, k.id AS keyRowId, k.public_id AS keyId, k.key AS key, p.id AS projectId, p.public_id AS projectPublicId,
              p.name AS projectName, p.message_syntax AS syntax, p.base_language_code AS baseCode, tl.code AS code, tt.value AS target
       FROM json_each(?1) j
       CROSS JOIN translations t ON t.rowid = j.value
       JOIN languages bl ON bl.id = t.language_id
       JOIN translation_keys k ON k.id = t.key_id
       JOIN projects p ON p.id = k.project_id AND p.base_language_code = bl.code
       JOIN languages tl ON tl.project_id = p.id AND tl.code = ?2 COLLATE NOCASE
       JOIN translations tt ON tt.key_id = k.id AND tt.language_id = tl.id
       WHERE k.id != ?3`,
    ),
    /** Imported units among `?1` (a JSON list of unit ids) with a translation into `?2`. */
    unitCandidates: c.query<UnitCandidate, [string, string]>(
      `SELECT u.id AS id, u.source AS source, u.tuid AS tuid, i.public_id AS importId, i.name AS importName, p.id AS projectId,
              p.public_id AS projectPublicId, p.name AS projectName, p.message_syntax AS syntax, p.base_language_code AS baseCode,
              mt.language_code AS code, mt.text AS target
       FROM json_each(?1) j
       CROSS JOIN memory_units u ON u.id = j.value
       JOIN memory_imports i ON i.id = u.import_id
       JOIN projects p ON p.id = u.project_id
       JOIN memory_targets mt ON mt.unit_id = u.id AND mt.language_code = ?2 COLLATE NOCASE`,
    ),
  };
}

export type MemoryQueries = ReturnType<typeof prepareMemoryQueries>;

/** Writing an imported memory: on the import's own connection, a chunk of units per transaction. */
export function prepareMemoryImportQueries(db: Db) {
  const c = db.$client;
  return {
    insertImport: c.prepare<{ id: number }, [string, number, string, string, string, string, string, number]>(
      `INSERT INTO memory_imports (public_id, project_id, name, source_language, by_kind, by_public_id, by_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ),
    insertUnit: c.prepare<{ id: number }, [number, number, string | null, string]>("INSERT INTO memory_units (import_id, project_id, tuid, source) VALUES (?, ?, ?, ?) RETURNING id"),
    insertTarget: c.prepare<unknown, [number, string, string]>("INSERT OR IGNORE INTO memory_targets (unit_id, language_code, text) VALUES (?, ?, ?)"),
    setUnits: c.prepare<unknown, [number, number]>("UPDATE memory_imports SET units = ? WHERE id = ?"),
    deleteImport: c.prepare<unknown, [number]>("DELETE FROM memory_imports WHERE id = ?"),
    languages: c.prepare<{ code: string }, [number]>("SELECT code FROM languages WHERE project_id = ?"),
  };
}

/** Reading a project's memory for a TMX export (on a worker thread's connection). */
export function prepareMemoryExportQueries(db: Db) {
  const c = db.$client;
  return {
    /** The project's keys with a value in both languages, in key order. */
    pairs: c.prepare<{ tuid: string; source: string; target: string }, [number, number, number]>(
      `SELECT k.key AS tuid, b.value AS source, t.value AS target FROM translation_keys k
       JOIN translations b ON b.key_id = k.id AND b.language_id = ?2
       JOIN translations t ON t.key_id = k.id AND t.language_id = ?3
       WHERE k.project_id = ?1 ORDER BY k.key`,
    ),
    /** The memories imported into the project, their units into one language, in the order imported. */
    imported: c.prepare<{ tuid: string | null; source: string; target: string }, [number, string]>(
      `SELECT u.tuid AS tuid, u.source AS source, t.text AS target FROM memory_units u JOIN memory_targets t ON t.unit_id = u.id AND t.language_code = ?2
       WHERE u.project_id = ?1 ORDER BY u.id`,
    ),
    language: c.prepare<{ id: number; code: string }, [number, string]>("SELECT id, code FROM languages WHERE project_id = ? AND code = ? COLLATE NOCASE"),
  };
}

/** Pre-translation's statements (on the job's own connection). */
export function preparePretranslateQueries(db: Db) {
  const c = db.$client;
  return {
    /** The project's keys to translate with no value in `?2` and a base value (in `?3`), in key order. */
    missing: c.prepare<{ id: number; key: string; base: string }, [number, number, number, number]>(
      `SELECT k.id AS id, k.key AS key, b.value AS base FROM translation_keys k
       JOIN translations b ON b.key_id = k.id AND b.language_id = ?3
       WHERE k.project_id = ?1 AND k.translatable = 1 AND trim(b.value) != ''
         AND NOT EXISTS (SELECT 1 FROM translations t WHERE t.key_id = k.id AND t.language_id = ?2)
       ORDER BY k.key LIMIT ?4`,
    ),
    /** Every stored pair of a base value and its translation into `?1`, for exact matches. */
    keyPairs: c.prepare<{ source: string; target: string; projectId: number; syntax: MessageSyntax; baseCode: string; keyId: string; key: string; projectPublicId: string; projectName: string; code: string }, [string]>(
      `SELECT t.value AS source, tt.value AS target, p.id AS projectId, p.message_syntax AS syntax, p.base_language_code AS baseCode,
              k.public_id AS keyId, k.key AS key, p.public_id AS projectPublicId, p.name AS projectName, tl.code AS code
       FROM projects p
       JOIN languages bl ON bl.project_id = p.id AND bl.code = p.base_language_code
       JOIN languages tl ON tl.project_id = p.id AND tl.code = ?1 COLLATE NOCASE
       JOIN translations t ON t.language_id = bl.id
       JOIN translations tt ON tt.key_id = t.key_id AND tt.language_id = tl.id
       JOIN translation_keys k ON k.id = t.key_id`,
    ),
    unitPairs: c.prepare<{ source: string; target: string; projectId: number; syntax: MessageSyntax; baseCode: string; importId: string; importName: string; projectPublicId: string; projectName: string; code: string }, [string]>(
      `SELECT u.source AS source, mt.text AS target, p.id AS projectId, p.message_syntax AS syntax, p.base_language_code AS baseCode,
              i.public_id AS importId, i.name AS importName, p.public_id AS projectPublicId, p.name AS projectName, mt.language_code AS code
       FROM memory_targets mt JOIN memory_units u ON u.id = mt.unit_id JOIN memory_imports i ON i.id = u.import_id JOIN projects p ON p.id = u.project_id
       WHERE mt.language_code = ?1 COLLATE NOCASE`,
    ),
    exists: c.prepare<{ one: number }, [number, number]>("SELECT 1 AS one FROM translations WHERE key_id = ? AND language_id = ?"),
    insertValue: c.prepare<unknown, [number, number, string, number, number]>(
      `INSERT INTO translations (key_id, language_id, value, status, updated_at, problems, error_count, warning_count, checked_at)
       VALUES (?1, ?2, ?3, 'translated', ?4, '[]', 0, 0, ?5)`,
    ),
    insertHistory: c.prepare<unknown, [number, number, string, string, string, string, string, number]>(
      `INSERT INTO translation_history (key_id, language_id, value, previous_value, status, by_kind, by_public_id, by_name, via, at)
       VALUES (?, ?, ?, NULL, 'translated', ?, ?, ?, ?, ?)`,
    ),
  };
}
