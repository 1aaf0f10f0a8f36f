import type { Db } from "../storage/db.ts";
import { MEMORY_SEARCH, MEMORY_SHORT } from "../storage/derived.ts";
import { named } from "../storage/names.ts";
import { languages, memoryImports, memoryTargets, memoryUnits, projects, translationHistory, translationKeys, translations } from "../storage/schema.ts";
import type { MessageSyntax } from "../messages/read-types.ts";

/**
 * The translation memory's statements (docs/architecture.md "Reaching SQLite"): the postings of
 * its trigram index (`memory_search`, src/storage/derived.ts), its short strings, the candidates
 * they find with what a suggestion shows of them; the writes of an import and of a
 * pre-translation; the reads of an export. Tables and columns are named through the schema.
 */
const t = named(translations, "t");
const tt = named(translations, "tt");
const tr = named(translations);
const k = named(translationKeys, "k");
const p = named(projects, "p");
const bl = named(languages, "bl");
const tl = named(languages, "tl");
const l = named(languages);
const u = named(memoryUnits, "u");
const mu = named(memoryUnits);
const i = named(memoryImports, "i");
const mi = named(memoryImports);
const mt = named(memoryTargets, "mt");
const mtt = named(memoryTargets);
const th = named(translationHistory);

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

const KEY_CANDIDATE = `t.rowid AS id, ${t.value} AS source, ${k.id} AS keyRowId, ${k.publicId} AS keyId, ${k.key} AS key, ${p.id} AS projectId,
  ${p.publicId} AS projectPublicId, ${p.name} AS projectName, ${p.messageSyntax} AS syntax, ${p.baseLanguageCode} AS baseCode, ${tl.code} AS code, ${tt.value} AS target`;
const UNIT_CANDIDATE = `${u.id} AS id, ${u.source} AS source, ${u.tuid} AS tuid, ${i.publicId} AS importId, ${i.name} AS importName, ${p.id} AS projectId,
  ${p.publicId} AS projectPublicId, ${p.name} AS projectName, ${p.messageSyntax} AS syntax, ${p.baseLanguageCode} AS baseCode, ${mt.languageCode} AS code, ${mt.text} AS target`;

export function prepareMemoryQueries(db: Db) {
  const c = db.$client;
  return {
    /** The rowids holding one trigram (a query of one quoted phrase of three characters). */
    postings: c.query<{ rowid: number }, [string]>(`SELECT rowid FROM ${MEMORY_SEARCH} WHERE ${MEMORY_SEARCH} MATCH ?`),
    /** How many rows hold a trigram, counted up to a cap (a common one is not read past it). */
    cappedCount: c.query<{ n: number }, [string, number]>(`SELECT count(*) AS n FROM (SELECT 1 FROM ${MEMORY_SEARCH} WHERE ${MEMORY_SEARCH} MATCH ? LIMIT ?)`),
    /** The short source strings of lengths `?1` to `?2` (src/storage/derived.ts `memory_short`), by their index ids. */
    shortOfLengths: c.query<{ id: number; text: string }, [number, number]>(`SELECT id, text FROM ${MEMORY_SHORT} WHERE len BETWEEN ? AND ?`),
    /** The text and syntax of the base values among `?1` (a JSON list of rowids): what a candidate is scored by. */
    keySources: c.query<{ id: number; source: string; syntax: MessageSyntax }, [string]>(
      `SELECT t.rowid AS id, ${t.value} AS source, ${p.messageSyntax} AS syntax FROM json_each(?1) j
       CROSS JOIN ${t} ON t.rowid = j.value JOIN ${k} ON ${k.id} = ${t.keyId} JOIN ${p} ON ${p.id} = ${k.projectId}`,
    ),
    /** The same of imported units among `?1` (unit ids). */
    unitSources: c.query<{ id: number; source: string; syntax: MessageSyntax }, [string]>(
      `SELECT ${u.id} AS id, ${u.source} AS source, ${p.messageSyntax} AS syntax FROM json_each(?1) j CROSS JOIN ${u} ON ${u.id} = j.value JOIN ${p} ON ${p.id} = ${u.projectId}`,
    ),
    /** Base values among `?1` (a JSON list of rowids) with a translation into `?2` (any letter case), but key `?3`'s. */
    keyCandidates: c.query<KeyCandidate, [string, string, number]>(
      `SELECT ${KEY_CANDIDATE}
       FROM json_each(?1) j
       CROSS JOIN ${t} ON t.rowid = j.value
       JOIN ${bl} ON ${bl.id} = ${t.languageId}
       JOIN ${k} ON ${k.id} = ${t.keyId}
       JOIN ${p} ON ${p.id} = ${k.projectId} AND ${p.baseLanguageCode} = ${bl.code}
       JOIN ${tl} ON ${tl.projectId} = ${p.id} AND ${tl.code} = ?2 COLLATE NOCASE
       JOIN ${tt} ON ${tt.keyId} = ${k.id} AND ${tt.languageId} = ${tl.id}
       WHERE ${k.id} != ?3`,
    ),
    /** Imported units among `?1` (a JSON list of unit ids) with a translation into `?2`. */
    unitCandidates: c.query<UnitCandidate, [string, string]>(
      `SELECT ${UNIT_CANDIDATE}
       FROM json_each(?1) j
       CROSS JOIN ${u} ON ${u.id} = j.value
       JOIN ${i} ON ${i.id} = ${u.importId}
       JOIN ${p} ON ${p.id} = ${u.projectId}
       JOIN ${mt} ON ${mt.unitId} = ${u.id} AND ${mt.languageCode} = ?2 COLLATE NOCASE`,
    ),
  };
}

