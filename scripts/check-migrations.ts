/**
 * CI guard: the committed migrations must match the schema, and the embedded index must match the
 * journal. Regenerates into a scratch copy and fails if drizzle-kit would write anything new.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { MIGRATIONS_DIR, renderIndex } from "./embed-migrations.ts";

// drizzle-kit mangles absolute --out paths ("./" + path), so the scratch copy lives under .tmp/.
mkdirSync(".tmp", { recursive: true });
const scratch = relative(process.cwd(), mkdtempSync(join(".tmp", "migrations-")));
try {
  cpSync(MIGRATIONS_DIR, scratch, { recursive: true });
  const before = readdirSync(scratch).sort().join(",");
  const run = Bun.spawnSync(
    ["drizzle-kit", "generate", "--dialect", "sqlite", "--schema", "src/storage/schema.ts", "--out", scratch],
    { stdout: "pipe", stderr: "pipe" },
  );
  // drizzle-kit can print an error and still exit 0, so its output is checked too.
  if (run.exitCode !== 0 || /error/i.test(run.stderr.toString() + run.stdout.toString())) {
    console.error("check-migrations: drizzle-kit failed:\n" + run.stderr.toString() + run.stdout.toString());
    process.exit(1);
  }
  const after = readdirSync(scratch).sort().join(",");
  if (before !== after) {
    console.error("check-migrations: src/storage/schema.ts changed without a migration; run `make migrations` and commit it");
    process.exit(1);
  }
  if (readFileSync(join(MIGRATIONS_DIR, "index.ts"), "utf8") !== renderIndex()) {
    console.error("check-migrations: src/storage/migrations/index.ts is stale; run `make migrations`");
    process.exit(1);
  }
  console.log("check-migrations: migrations match the schema");
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
