import type { Database } from "bun:sqlite";
import { log } from "../common/log.ts";

/**
 * What SQLite keeps beside `translations` so that a project of 5 million values answers its
 * reads in milliseconds (docs/architecture.md "Counts kept"): the per-language counts of
 * `language_counts` and the trigram index of the values, `translation_search`. Both are kept by
 * triggers, so every write path (a save, an approval, an import on a worker thread, the message
 * checks, a key or a language deleted through the foreign keys' cascades) keeps them exact in its
 * own transaction, and none of them can forget to.
 *
 * drizzle-kit writes neither triggers nor virtual tables, so they are made here, after the
 * migrations, whenever one is missing: on a new database, after an upgrade, and after a migration
 * that rebuilt `translations` (a rebuild drops its triggers). Making one means building its data
 * again from `translations`, in the same transaction, so the counts and the index never disagree
 * with the values.
 */

const COUNT_TRIGGERS = {
  language_counts_insert: `CREATE TRIGGER language_counts_insert AFTER INSERT ON translations BEGIN
    INSERT INTO language_counts (language_id, value_count, approved_count, problem_value_count, error_count, warning_count)
    VALUES (NEW.language_id, 1, NEW.status = 'approved', NEW.error_count > 0 OR NEW.warning_count > 0, NEW.error_count, NEW.warning_count)
    ON CONFLICT (language_id) DO UPDATE SET
      value_count = value_count + 1,
      approved_count = approved_count + excluded.approved_count,
      problem_value_count = problem_value_count + excluded.problem_value_count,
      error_count = error_count + excluded.error_count,
      warning_count = warning_count + excluded.warning_count;
  END`,
  // An UPDATE only: when a language is deleted its row of language_counts goes by the cascade,
  // perhaps before its values, and nothing may bring it back.
  language_counts_delete: `CREATE TRIGGER language_counts_delete AFTER DELETE ON translations BEGIN
    UPDATE language_counts SET
      value_count = value_count - 1,
      approved_count = approved_count - (OLD.status = 'approved'),
      problem_value_count = problem_value_count - (OLD.error_count > 0 OR OLD.warning_count > 0),
      error_count = error_count - OLD.error_count,
      warning_count = warning_count - OLD.warning_count
    WHERE language_id = OLD.language_id;
  END`,
  language_counts_update: `CREATE TRIGGER language_counts_update AFTER UPDATE OF status, error_count, warning_count ON translations
  WHEN OLD.status IS NOT NEW.status OR OLD.error_count IS NOT NEW.error_count OR OLD.warning_count IS NOT NEW.warning_count BEGIN
    UPDATE language_counts SET
      approved_count = approved_count - (OLD.status = 'approved') + (NEW.status = 'approved'),
      problem_value_count = problem_value_count - (OLD.error_count > 0 OR OLD.warning_count > 0) + (NEW.error_count > 0 OR NEW.warning_count > 0),
      error_count = error_count - OLD.error_count + NEW.error_count,
      warning_count = warning_count - OLD.warning_count + NEW.warning_count
    WHERE language_id = NEW.language_id;
  END`,
};

const FILL_COUNTS = `INSERT INTO language_counts (language_id, value_count, approved_count, problem_value_count, error_count, warning_count)
  SELECT language_id, count(*), sum(status = 'approved'), sum(error_count > 0 OR warning_count > 0), sum(error_count), sum(warning_count)
  FROM translations GROUP BY language_id`;

/**
 * The values' trigram index: FTS5's trigram tokenizer (case folded), indexing only which values
 * hold each trigram (`detail=none`, a third of the size of positions), over the values of
 * `translations` by rowid without a copy of them (`content=`). A search reads the values holding
 * every trigram of its term, then compares each with the term exactly (authoring/queries.ts
 * `valuesMatching`). SQLite keeps a rowid table's rowids through VACUUM and VACUUM INTO (the backup),
 * and the value writes are plain INSERT, UPDATE and DELETE (an UPSERT keeps the row), so the index
 * always points at the values it was made from.
 */
/** The trigram index's table, for the search that reads it (authoring/queries.ts `valuesMatching`). */
export const TRANSLATION_SEARCH = "translation_search";

