/**
 * Storage (product §1): the schema, migrations, refusing a newer data dir, a data dir shared with
 * unrelated files, and /healthz. The migration check script runs as a process (it drives
 * drizzle-kit).
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RELEASE_MARKER, releaseMarkerText } from "../../src/bundles/files.ts";
import { releasesRoot } from "../../src/bundles/layout.ts";
import { CliError } from "../../src/common/errors.ts";
import { openDatabase } from "../../src/storage/db.ts";
import { migrate } from "../../src/storage/migrate.ts";
import { MIGRATIONS } from "../../src/storage/migrations/index.ts";
import { testApp } from "../helpers/app.ts";
import { ROOT, tempDir } from "../helpers/server.ts";

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

  test("a data dir written by a newer build is refused with a clear message, and left as it was", () => {
    const dir = tempDir();
    try {
      const db = openDatabase(dir);
      migrate(db.$client);
      db.$client.query("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', 99999999999999)").run();
      const before = db.$client.query("SELECT count(*) AS n FROM __drizzle_migrations").get();
      expect(() => migrate(db.$client)).toThrow(CliError);
      expect(() => migrate(db.$client)).toThrow(/newer Phrasebook/);
      let error: unknown;
      try {
        migrate(db.$client);
      } catch (err) {
        error = err;
      }
      expect((error as CliError).exitCode).toBe(2);
      expect(db.$client.query("SELECT count(*) AS n FROM __drizzle_migrations").get()).toEqual(before);
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

  test("the data dir may hold unrelated files; the start cleans only its releases folder", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "notes.txt"), "keep me");
    mkdirSync(join(dir, "other"));
    writeFileSync(join(dir, "other", "file.json"), "{}");
    // What a publish killed before its commit leaves: a release folder no published release names,
    // carrying the marker the publish wrote (docs/publishing.md §5: only those are removed).
    mkdirSync(join(releasesRoot(dir), "rel_00000000000000000000"), { recursive: true });
    writeFileSync(join(releasesRoot(dir), "rel_00000000000000000000", RELEASE_MARKER), releaseMarkerText("rel_00000000000000000000"));
    try {
      const t = await testApp({ dataDir: dir, env: { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" } });
      try {
        expect((await t.fetch("/healthz")).status).toBe(200);
      } finally {
        await t.close();
      }
      expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("keep me");
      expect(readFileSync(join(dir, "other", "file.json"), "utf8")).toBe("{}");
      expect(readdirSync(releasesRoot(dir))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("GET /healthz answers 200 {status: ok} while the database answers, 503 when it does not; / leads to the dashboard", async () => {
    const t = await testApp({ env: { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" } });
    try {
      const ok = await t.fetch("/healthz");
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ status: "ok" });
      const root = await t.fetch("/", { redirect: "manual" });
      expect(root.status).toBe(302);
      expect(root.headers.get("location")).toBe("/dashboard");
      t.deps.db.$client.close();
      const down = await t.fetch("/healthz");
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({ error: "the database does not answer" });
    } finally {
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });

  test("make check-migrations fails when the schema changes without a migration", () => {
    // Work on a scratch copy of the repository's sources so the real tree is never touched; the
    // dependencies are the repository's own, linked.
    const scratch = tempDir("phrasebook-schema-");
    try {
      for (const entry of ["src", "scripts", "package.json", "drizzle.config.ts", "tsconfig.json"]) cpSync(join(ROOT, entry), join(scratch, entry), { recursive: true });
      symlinkSync(join(ROOT, "node_modules"), join(scratch, "node_modules"), "dir");
      const env = { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`, NODE_PATH: join(ROOT, "node_modules") };
      const ok = Bun.spawnSync([process.execPath, "scripts/check-migrations.ts"], { cwd: scratch, env });
      expect(ok.exitCode, ok.stderr.toString()).toBe(0);
      const schemaFile = join(scratch, "src", "storage", "schema.ts");
      writeFileSync(schemaFile, readFileSync(schemaFile, "utf8") + '\nexport const extra = sqliteTable("extra", { id: integer("id").primaryKey() });\n');
      const drift = Bun.spawnSync([process.execPath, "scripts/check-migrations.ts"], { cwd: scratch, env });
      expect(drift.exitCode).toBe(1);
      expect(drift.stderr.toString()).toContain("schema.ts changed without a migration");
      expect(readdirSync(join(scratch, "src", "storage", "migrations")).filter((f) => f.endsWith(".sql"))).toHaveLength(MIGRATIONS.length);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);
});
