import type { Db } from "../storage/db.ts";

/** The outbox's statements, prepared once per connection (docs/architecture.md "Reaching SQLite"). */
export function prepareChangeQueries(db: Db) {
  return {
    insertEvent: db.$client.prepare<unknown, [number, string, string, number]>(
      "INSERT INTO outbox_events (project_id, event, payload, created_at) VALUES (?, ?, ?, ?)",
    ),
    /**
     * Whether an enabled endpoint of the project subscribes to the event: an event nobody takes is
     * not written (docs/webhooks.md "Events nobody subscribes to"). A project has a few endpoints,
     * found by their project index; each one's list is a handful of names.
     */
    subscribed: db.$client.prepare<{ yes: number }, [number, string]>(
      `SELECT 1 AS yes FROM webhook_endpoints e
       WHERE e.project_id = ?1 AND e.enabled = 1 AND EXISTS (SELECT 1 FROM json_each(e.events) WHERE value = ?2) LIMIT 1`,
    ),
  };
}

export type ChangeQueries = ReturnType<typeof prepareChangeQueries>;
