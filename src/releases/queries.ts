import type { Db } from "../storage/db.ts";
import { named, selected, type RowOf, type Stored } from "../storage/names.ts";
import { languages, projects, translationHistory, translationKeys, translations } from "../storage/schema.ts";

const p = named(projects);
const k = named(translationKeys);
const l = named(languages);
const tr = named(translations);
const th = named(translationHistory);
// The approved values' statement: the value `t`, the newest approval `last`, its entry `h`.
const t = named(translations, "t");
const h = named(translationHistory, "h");

type Project = Stored<typeof projects>;
type Value = Stored<typeof translations>;
const key = selected(k, "id", "publicId", "key", "context", "arbMetadata", "translatable");
const language = selected(l, "id", "code", "name");

/**
 * Reads of a whole project at publish time: every key, every language and every value, as plain
 * rows in one synchronous pass (docs/architecture.md "Reaching SQLite"). Prepared per publish.
 */
export function prepareSnapshotQueries(db: Db) {
  const sqlite = db.$client;
  return {
    project: sqlite.query<
      { base: Project["baseLanguageCode"]; syntax: Project["messageSyntax"]; arbAttributes: Project["arbAttributes"]; approvedOnly: Project["publishApprovedOnly"] },
      [number]
    >(
      `SELECT ${p.baseLanguageCode} AS base, ${p.messageSyntax} AS syntax, ${p.arbAttributes} AS arbAttributes, ${p.publishApprovedOnly} AS approvedOnly FROM ${p} WHERE ${p.id} = ?`,
    ),
    keys: sqlite.query<RowOf<typeof key>, [number]>(`SELECT ${key} FROM ${k} WHERE ${k.projectId} = ?`),
    keyCount: sqlite.query<{ n: number }, [number]>(`SELECT count(*) AS n FROM ${k} WHERE ${k.projectId} = ?`),
    languages: sqlite.query<RowOf<typeof language>, [number]>(`SELECT ${language} FROM ${l} WHERE ${l.projectId} = ? ORDER BY ${l.code}`),
    values: sqlite.query<[Value["keyId"], Value["value"]], [number]>(`SELECT ${tr.keyId}, ${tr.value} FROM ${tr} WHERE ${tr.languageId} = ?`),
    // docs/releases.md "Reviewed strings only": the value as it is when approved, else the value of
    // the newest approval in its history (an edit after an approval ships the approved one); a value
    // never approved is left out, like a missing translation. The language's approvals are read in
    // one pass of translation_history_approved_idx: a history walk per value took about 1 s per
    // language at 100,000 keys x 10 languages, and grows with the languages (bench/RESULTS.md).
    approvedValues: sqlite.query<[Value["keyId"], Value["value"]], [number]>(
      `SELECT ${tr.keyId}, ${tr.value} FROM ${tr} WHERE ${tr.languageId} = ?1 AND ${tr.status} = 'approved'
       UNION ALL
       SELECT ${t.keyId}, ${h.value}
       FROM (SELECT ${th.keyId} AS keyId, max(${th.id}) AS id FROM ${th} WHERE ${th.languageId} = ?1 AND ${th.status} = 'approved' GROUP BY ${th.keyId}) last
       JOIN ${t} ON ${t.keyId} = last.keyId AND ${t.languageId} = ?1 AND ${t.status} <> 'approved'
       JOIN ${h} ON ${h.id} = last.id`,
    ),
  };
}

const PROJECT_VALUE_COUNT = `SELECT (SELECT count(*) FROM ${k} WHERE ${k.projectId} = ?1) * (SELECT count(*) FROM ${l} WHERE ${l.projectId} = ?1) AS n`;

/** The values a project can hold, its keys times its languages: the size of a publish (publish.ts `compilingThreads`). */
export function projectValueCount(db: Db, projectId: number): number {
  return db.$client.query<{ n: number }, [number]>(PROJECT_VALUE_COUNT).get(projectId)?.n ?? 0;
}
