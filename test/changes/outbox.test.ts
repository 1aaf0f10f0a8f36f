/**
 * The outbox (product §5, interface §6.2): every change writes its webhook event in the same
 * transaction as the change, as the envelope every delivery will send byte for byte.
 */
import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { Changes } from "../../src/changes/changes.ts";
import { EVENT_TYPES } from "../../src/changes/events.ts";
import { openDatabase, type Db } from "../../src/storage/db.ts";
import { migrate } from "../../src/storage/migrate.ts";
import { ManualClock } from "../helpers/app.ts";
import { openWorld } from "../helpers/scenario.ts";
import { tempDir } from "../helpers/server.ts";
import { standardWorld } from "../dashboard-api/world.ts";

const PROJECT = { id: 7, publicId: "prj_AAAAAAAAAAAAAAAAAAAA" };

function withDb(fn: (db: Db) => void | Promise<void>) {
  return async () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    try {
      migrate(db.$client);
      // An event is written only for a subscribed endpoint (docs/webhooks.md "Events nobody subscribes to").
      db.$client.run("INSERT INTO projects (id, public_id, name, base_language_code, cdn_slug, created_at) VALUES (7, ?, 'P', 'en', 'slug7', 0)", [PROJECT.publicId]);
      db.$client.run("INSERT INTO webhook_endpoints (public_id, project_id, url, events, enabled, created_at) VALUES ('whk_all', 7, 'https://hooks.example.test/', ?, 1, 0)", [JSON.stringify(EVENT_TYPES)]);
      await fn(db);
    } finally {
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

const payloads = (db: Db) => db.$client.query<{ payload: string }, []>("SELECT payload FROM outbox_events ORDER BY id").all().map((r) => JSON.parse(r.payload));

describe("Changes.event, the outbox writer", () => {
  test(
    "an event commits or vanishes with the transaction of its change",
    withDb((db) => {
      const changes = new Changes(db, new ManualClock(1_700_000_000_123));
      db.transaction(() => changes.event(PROJECT, "key_deleted", { key: "kept" }));
      expect(() =>
        db.transaction(() => {
          changes.event(PROJECT, "key_deleted", { key: "rolled back" });
          throw new Error("the change failed");
        }),
      ).toThrow("the change failed");
      // A nested transaction (a savepoint) that fails takes its events with it, not the outer ones.
      db.transaction((tx) => {
        changes.event(PROJECT, "key_deleted", { key: "outer" });
        expect(() =>
          tx.transaction(() => {
            changes.event(PROJECT, "key_deleted", { key: "inner" });
            throw new Error("inner failed");
          }),
        ).toThrow("inner failed");
      });
      expect(payloads(db)).toEqual([
        { event: "key_deleted", event_version: 1, occurred_at: "2023-11-14T22:13:20.123Z", project_id: PROJECT.publicId, data: { key: "kept" } },
        { event: "key_deleted", event_version: 1, occurred_at: "2023-11-14T22:13:20.123Z", project_id: PROJECT.publicId, data: { key: "outer" } },
      ]);
    }),
  );

  test(
    "the row holds the project's row id, the event, the envelope's exact bytes and the time",
    withDb((db) => {
      const clock = new ManualClock(1_700_000_000_000);
      const changes = new Changes(db, clock);
      clock.advance(5);
      changes.event(PROJECT, "release_created", { release_id: "rel_x", name: "R", tag: "v1", status: "draft" });
      expect(db.$client.query("SELECT project_id, event, payload, created_at, dispatched_at FROM outbox_events").all()).toEqual([
        {
          project_id: 7,
          event: "release_created",
          payload: '{"event":"release_created","event_version":1,"occurred_at":"2023-11-14T22:13:20.005Z","project_id":"prj_AAAAAAAAAAAAAAAAAAAA","data":{"release_id":"rel_x","name":"R","tag":"v1","status":"draft"}}',
          created_at: 1_700_000_000_005,
          dispatched_at: null,
        },
      ]);
    }),
  );

  test(
    "the sender is woken once, on a later turn, however many events a change writes",
    withDb(async (db) => {
      const changes = new Changes(db, new ManualClock());
      let wakes = 0;
      changes.onWake(() => wakes++);
      db.transaction(() => {
        for (let i = 0; i < 100; i++) changes.event(PROJECT, "key_created", { key: `k${i}`, context: null });
      });
      expect(wakes).toBe(0); // not while the change's transaction could still be open
      await new Promise((resolve) => setImmediate(resolve));
      expect(wakes).toBe(1);
    }),
  );
});

describe("every authoring change writes its envelope (interface §6.2)", () => {
  test("key, translation and release events carry exactly the interface's data fields", async () => {
    const clock = new ManualClock();
    const w = await openWorld(standardWorld, { clock, subscribeAll: true });
    try {
      const admin = w.as("admin");
      const pid = w.ids.otherPid!;
      const before = w.t.query<{ n: number }>("SELECT coalesce(max(id), 0) AS n FROM outbox_events")[0]!.n;
      await admin.post(`/projects/${pid}/languages`, { code: "de" });
      const kid = await admin.key(pid, "cart.title", {}, "Cart header");
      clock.advance(1000);
      await admin.patch(`/projects/${pid}/keys/${kid}`, { context: "Cart page header" });
      await admin.put(`/projects/${pid}/keys/${kid}/translations/de`, { value: "Warenkorb" });
      await admin.put(`/projects/${pid}/keys/${kid}/translations/de`, { value: "Einkaufswagen" });
      await admin.post(`/projects/${pid}/keys/${kid}/translations/de/approve`);
      const rel = (await admin.post(`/projects/${pid}/releases`, { name: "Spring", tag: "2026.03" })).body;
      await admin.patch(`/projects/${pid}/releases/${rel.id}`, { tag: "2026.04" });
      const published = (await admin.post(`/projects/${pid}/releases`, { name: "Summer", tag: "2026.06" })).body;
      await admin.post(`/projects/${pid}/releases/${published.id}/publish`);
      await admin.delete(`/projects/${pid}/releases/${rel.id}`);
      await admin.delete(`/projects/${pid}/keys/${kid}`);

      const rows = w.t.query<{ event: string; payload: string; project_id: number; created_at: number }>("SELECT event, payload, project_id, created_at FROM outbox_events WHERE id > ? ORDER BY id", before);
      const events = rows.map((r) => JSON.parse(r.payload));
      expect(events.map((e) => [e.event, e.data])).toEqual([
        ["key_created", { key: "cart.title", context: "Cart header" }],
        ["key_updated", { key: "cart.title", context: "Cart page header" }],
        ["translation_created", { key: "cart.title", language_code: "de", value: "Warenkorb", status: "translated" }],
        ["translation_updated", { key: "cart.title", language_code: "de", value: "Einkaufswagen", status: "translated" }],
        ["translation_approved", { key: "cart.title", language_code: "de", value: "Einkaufswagen", status: "approved" }],
        ["release_created", { release_id: rel.id, name: "Spring", tag: "2026.03", status: "draft" }],
        ["release_updated", { release_id: rel.id, name: "Spring", tag: "2026.04" }],
        ["release_created", { release_id: published.id, name: "Summer", tag: "2026.06", status: "draft" }],
        ["release_published", { release_id: published.id, name: "Summer", tag: "2026.06", status: "published" }],
        ["release_deleted", { release_id: rel.id, name: "Spring", tag: "2026.04" }],
        ["key_deleted", { key: "cart.title" }],
      ]);
      const projectRowId = w.t.query<{ id: number }>("SELECT id FROM projects WHERE public_id = ?", pid)[0]!.id;
      for (const [i, e] of events.entries()) {
        expect(Object.keys(e)).toEqual(["event", "event_version", "occurred_at", "project_id", "data"]);
        expect(e.event).toBe(rows[i]!.event);
        expect(e.event_version).toBe(1);
        expect(e.project_id).toBe(pid);
        expect(rows[i]!.project_id).toBe(projectRowId);
        // The time of the change, from the app's clock.
        expect(e.occurred_at).toBe(i === 0 ? "2026-01-01T00:00:00.000Z" : "2026-01-01T00:00:01.000Z");
        expect(rows[i]!.created_at).toBe(Date.parse(e.occurred_at));
      }
      // Each row waits for the sender (not running here) to pick it up.
      expect(w.t.query("SELECT count(*) AS n FROM outbox_events WHERE id > ? AND dispatched_at IS NULL", before)).toEqual([{ n: events.length }]);
    } finally {
      await w.close();
    }
  });
});
