import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import * as schema from "./schema.ts";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export const DATABASE_FILE = "phrasebook.db";

/**
 * All pragmas in one place, in this order on purpose:
 * - journal_mode=WAL first: readers (the CDN, the API) never wait for the writer.
 * - synchronous=NORMAL: with WAL a process crash (even SIGKILL) loses nothing committed; a power
 *   cut may lose the last transactions but never corrupts the file. FULL would cost an fsync per
 *   webhook attempt row, which the sender's throughput goal cannot afford.
 * - busy_timeout: the backup command and the server may briefly contend for the write lock.
 * - foreign_keys=ON: off by default in SQLite, per connection.
 */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new Database(join(dataDir, DATABASE_FILE), { create: true, strict: true });
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run("PRAGMA busy_timeout = 5000");
  sqlite.run("PRAGMA foreign_keys = ON");
  sqlite.run("PRAGMA temp_store = MEMORY");
  return drizzle(sqlite, { schema }) as Db;
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

/** A database file opened read-only, such as a copy made by `copyDatabase`. */
export function openReadOnly(path: string): Db {
  return drizzle(new Database(path, { readonly: true }), { schema }) as Db;
}