export type MemoryQueries = ReturnType<typeof prepareMemoryQueries>;

/** Writing an imported memory: on the import's own connection, a chunk of units per transaction. */
export function prepareMemoryImportQueries(db: Db) {
  const c = db.$client;
  return {
    insertImport: c.prepare<{ id: number; publicId: string }, [string, number, string, string, string, string, string, number]>(
      `INSERT INTO ${mi} (${mi.publicId}, ${mi.projectId}, ${mi.name}, ${mi.sourceLanguage}, ${mi.byKind}, ${mi.byPublicId}, ${mi.byName}, ${mi.createdAt})
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${mi.id} AS id, ${mi.publicId} AS publicId`,
    ),
    insertUnit: c.prepare<{ id: number }, [number, number, string | null, string]>(
      `INSERT INTO ${mu} (${mu.importId}, ${mu.projectId}, ${mu.tuid}, ${mu.source}) VALUES (?, ?, ?, ?) RETURNING ${mu.id} AS id`,
    ),
    insertTarget: c.prepare<unknown, [number, string, string]>(`INSERT OR IGNORE INTO ${mtt} (${mtt.unitId}, ${mtt.languageCode}, ${mtt.text}) VALUES (?, ?, ?)`),
    setUnits: c.prepare<unknown, [number, number]>(`UPDATE ${mi} SET ${mi.units} = ? WHERE ${mi.id} = ?`),
    deleteImport: c.prepare<unknown, [number]>(`DELETE FROM ${mi} WHERE ${mi.id} = ?`),
    languages: c.prepare<{ code: string }, [number]>(`SELECT ${l.code} AS code FROM ${l} WHERE ${l.projectId} = ?`),
  };
}

/** Reading a project's memory for a TMX export (on a worker thread's connection). */
export function prepareMemoryExportQueries(db: Db) {
  const c = db.$client;
  const b = named(translations, "b");
  return {
    /** The project's keys with a value in both languages, in key order. */
    pairs: c.prepare<{ tuid: string; source: string; target: string }, [number, number, number]>(
      `SELECT ${k.key} AS tuid, ${b.value} AS source, ${t.value} AS target FROM ${k}
       JOIN ${b} ON ${b.keyId} = ${k.id} AND ${b.languageId} = ?2
       JOIN ${t} ON ${t.keyId} = ${k.id} AND ${t.languageId} = ?3
       WHERE ${k.projectId} = ?1 ORDER BY ${k.key}`,
    ),
    /** The memories imported into the project, their units into one language, in the order imported. */
    imported: c.prepare<{ tuid: string | null; source: string; target: string }, [number, string]>(
      `SELECT ${u.tuid} AS tuid, ${u.source} AS source, ${mt.text} AS target FROM ${u} JOIN ${mt} ON ${mt.unitId} = ${u.id} AND ${mt.languageCode} = ?2
       WHERE ${u.projectId} = ?1 ORDER BY ${u.id}`,
    ),
    language: c.prepare<{ id: number; code: string }, [number, string]>(`SELECT ${l.id} AS id, ${l.code} AS code FROM ${l} WHERE ${l.projectId} = ? AND ${l.code} = ? COLLATE NOCASE`),
  };
}

