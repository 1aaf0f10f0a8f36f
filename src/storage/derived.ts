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

/** Makes whatever of the kept data is missing, with its data; a no-op when all is there. Returns what it made. */
export function ensureDerived(sqlite: Database): string[] {
  const present = new Set(sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type IN ('trigger', 'table')").all().map((r) => r.name));
  // Before the migration that makes language_counts (a test may apply only the older ones), there is nothing to keep.
  const countsMissing = present.has("language_counts") && Object.keys(COUNT_TRIGGERS).some((name) => !present.has(name));
  const searchMissing = !present.has(TRANSLATION_SEARCH) || Object.keys(SEARCH_TRIGGERS).some((name) => !present.has(name));
  const made: string[] = [];
  if (!countsMissing && !searchMissing) return made;
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
  })();
  if (sqlite.query("SELECT 1 FROM translations LIMIT 1").get()) log.info("storage: built the kept counts and search index from the values", { made });
  return made;
}