const SEARCH_TABLE = `CREATE VIRTUAL TABLE ${TRANSLATION_SEARCH} USING fts5(value, content='translations', content_rowid='rowid', tokenize='trigram', detail='none')`;

const SEARCH_TRIGGERS = {
  translation_search_insert: `CREATE TRIGGER translation_search_insert AFTER INSERT ON translations BEGIN
    INSERT INTO ${TRANSLATION_SEARCH} (rowid, value) VALUES (NEW.rowid, NEW.value);
  END`,
  translation_search_delete: `CREATE TRIGGER translation_search_delete AFTER DELETE ON translations BEGIN
    INSERT INTO ${TRANSLATION_SEARCH} (${TRANSLATION_SEARCH}, rowid, value) VALUES ('delete', OLD.rowid, OLD.value);
  END`,
  translation_search_update: `CREATE TRIGGER translation_search_update AFTER UPDATE OF value ON translations WHEN OLD.value IS NOT NEW.value BEGIN
    INSERT INTO ${TRANSLATION_SEARCH} (${TRANSLATION_SEARCH}, rowid, value) VALUES ('delete', OLD.rowid, OLD.value);
    INSERT INTO ${TRANSLATION_SEARCH} (rowid, value) VALUES (NEW.rowid, NEW.value);
  END`,
};

/**
 * The translation memory's index of source strings (docs/translators.md "Translation memory"):
 * every base-language value of every project (by the value's rowid) and every imported memory
 * unit's source (by its id, negated), each between STX and ETX so that a string of one or two
 * characters has a trigram and a string's start and end count. Trigrams, case folded, without
 * positions or a copy of the text (`content=''`). A row is taken out with FTS5's 'delete' command
 * and the text it was put in with (the old value, which a trigger has): deleting by rowid from a
 * `contentless_delete` table cost 0.16 ms a row and tripled the time of a push of 100,000 changed
 * base strings (bench/RESULTS.md "Closing check of the round of 2026-11-28"). `memory_indexed`
 * names the rows the index holds, so a value deleted with its language (a cascade, where whether
 * it was a base value can no longer be read) is taken out exactly when it was put in.
 * Suggestions read the postings of a string's rarer trigrams and score what they find exactly
 * (src/memory/search.ts); bench/RESULTS.md "Translation memory" has the figures.
 */
/** The memory's index and its short strings, for the statements that read them (memory/queries.ts). */
export const MEMORY_SEARCH = "memory_search";
export const MEMORY_SHORT = "memory_short";

const MEMORY_TABLE = `CREATE VIRTUAL TABLE memory_search USING fts5(text, content='', tokenize='trigram', detail='none')`;
const MEMORY_INDEXED = "memory_indexed";
const INDEXED_TABLE = `CREATE TABLE ${MEMORY_INDEXED} (id INTEGER PRIMARY KEY)`;

/** Whether the value of `row`'s language is its project's base language. */
const isBase = (row: "NEW" | "OLD") =>
  `(SELECT l.code = p.base_language_code FROM languages l JOIN projects p ON p.id = l.project_id WHERE l.id = ${row}.language_id)`;
const marked = (value: string) => `char(2) || ${value} || char(3)`;
/** Puts a row in the index, or takes it out with the text it was put in with (only when it is there). */
const indexPut = (id: string, text: string) => `INSERT INTO memory_search (rowid, text) VALUES (${id}, ${marked(text)});
    INSERT OR IGNORE INTO ${MEMORY_INDEXED} (id) VALUES (${id});`;
const indexTake = (id: string, text: string) => `INSERT INTO memory_search (memory_search, rowid, text) SELECT 'delete', ${id}, ${marked(text)} WHERE EXISTS (SELECT 1 FROM ${MEMORY_INDEXED} WHERE id = ${id});
    DELETE FROM ${MEMORY_INDEXED} WHERE id = ${id};`;

/**
 * The memory's short strings, beside its index (src/memory/short.ts): every source string of at
 * most SHORT_STORED_MAX code points, by length. A string of a few characters has too few trigrams to
 * be found by them (`A the` and `A the.` share one), so a short one is compared with every stored
 * string of a length it could match instead: a range of this table's clustered key.
 */
