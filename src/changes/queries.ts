import type { Db } from "../storage/db.ts";

/** The outbox's statements, prepared once per connection (docs/architecture.md "Reaching SQLite"). */
export function prepareChangeQueries(db: Db) {
  return {
    insertEvent: db.$client.prepare<unknown, [number, string, string, number]>(
      "INSERT INTO outbox_events (project_id, event, payload, created_at) VALUES (?, ?, ?, ?)",
    ),
    /**
     * Whether an enabled endpoint of the project subscribes to the event (its JSON string, quotes
     * included, found in the endpoint's list of names): an event nobody takes is not written
     * (docs/webhooks.md "Events nobody subscribes to"). A project has a few endpoints, found by
     * their project index. `instr` rather than `json_each`: the latter cost ten times more per call
     * even with no endpoint, and an import asks once per value.
     */
    subscribed: db.$client.prepare<{ yes: number }, [number, string]>(
      "SELECT 1 AS yes FROM webhook_endpoints WHERE project_id = ? AND enabled = 1 AND instr(events, ?) > 0 LIMIT 1",
    ),
  };
}

export type ChangeQueries = ReturnType<typeof prepareChangeQueries>;
