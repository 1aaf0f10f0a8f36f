import type { Database } from "bun:sqlite";
import { CliError } from "../common/errors.ts";
import { sha256Hex } from "../common/hash.ts";
import { ensureDerived } from "./derived.ts";
import { MIGRATIONS, type EmbeddedMigration } from "./migrations/index.ts";

/**
 * Applies the embedded drizzle-kit migrations in order, each in its own transaction with its
 * bookkeeping row. Uses drizzle's own `__drizzle_migrations` table layout, so drizzle-kit's tools
 * read the same history. Refuses a database written by a newer build rather than guessing.
 */

const STATEMENT_BREAK = "--> statement-breakpoint";

/**
 * Data a migration's tables need at birth, run in the same transaction as the migration that
 * creates the table (found by the table appearing, not by the migration's number, which changes
 * when migrations are regenerated). `project_members`: every `member` user holds `developer` on
 * every existing project, exactly the rights a member had before project roles
 * (docs/dashboard-api.md "Project roles"). Generated migrations carry DDL only, so this lives here.
 */
const BACKFILLS: Record<string, string> = {
  project_members:
    "INSERT INTO project_members (project_id, user_id, role, languages, updated_at) " +
    "SELECT p.id, u.id, 'developer', NULL, CAST(unixepoch('subsec') * 1000 AS INTEGER) FROM projects p, users u WHERE u.role = 'member'",
};

function tableExists(sqlite: Database, name: string): boolean {
  return sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== null;
}

export function migrate(sqlite: Database, migrations: EmbeddedMigration[] = MIGRATIONS): number {
  sqlite.run(
    "CREATE TABLE IF NOT EXISTS __drizzle_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)",
  );
  const applied = new Set(
    sqlite.query<{ created_at: number }, []>("SELECT created_at FROM __drizzle_migrations").all().map((r) => Number(r.created_at)),
  );
  const known = new Set(migrations.map((m) => m.createdAt));
  const unknown = [...applied].filter((c) => !known.has(c));
  if (unknown.length > 0) {
    throw new CliError(
      `the data dir was written by a newer Phrasebook (schema has ${unknown.length} migration(s) this build does not know); run that version or restore a backup`,
    );
  }

  let count = 0;
  // Table rebuilds in generated migrations need foreign keys off, which SQLite ignores inside a
  // transaction; check integrity ourselves before committing each one.
  sqlite.run("PRAGMA foreign_keys = OFF");
  try {
    for (const m of migrations) {
      if (applied.has(m.createdAt)) continue;
      sqlite.transaction(() => {
        const missing = Object.keys(BACKFILLS).filter((table) => !tableExists(sqlite, table));
        for (const statement of m.sql.split(STATEMENT_BREAK)) {
          if (statement.trim()) sqlite.run(statement);
        }
        for (const table of missing) if (tableExists(sqlite, table)) sqlite.run(BACKFILLS[table]!);
        const broken = sqlite.query("PRAGMA foreign_key_check").all();
        if (broken.length > 0) throw new CliError(`migration ${m.tag} leaves ${broken.length} broken foreign key(s)`);
        const hash = sha256Hex(m.sql);
        sqlite.query("INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)").run(hash, m.createdAt);
      })();
      count++;
    }
  } finally {
    sqlite.run("PRAGMA foreign_keys = ON");
  }
  // The counts and the search index the migrations cannot write (a rebuilt table loses its triggers).
  ensureDerived(sqlite);
  return count;
}
