import type { Db } from "../storage/db.ts";

/** The outbox insert, prepared once per connection (docs/architecture.md "Reaching SQLite"). */
export function prepareChangeQueries(db: Db) {
  return {
    insertEvent: db.$client.prepare<unknown, [number, string, string, number]>(
      "INSERT INTO outbox_events (project_id, event, payload, created_at) VALUES (?, ?, ?, ?)",
    ),
  };
}

export type ChangeQueries = ReturnType<typeof prepareChangeQueries>;
