import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/storage/db.ts";
import { migrate, MigrationError } from "../../src/storage/migrate.ts";
import { MIGRATIONS } from "../../src/storage/migrations/index.ts";
import { ROOT, startServer, tempDir } from "../helpers/server.ts";

describe("storage", () => {
  test("a fresh data dir gets every table, WAL mode and foreign keys; migrating twice is a no-op", () => {
    const dir = tempDir();
    try {
      const db = openDatabase(dir);
      expect(migrate(db.$client)).toBe(MIGRATIONS.length);
      expect(migrate(db.$client)).toBe(0);
      const tables = db.$client.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").all().map((r) => r.name);
      for (const t of ["users", "sessions", "projects", "languages", "translation_keys", "translations", "releases", "release_languages",
        "api_tokens", "webhook_endpoints", "outbox_events", "deliveries", "delivery_attempts"]) {
        expect(tables).toContain(t);
      }
      expect(db.$client.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
      expect(db.$client.query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
      db.$client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a data dir written by a newer build is refused with a clear message", () => {
    const dir = tempDir();
    try {
      const db = openDatabase(dir);
      migrate(db.$client);
      db.$client.query("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', 99999999999999)").run();
      expect(() => migrate(db.$client)).toThrow(MigrationError);
      expect(() => migrate(db.$client)).toThrow(/newer Phrasebook/);
      db.$client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a failing migration rolls back whole and is not recorded", () => {
    const db = new Database(":memory:");
    const broken = [...MIGRATIONS, { tag: "9999_broken", createdAt: 99999999999998, sql: "CREATE TABLE ok_table (x int);\n--> statement-breakpoint\nTHIS IS NOT SQL" }];
    expect(() => migrate(db, broken)).toThrow();
    expect(db.query("SELECT name FROM sqlite_master WHERE name='ok_table'").get()).toBeNull();
    expect(db.query("SELECT count(*) AS n FROM __drizzle_migrations").get()).toEqual({ n: MIGRATIONS.length });
  });

  test("the data dir may hold unrelated files; the server starts and leaves them alone", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "notes.txt"), "keep me");
    mkdirSync(join(dir, "other"));
    const server = await startServer({ dataDir: dir });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(await Bun.file(join(dir, "notes.txt")).text()).toBe("keep me");
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("make check-migrations fails when the schema changes without a migration", () => {
    // Work on a scratch copy of the repository's sources so the real tree is never touched.
    const scratch = join(tmpdir(), `phrasebook-schema-${process.pid}`);
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch);
    try {
      for (const entry of ["src", "scripts", "package.json", "drizzle.config.ts", "tsconfig.json"]) cpSync(join(ROOT, entry), join(scratch, entry), { recursive: true });
      const env = { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`, NODE_PATH: join(ROOT, "node_modules") };
      cpSync(join(ROOT, "node_modules"), join(scratch, "node_modules"), { recursive: true, dereference: false, verbatimSymlinks: true });
      const ok = Bun.spawnSync([process.execPath, "scripts/check-migrations.ts"], { cwd: scratch, env });
      expect(ok.exitCode).toBe(0);
      const schemaFile = join(scratch, "src", "storage", "schema.ts");
      writeFileSync(schemaFile, (await_text(schemaFile)) + '\nexport const extra = sqliteTable("extra", { id: integer("id").primaryKey() });\n');
      const drift = Bun.spawnSync([process.execPath, "scripts/check-migrations.ts"], { cwd: scratch, env });
      expect(drift.exitCode).toBe(1);
      expect(drift.stderr.toString()).toContain("schema.ts changed without a migration");
      expect(readdirSync(join(scratch, "src", "storage", "migrations")).filter((f) => f.endsWith(".sql"))).toHaveLength(MIGRATIONS.length);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);
});

function await_text(path: string): string {
  return require("node:fs").readFileSync(path, "utf8");
}
