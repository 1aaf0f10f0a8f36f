import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { openDatabase } from "../../src/storage/db.ts";
import { migrate } from "../../src/storage/migrate.ts";
import { enqueueEvent, preparedInsert } from "../../src/webhooks/outbox.ts";
import { tempDir } from "../helpers/server.ts";

describe("CONTRACTS 5: the outbox writer", () => {
  test("an event commits or vanishes with the transaction of its change", () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    migrate(db.$client);
    const clock = { now: () => 1_700_000_000_123 };
    const project = { id: 7, publicId: "prj_AAAAAAAAAAAAAAAAAAAA" };
    db.transaction((tx) => enqueueEvent(tx, clock, project, "key_deleted", { key: "kept" }));
    expect(() =>
      db.transaction((tx) => {
        enqueueEvent(tx, clock, project, "key_deleted", { key: "rolled back" });
        throw new Error("the change failed");
      }),
    ).toThrow("the change failed");
    const rows = db.$client.query<{ payload: string }, []>("SELECT payload FROM outbox_events").all();
    expect(rows.map((r) => JSON.parse(r.payload))).toEqual([
      { event: "key_deleted", event_version: 1, occurred_at: "2023-11-14T22:13:20.123Z", project_id: project.publicId, data: { key: "kept" } },
    ]);
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("bulk writes take the prepared statement, for the database and for a transaction handle", () => {
    // Guards the fast path against a drizzle upgrade that changes its session's shape.
    const dir = tempDir();
    const db = openDatabase(dir);
    migrate(db.$client);
    expect(preparedInsert(db)).toBeDefined();
    db.transaction((tx) => expect(preparedInsert(tx)).toBe(preparedInsert(db)));
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
