/**
 * A data dir written by a newer version (docs/deploy.md "Upgrades") is refused by the real binary
 * at start with one clear line, and left untouched.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { serverCommand, startServer, tempDir } from "../helpers/server.ts";

describe("a data dir written by a newer version", () => {
  test("is refused at start with one clear line, and left untouched", async () => {
    const dataDir = tempDir();
    const server = await startServer({ dataDir });
    await server.stop();
    const db = new Database(join(dataDir, "phrasebook.db"));
    db.query("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('from-the-future', 99999999999999)").run();
    db.close();
    const proc = Bun.spawn([...serverCommand(), "serve"], {
      env: { PATH: process.env.PATH ?? "", PHRASEBOOK_DATA_DIR: dataDir, PHRASEBOOK_PORT: "0" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toStartWith("phrasebook: the data dir was written by a newer Phrasebook");
    const after = new Database(join(dataDir, "phrasebook.db"), { readonly: true });
    expect(after.query("SELECT count(*) AS n FROM __drizzle_migrations WHERE hash = 'from-the-future'").get()).toEqual({ n: 1 });
    after.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
});