const SHORT_STORED_MAX = 20;
const SHORT_TABLE = `CREATE TABLE memory_short (len INTEGER NOT NULL, id INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (len, id)) WITHOUT ROWID`;
const shortInsert = (id: string, value: string) =>
  `INSERT OR REPLACE INTO memory_short (len, id, text) SELECT length(${value}), ${id}, ${value} WHERE length(${value}) <= ${SHORT_STORED_MAX};`;
const shortDelete = (id: string, value: string) => `DELETE FROM memory_short WHERE len = length(${value}) AND id = ${id};`;

const MEMORY_TRIGGERS = {
  memory_search_insert: `CREATE TRIGGER memory_search_insert AFTER INSERT ON translations WHEN ${isBase("NEW")} BEGIN
    ${indexPut("NEW.rowid", "NEW.value")}
    ${shortInsert("NEW.rowid", "NEW.value")}
  END`,
  memory_search_update: `CREATE TRIGGER memory_search_update AFTER UPDATE OF value ON translations WHEN OLD.value IS NOT NEW.value AND ${isBase("NEW")} BEGIN
    ${indexTake("OLD.rowid", "OLD.value")}
    ${indexPut("NEW.rowid", "NEW.value")}
    ${shortDelete("OLD.rowid", "OLD.value")}
    ${shortInsert("NEW.rowid", "NEW.value")}
  END`,
  // A cascade (a language or project deleted) removes the parent row first: what the index holds
  // says whether the value is in it.
  memory_search_delete: `CREATE TRIGGER memory_search_delete AFTER DELETE ON translations WHEN EXISTS (SELECT 1 FROM ${MEMORY_INDEXED} WHERE id = OLD.rowid) BEGIN
    ${indexTake("OLD.rowid", "OLD.value")}
    ${shortDelete("OLD.rowid", "OLD.value")}
  END`,
  memory_search_base: `CREATE TRIGGER memory_search_base AFTER UPDATE OF base_language_code ON projects WHEN OLD.base_language_code IS NOT NEW.base_language_code BEGIN
    INSERT INTO memory_search (memory_search, rowid, text) SELECT 'delete', t.rowid, ${marked("t.value")} FROM translations t JOIN languages l ON l.id = t.language_id
      WHERE l.project_id = NEW.id AND l.code = OLD.base_language_code AND t.rowid IN (SELECT id FROM ${MEMORY_INDEXED});
    DELETE FROM ${MEMORY_INDEXED} WHERE id IN (SELECT t.rowid FROM translations t JOIN languages l ON l.id = t.language_id WHERE l.project_id = NEW.id AND l.code = OLD.base_language_code);
    DELETE FROM memory_short WHERE (len, id) IN (SELECT length(t.value), t.rowid FROM translations t JOIN languages l ON l.id = t.language_id WHERE l.project_id = NEW.id AND l.code = OLD.base_language_code);
    INSERT INTO memory_search (rowid, text) SELECT t.rowid, ${marked("t.value")} FROM translations t JOIN languages l ON l.id = t.language_id WHERE l.project_id = NEW.id AND l.code = NEW.base_language_code;
    INSERT OR IGNORE INTO ${MEMORY_INDEXED} (id) SELECT t.rowid FROM translations t JOIN languages l ON l.id = t.language_id WHERE l.project_id = NEW.id AND l.code = NEW.base_language_code;
    INSERT OR REPLACE INTO memory_short (len, id, text) SELECT length(t.value), t.rowid, t.value FROM translations t JOIN languages l ON l.id = t.language_id
      WHERE l.project_id = NEW.id AND l.code = NEW.base_language_code AND length(t.value) <= ${SHORT_STORED_MAX};
  END`,
  memory_search_unit_insert: `CREATE TRIGGER memory_search_unit_insert AFTER INSERT ON memory_units BEGIN
    ${indexPut("-NEW.id", "NEW.source")}
    ${shortInsert("-NEW.id", "NEW.source")}
  END`,
  memory_search_unit_delete: `CREATE TRIGGER memory_search_unit_delete AFTER DELETE ON memory_units BEGIN
    ${indexTake("-OLD.id", "OLD.source")}
    ${shortDelete("-OLD.id", "OLD.source")}
  END`,
};

