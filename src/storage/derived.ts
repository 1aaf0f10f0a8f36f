import type { Database, Statement } from "bun:sqlite";
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
 * positions or a copy of the text (`content=''`); `memory_indexed` keeps the text each row went in
 * with, which FTS5's 'delete' command needs to take it out again.
 *
 * The index is brought up to date after the write, not in it: a trigger only names the row in
 * `memory_pending`, and `refreshMemoryIndex` puts the row's text in (or takes it out) in chunks,
 * in the background and before a suggestion is made (src/memory/index-pass.ts). Indexing a string
 * costs its trigrams, about 35 µs; in the write it tripled the time of a push of 100,000 changed
 * base strings (bench/RESULTS.md "Closing check of the round of 2026-11-28"). Suggestions read the
 * postings of a string's rarer trigrams and score what they find exactly (src/memory/search.ts);
 * bench/RESULTS.md "Translation memory" has the figures.
 */
/** The memory's index and its short strings, for the statements that read them (memory/queries.ts). */
export const MEMORY_SEARCH = "memory_search";
export const MEMORY_SHORT = "memory_short";

const MEMORY_TABLE = `CREATE VIRTUAL TABLE memory_search USING fts5(text, content='', tokenize='trigram', detail='none')`;
const MEMORY_INDEXED = "memory_indexed";
const INDEXED_TABLE = `CREATE TABLE ${MEMORY_INDEXED} (id INTEGER PRIMARY KEY, text TEXT NOT NULL)`;
const MEMORY_PENDING = "memory_pending";
const PENDING_TABLE = `CREATE TABLE ${MEMORY_PENDING} (id INTEGER PRIMARY KEY)`;

/** Whether the value of `row`'s language is its project's base language. */
const isBase = (row: "NEW" | "OLD") =>
  `(SELECT l.code = p.base_language_code FROM languages l JOIN projects p ON p.id = l.project_id WHERE l.id = ${row}.language_id)`;
const marked = (value: string) => `char(2) || ${value} || char(3)`;
/**
 * Names a row whose place in the index may be out of date, once. (Not with OR IGNORE: in a trigger
 * the outer statement's conflict clause wins, and a save is an upsert.)
 */
const pendWhere = (id: string, also = "") => `INSERT INTO ${MEMORY_PENDING} (id) SELECT ${id} WHERE NOT EXISTS (SELECT 1 FROM ${MEMORY_PENDING} WHERE id = ${id})${also};`;
const pend = (id: string) => pendWhere(id);

/**
 * The memory's short strings, beside its index (src/memory/short.ts): every source string of at
 * most SHORT_STORED_MAX code points, by length. A string of a few characters has too few trigrams to
 * be found by them (`A the` and `A the.` share one), so a short one is compared with every stored
 * string of a length it could match instead: a range of this table's clustered key. Kept in the
 * write: a row of a B-tree costs little.
 */
const SHORT_STORED_MAX = 20;
const SHORT_TABLE = `CREATE TABLE memory_short (len INTEGER NOT NULL, id INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (len, id)) WITHOUT ROWID`;
const shortInsert = (id: string, value: string) =>
  `INSERT OR REPLACE INTO memory_short (len, id, text) SELECT length(${value}), ${id}, ${value} WHERE length(${value}) <= ${SHORT_STORED_MAX};`;
const shortDelete = (id: string, value: string) => `DELETE FROM memory_short WHERE len = length(${value}) AND id = ${id};`;

