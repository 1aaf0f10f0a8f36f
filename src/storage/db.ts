import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs";
import { join } from "node:path";
import { log } from "../common/log.ts";
import * as schema from "./schema.ts";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export const DATABASE_FILE = "phrasebook.db";

/**
 * File modes (docs/deploy.md "Security notes"): the database holds password hashes, webhook
 * secrets and session hashes, so the data dir is created for its owner only and the database
 * files are readable by their owner only. SQLite gives its -wal and -shm files the mode of the
 * database file, so creating that one 0600 covers all three.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates the database file 0600 before SQLite opens it, and makes one an older version left
 * readable by others 0600 again (the file is ours; the data dir is the operator's, see
 * warnIfDataDirIsOpen).
 */
function makeDatabaseFilesPrivate(dataDir: string): void {
  const path = join(dataDir, DATABASE_FILE);
  closeSync(openSync(path, "a", PRIVATE_FILE_MODE));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (!existsSync(file)) continue;
    const mode = statSync(file).mode & 0o777;
    if ((mode & 0o077) === 0) continue;
    chmodSync(file, PRIVATE_FILE_MODE);
    log.info("made a database file readable by its owner only", { file, was: mode.toString(8) });
  }
}

/**
 * One warning line at start when other users of the machine may look into the data dir
 * (created by an operator, say with `install -d`, which gives 0755).
 */
export function warnIfDataDirIsOpen(dataDir: string): void {
  const mode = statSync(dataDir).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    log.warn("the data dir is open to other users of this machine; run chmod 700 on it", { data_dir: dataDir, mode: mode.toString(8) });
  }
}

/**
 * All pragmas in one place, in this order on purpose:
 * - journal_mode=WAL first: readers (the CDN, the API) never wait for the writer.
 * - synchronous=NORMAL: with WAL a process crash (even SIGKILL) loses nothing committed; a power
 *   cut may lose the last transactions but never corrupts the file. FULL would cost an fsync per
 *   webhook attempt row, which the sender's throughput goal cannot afford.
 * - busy_timeout: the backup command and the server may briefly contend for the write lock.
 * - foreign_keys=ON: off by default in SQLite, per connection.
 * - wal_autocheckpoint=0 only when Litestream replicates the database: Litestream then makes the
 *   checkpoints, after it has copied the log, as its documentation advises; the server's writes no
 *   longer pause for one (docs/deploy.md "Continuous replication").
 */
export function openDatabase(dataDir: string, options: { replicated?: boolean } = {}): Db {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  makeDatabaseFilesPrivate(dataDir);
  const sqlite = new Database(join(dataDir, DATABASE_FILE), { create: true, strict: true });
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run("PRAGMA busy_timeout = 5000");
  sqlite.run("PRAGMA foreign_keys = ON");
  sqlite.run("PRAGMA temp_store = MEMORY");
  if (options.replicated) sqlite.run("PRAGMA wal_autocheckpoint = 0");
  return writingFirst(drizzle(sqlite, { schema }) as Db);
}

/**
 * Every transaction starts as a writer (BEGIN IMMEDIATE) unless it says otherwise. Imports write on
 * a connection of their own in a worker thread (docs/publishing.md §6), so a deferred transaction
 * here that read first and then wrote would fail outright (SQLITE_BUSY_SNAPSHOT, which no
 * busy_timeout waits out) whenever an import committed in between; taking the write lock first
 * makes it wait its turn instead.
 */
function writingFirst(db: Db): Db {
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn, config) => transaction(fn, { behavior: "immediate", ...config })) as Db["transaction"];
  return db;
}

/**
 * Runs `write` on `sqlite` with no busy timeout, then gives the connection its own back: while
 * another connection holds the write lock, `write` throws SQLITE_BUSY at once instead of holding
 * up every request of the process meanwhile (a token's advisory `last_used_at`, tokens/queries.ts).
 */
export function withoutWaiting<T>(sqlite: Database, write: () => T): T {
  const previous = sqlite.query<{ timeout: number }, []>("PRAGMA busy_timeout").get()?.timeout ?? 0;
  sqlite.run("PRAGMA busy_timeout = 0");
  try {
    return write();
  } finally {
    sqlite.run(`PRAGMA busy_timeout = ${Number(previous)}`);
  }
}

/**
 * Gives `db` a busy timeout of its own: an import on its worker thread waits for the write lock
 * for as long as it may run at all (its time limit, docs/publishing.md §6 "Time limit and
 * cancelling"), since imports of other projects commit beside it; the thread is ended at the limit
 * anyway.
 */
export function waitForLocks(db: Db, ms: number): void {
  db.$client.run(`PRAGMA busy_timeout = ${Math.max(0, Math.round(ms))}`);
}

/** `GET /healthz`: true while the database answers a trivial query. */
export function isReachable(db: Db): boolean {
  try {
    db.$client.query("SELECT 1").get();
    return true;
  } catch {
    return false;
  }
}

/** A consistent copy of the live database (a WAL reader, so writers go on meanwhile). */
export function copyDatabase(db: Db, path: string): void {
  db.$client.query("VACUUM INTO ?").run(path);
}

/**
 * Starts a read transaction on `db`: deferred, so its view of the database is taken by its first
 * read, and kept until it ends (a publish's snapshot, docs/publishing.md §7).
 */
export function beginReading(db: Db): void {
  db.$client.run("BEGIN");
}

/** Takes SQLite's write lock on `sqlite` now (BEGIN IMMEDIATE), or throws SQLITE_BUSY once its busy timeout is out. */
export function beginWriting(sqlite: Database): void {
  sqlite.run("BEGIN IMMEDIATE");
}

/** Ends the transaction open on `sqlite`, writing nothing. */
export function rollBack(sqlite: Database): void {
  sqlite.run("ROLLBACK");
}

/**
 * A database file opened read-only: a copy made by `copyDatabase`, or the live database read by a
 * publish's snapshot. A WAL reader still waits briefly at times (while the writer restarts the log
 * after a checkpoint, or recovers it on open), so it gets the same busy_timeout as the server's own
 * connection instead of failing at once with SQLITE_BUSY.
 */
export function openReadOnly(path: string): Db {
  const sqlite = new Database(path, { readonly: true });
  sqlite.run("PRAGMA busy_timeout = 5000");
  // As the server's own connection: a search's subqueries build their temporary tables in memory.
  sqlite.run("PRAGMA temp_store = MEMORY");
  return drizzle(sqlite, { schema }) as Db;
}