const FILL_MEMORY = [
  `INSERT INTO memory_search (rowid, text) SELECT t.rowid, ${marked("t.value")} FROM translations t JOIN languages l ON l.id = t.language_id JOIN projects p ON p.id = l.project_id WHERE l.code = p.base_language_code`,
  `INSERT INTO memory_search (rowid, text) SELECT -id, ${marked("source")} FROM memory_units`,
  `INSERT INTO ${MEMORY_INDEXED} (id) SELECT t.rowid FROM translations t JOIN languages l ON l.id = t.language_id JOIN projects p ON p.id = l.project_id WHERE l.code = p.base_language_code`,
  `INSERT INTO ${MEMORY_INDEXED} (id) SELECT -id FROM memory_units`,
  `INSERT INTO memory_short (len, id, text) SELECT length(t.value), t.rowid, t.value FROM translations t JOIN languages l ON l.id = t.language_id JOIN projects p ON p.id = l.project_id
   WHERE l.code = p.base_language_code AND length(t.value) <= ${SHORT_STORED_MAX}`,
  `INSERT INTO memory_short (len, id, text) SELECT length(source), -id, source FROM memory_units WHERE length(source) <= ${SHORT_STORED_MAX}`,
];

/** Makes whatever of the kept data is missing, with its data; a no-op when all is there. Returns what it made. */
export function ensureDerived(sqlite: Database): string[] {
  const present = new Set(sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type IN ('trigger', 'table')").all().map((r) => r.name));
  // Before the migration that makes language_counts (a test may apply only the older ones), there is nothing to keep.
  const countsMissing = present.has("language_counts") && Object.keys(COUNT_TRIGGERS).some((name) => !present.has(name));
  const searchMissing = !present.has(TRANSLATION_SEARCH) || Object.keys(SEARCH_TRIGGERS).some((name) => !present.has(name));
  // Before the migration that makes memory_units there is no memory to index.
  const memoryMissing =
    present.has("memory_units") &&
    (!present.has(MEMORY_SEARCH) || !present.has(MEMORY_SHORT) || !present.has(MEMORY_INDEXED) || Object.keys(MEMORY_TRIGGERS).some((name) => !present.has(name)));
  const made: string[] = [];
  if (!countsMissing && !searchMissing && !memoryMissing) return made;
  sqlite.transaction(() => {
    if (countsMissing) {
      for (const name of Object.keys(COUNT_TRIGGERS)) sqlite.run(`DROP TRIGGER IF EXISTS ${name}`);
      sqlite.run("DELETE FROM language_counts");
      sqlite.run(FILL_COUNTS);
      for (const statement of Object.values(COUNT_TRIGGERS)) sqlite.run(statement);
      made.push("language_counts");
    }
    if (searchMissing) {
      for (const name of Object.keys(SEARCH_TRIGGERS)) sqlite.run(`DROP TRIGGER IF EXISTS ${name}`);
      sqlite.run(`DROP TABLE IF EXISTS ${TRANSLATION_SEARCH}`);
      sqlite.run(SEARCH_TABLE);
      sqlite.run(`INSERT INTO ${TRANSLATION_SEARCH} (${TRANSLATION_SEARCH}) VALUES ('rebuild')`);
      for (const statement of Object.values(SEARCH_TRIGGERS)) sqlite.run(statement);
      made.push(TRANSLATION_SEARCH);
    }
    if (memoryMissing) {
      for (const name of Object.keys(MEMORY_TRIGGERS)) sqlite.run(`DROP TRIGGER IF EXISTS ${name}`);
      sqlite.run("DROP TABLE IF EXISTS memory_search");
      sqlite.run("DROP TABLE IF EXISTS memory_short");
      sqlite.run(`DROP TABLE IF EXISTS ${MEMORY_INDEXED}`);
      sqlite.run(MEMORY_TABLE);
      sqlite.run(SHORT_TABLE);
      sqlite.run(INDEXED_TABLE);
      for (const statement of FILL_MEMORY) sqlite.run(statement);
      for (const statement of Object.values(MEMORY_TRIGGERS)) sqlite.run(statement);
      made.push("memory_search");
    }
  })();
  if (sqlite.query("SELECT 1 FROM translations LIMIT 1").get()) log.info("storage: built the kept counts and search index from the values", { made });
  return made;
}
