/**
 * A write that waits past SQLite's busy timeout (another process holds the write lock: a second
 * server on the same data dir, a tool an operator ran) is a 503 with Retry-After that says the
 * database is busy, never a 500, and writes nothing (docs/dashboard-api.md "Conventions").
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { join } from "node:path";
import { testApp } from "../helpers/app.ts";

test("a write that cannot get the database's write lock within the busy timeout is a 503 with Retry-After, and changes nothing", async () => {
  const t = await testApp();
  const other = new Database(join(t.dataDir, "phrasebook.db"));
  try {
    const admin = await t.login();
    const pid = await admin.project("Busy", "en");
    const [{ timeout }] = t.query<{ timeout: number }>("PRAGMA busy_timeout"); // storage/db.ts
    other.run("BEGIN IMMEDIATE");
    const started = Date.now();
    const r = await admin.post(`/projects/${pid}/keys`, { key: "waits" });
    // It waited for the lock before giving up: a lower bound, from the configured timeout, which a
    // loaded machine can only exceed. Nothing here bounds how long it took.
    expect(Date.now() - started).toBeGreaterThanOrEqual(timeout - 500);
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ error: "the database is busy; try again in a moment" });
    expect(r.headers.get("retry-after")).toBe("1");
    other.run("ROLLBACK");
    expect(t.query("SELECT 1 FROM translation_keys")).toEqual([]);
    expect((await admin.post(`/projects/${pid}/keys`, { key: "waits" })).status).toBe(201);
  } finally {
    other.close();
    await t.close();
  }
}, 30_000);
