import type { Db } from "../storage/db.ts";
import { named } from "../storage/names.ts";
import { outboxEvents, webhookEndpoints } from "../storage/schema.ts";

const o = named(outboxEvents);
const e = named(webhookEndpoints);

/** The outbox's statements, prepared once per connection (docs/architecture.md "Reaching SQLite"). */
export function prepareChangeQueries(db: Db) {
  return {
    insertEvent: db.$client.prepare<unknown, [number, string, string, number]>(
      `INSERT INTO ${o} (${o.projectId}, ${o.event}, ${o.payload}, ${o.createdAt}) VALUES (?, ?, ?, ?)`,
    ),
    /**
     * Whether an enabled endpoint of the project subscribes to the event (its JSON string, quotes
     * included, found in the endpoint's list of names): an event nobody takes is not written
     * (docs/webhooks.md "Events nobody subscribes to"). A project has a few endpoints, found by
     * their project index. `instr` rather than `json_each`: the latter cost ten times more per call
     * even with no endpoint, and an import asks once per value.
     */
    subscribed: db.$client.prepare<{ yes: number }, [number, string]>(
      `SELECT 1 AS yes FROM ${e} WHERE ${e.projectId} = ? AND ${e.enabled} = 1 AND instr(${e.events}, ?) > 0 LIMIT 1`,
    ),
  };
}

export type ChangeQueries = ReturnType<typeof prepareChangeQueries>;