const MEMORY_TRIGGERS = {
  memory_search_insert: `CREATE TRIGGER memory_search_insert AFTER INSERT ON translations WHEN ${isBase("NEW")} BEGIN
    ${pend("NEW.rowid")}
    ${shortInsert("NEW.rowid", "NEW.value")}
  END`,
  memory_search_update: `CREATE TRIGGER memory_search_update AFTER UPDATE OF value ON translations WHEN OLD.value IS NOT NEW.value AND ${isBase("NEW")} BEGIN
    ${pend("NEW.rowid")}
    ${shortDelete("OLD.rowid", "OLD.value")}
    ${shortInsert("NEW.rowid", "NEW.value")}
  END`,
  // A cascade (a language or project deleted) removes the parent row first, so whether the value
  // was a base one cannot be read: what the index holds says whether it is in it.
  memory_search_delete: `CREATE TRIGGER memory_search_delete AFTER DELETE ON translations BEGIN
    ${pendWhere("OLD.rowid", ` AND EXISTS (SELECT 1 FROM ${MEMORY_INDEXED} WHERE id = OLD.rowid)`)}
    ${shortDelete("OLD.rowid", "OLD.value")}
  END`,
  memory_search_base: `CREATE TRIGGER memory_search_base AFTER UPDATE OF base_language_code ON projects WHEN OLD.base_language_code IS NOT NEW.base_language_code BEGIN
    INSERT INTO ${MEMORY_PENDING} (id) SELECT t.rowid FROM translations t JOIN languages l ON l.id = t.language_id
      WHERE l.project_id = NEW.id AND l.code IN (OLD.base_language_code, NEW.base_language_code) AND t.rowid NOT IN (SELECT id FROM ${MEMORY_PENDING});
    DELETE FROM memory_short WHERE (len, id) IN (SELECT length(t.value), t.rowid FROM translations t JOIN languages l ON l.id = t.language_id WHERE l.project_id = NEW.id AND l.code = OLD.base_language_code);
    INSERT OR REPLACE INTO memory_short (len, id, text) SELECT length(t.value), t.rowid, t.value FROM translations t JOIN languages l ON l.id = t.language_id
      WHERE l.project_id = NEW.id AND l.code = NEW.base_language_code AND length(t.value) <= ${SHORT_STORED_MAX};
  END`,
  memory_search_unit_insert: `CREATE TRIGGER memory_search_unit_insert AFTER INSERT ON memory_units BEGIN
    ${pend("-NEW.id")}
    ${shortInsert("-NEW.id", "NEW.source")}
  END`,
  memory_search_unit_delete: `CREATE TRIGGER memory_search_unit_delete AFTER DELETE ON memory_units BEGIN
    ${pend("-OLD.id")}
    ${shortDelete("-OLD.id", "OLD.source")}
  END`,
};

const BASE_VALUES = `FROM translations t JOIN languages l ON l.id = t.language_id JOIN projects p ON p.id = l.project_id WHERE l.code = p.base_language_code`;
const FILL_MEMORY = [
  `INSERT INTO ${MEMORY_INDEXED} (id, text) SELECT t.rowid, ${marked("t.value")} ${BASE_VALUES}`,
  `INSERT INTO ${MEMORY_INDEXED} (id, text) SELECT -id, ${marked("source")} FROM memory_units`,
  `INSERT INTO memory_search (rowid, text) SELECT id, text FROM ${MEMORY_INDEXED}`,
  `INSERT INTO memory_short (len, id, text) SELECT length(t.value), t.rowid, t.value ${BASE_VALUES} AND length(t.value) <= ${SHORT_STORED_MAX}`,
  `INSERT INTO memory_short (len, id, text) SELECT length(source), -id, source FROM memory_units WHERE length(source) <= ${SHORT_STORED_MAX}`,
];

interface RefreshStatements {
  pending: Statement<{ id: number }, [number]>;
  newest: Statement<{ id: number }, [number]>;
  baseValue: Statement<{ text: string }, [number]>;
  unitSource: Statement<{ text: string }, [number]>;
  held: Statement<{ text: string }, [number]>;
  take: Statement<unknown, [number, string]>;
  put: Statement<unknown, [number, string]>;
  hold: Statement<unknown, [number, string]>;
  release: Statement<unknown, [number]>;
  done: Statement<unknown, [number]>;
}
const refreshStatements = new WeakMap<Database, RefreshStatements>();