/** Pre-translation's statements (on the job's own connection). */
export function preparePretranslateQueries(db: Db) {
  const c = db.$client;
  const b = named(translations, "b");
  const x = named(translations, "x");
  return {
    /** The id of the project's base language. */
    baseLanguage: c.query<{ id: number }, [number, string]>(`SELECT ${l.id} AS id FROM ${l} WHERE ${l.projectId} = ? AND ${l.code} = ?`),
    /** The project's keys to translate with no value in `?2` and a base value (in `?3`), in key order. */
    missing: c.prepare<{ id: number; key: string; base: string }, [number, number, number, number]>(
      `SELECT ${k.id} AS id, ${k.key} AS key, ${b.value} AS base FROM ${k}
       JOIN ${b} ON ${b.keyId} = ${k.id} AND ${b.languageId} = ?3
       WHERE ${k.projectId} = ?1 AND ${k.translatable} = 1 AND trim(${b.value}) != ''
         AND NOT EXISTS (SELECT 1 FROM ${x} WHERE ${x.keyId} = ${k.id} AND ${x.languageId} = ?2)
       ORDER BY ${k.key} LIMIT ?4`,
    ),
    /** Every stored pair of a base value and its translation into `?1`, for exact matches. */
    keyPairs: c.prepare<{ source: string; target: string; projectId: number; syntax: MessageSyntax; baseCode: string }, [string]>(
      `SELECT ${t.value} AS source, ${tt.value} AS target, ${p.id} AS projectId, ${p.messageSyntax} AS syntax, ${p.baseLanguageCode} AS baseCode
       FROM ${p}
       JOIN ${bl} ON ${bl.projectId} = ${p.id} AND ${bl.code} = ${p.baseLanguageCode}
       JOIN ${tl} ON ${tl.projectId} = ${p.id} AND ${tl.code} = ?1 COLLATE NOCASE
       JOIN ${t} ON ${t.languageId} = ${bl.id}
       JOIN ${tt} ON ${tt.keyId} = ${t.keyId} AND ${tt.languageId} = ${tl.id}`,
    ),
    /** The same of the imported memories' units. */
    unitPairs: c.prepare<{ source: string; target: string; projectId: number; syntax: MessageSyntax; baseCode: string }, [string]>(
      `SELECT ${u.source} AS source, ${mt.text} AS target, ${p.id} AS projectId, ${p.messageSyntax} AS syntax, ${p.baseLanguageCode} AS baseCode
       FROM ${mt} JOIN ${u} ON ${u.id} = ${mt.unitId} JOIN ${p} ON ${p.id} = ${u.projectId}
       WHERE ${mt.languageCode} = ?1 COLLATE NOCASE`,
    ),
    exists: c.prepare<{ one: number }, [number, number]>(`SELECT 1 AS one FROM ${tr} WHERE ${tr.keyId} = ? AND ${tr.languageId} = ?`),
    insertValue: c.prepare<unknown, [number, number, string, number, number]>(
      `INSERT INTO ${tr} (${tr.keyId}, ${tr.languageId}, ${tr.value}, ${tr.status}, ${tr.updatedAt}, ${tr.problems}, ${tr.errorCount}, ${tr.warningCount}, ${tr.checkedAt})
       VALUES (?1, ?2, ?3, 'translated', ?4, '[]', 0, 0, ?5)`,
    ),
    insertHistory: c.prepare<unknown, [number, number, string, string, string, string, string, number]>(
      `INSERT INTO ${th} (${th.keyId}, ${th.languageId}, ${th.value}, ${th.previousValue}, ${th.status}, ${th.byKind}, ${th.byPublicId}, ${th.byName}, ${th.via}, ${th.at})
       VALUES (?, ?, ?, NULL, 'translated', ?, ?, ?, ?, ?)`,
    ),
  };
}