function statementsOf(sqlite: Database): RefreshStatements {
  let q = refreshStatements.get(sqlite);
  if (!q) {
    q = {
      pending: sqlite.query(`SELECT id FROM ${MEMORY_PENDING} ORDER BY id LIMIT ?`),
      newest: sqlite.query(`SELECT id FROM ${MEMORY_PENDING} ORDER BY id DESC LIMIT ?`),
      baseValue: sqlite.query(`SELECT ${marked("t.value")} AS text ${BASE_VALUES} AND t.rowid = ?`),
      unitSource: sqlite.query(`SELECT ${marked("source")} AS text FROM memory_units WHERE id = ?`),
      held: sqlite.query(`SELECT text FROM ${MEMORY_INDEXED} WHERE id = ?`),
      take: sqlite.query(`INSERT INTO memory_search (memory_search, rowid, text) VALUES ('delete', ?, ?)`),
      put: sqlite.query(`INSERT INTO memory_search (rowid, text) VALUES (?, ?)`),
      hold: sqlite.query(`INSERT OR REPLACE INTO ${MEMORY_INDEXED} (id, text) VALUES (?, ?)`),
      release: sqlite.query(`DELETE FROM ${MEMORY_INDEXED} WHERE id = ?`),
      done: sqlite.query(`DELETE FROM ${MEMORY_PENDING} WHERE id = ?`),
    };
    refreshStatements.set(sqlite, q);
  }
  return q;
}

/**
 * Brings at most `limit` pending rows of the memory's index up to date, in one write transaction:
 * each row's text as it is now (a base value, or a unit's source) goes in, the text it went in with
 * before comes out, and a row that is no source string any more leaves. Idempotent: a row named
 * twice, or already up to date, changes nothing; rows are independent, so any order is right.
 * `newestFirst`: the values written last first (a suggestion's few, while a large import's rows
 * wait for the background). Returns how many rows it looked at (0: none left).
 */
export function refreshMemoryIndex(sqlite: Database, limit: number, newestFirst = false): number {
  const q = statementsOf(sqlite);
  return sqlite.transaction(() => {
    const ids = (newestFirst ? q.newest : q.pending).all(limit).map((r) => r.id);
    for (const id of ids) {
      const now = (id > 0 ? q.baseValue.get(id) : q.unitSource.get(-id))?.text ?? null;
      const before = q.held.get(id)?.text ?? null;
      if (now !== before) {
        if (before !== null) q.take.run(id, before);
        if (now !== null) {
          q.put.run(id, now);
          q.hold.run(id, now);
        } else q.release.run(id);
      }
      q.done.run(id);
    }
    return ids.length;
  }).immediate();
}

/** How many rows of the memory's index wait to be brought up to date. */
export function pendingMemoryRows(sqlite: Database): number {
  return sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${MEMORY_PENDING}`).get()?.n ?? 0;
}

/** Makes whatever of the kept data is missing, with its data; a no-op when all is there. Returns what it made. */
export function ensureDerived(sqlite: Database): string[] {
  const present = new Set(sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type IN ('trigger', 'table')").all().map((r) => r.name));
  // Before the migration that makes language_counts (a test may apply only the older ones), there is nothing to keep.
  const countsMissing = present.has("language_counts") && Object.keys(COUNT_TRIGGERS).some((name) => !present.has(name));
  const searchMissing = !present.has(TRANSLATION_SEARCH) || Object.keys(SEARCH_TRIGGERS).some((name) => !present.has(name));
  // Before the migration that makes memory_units there is no memory to index.
  const memoryMissing =
    present.has("memory_units") &&
    (!present.has(MEMORY_SEARCH) ||
      !present.has(MEMORY_SHORT) ||
      !present.has(MEMORY_INDEXED) ||
      !present.has(MEMORY_PENDING) ||
      Object.keys(MEMORY_TRIGGERS).some((name) => !present.has(name)));
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
      sqlite.run(`DROP TABLE IF EXISTS ${MEMORY_PENDING}`);
      sqlite.run(MEMORY_TABLE);
      sqlite.run(SHORT_TABLE);
      sqlite.run(INDEXED_TABLE);
      sqlite.run(PENDING_TABLE);
      for (const statement of FILL_MEMORY) sqlite.run(statement);
      for (const statement of Object.values(MEMORY_TRIGGERS)) sqlite.run(statement);
      made.push("memory_search");
    }
  })();
  if (sqlite.query("SELECT 1 FROM translations LIMIT 1").get()) log.info("storage: built the kept counts and search index from the values", { made });
  return made;
}
