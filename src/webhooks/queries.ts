import type { Db } from "../storage/db.ts";

/**
 * The sender's statements, prepared once: they run hundreds of times a second under load
 * (docs/architecture.md "Reaching SQLite").
 */
export interface OutboxRow {
  id: number;
  projectId: number;
  event: string;
  payload: string;
}

export interface PendingRow {
  id: number;
  endpointId: number;
  dueAt: number;
}

export interface CandidateRow {
  id: number;
  publicId: string;
  endpointId: number;
  event: string;
  payload: string;
  attemptCount: number;
  nextAttemptAt: number;
  leaseUntil: number | null;
  url: string;
  secret: string | null;
  enabled: number;
}

type Nullable = string | number | null;

export function prepareDeliveryQueries(db: Db) {
  const c = db.$client;
  return {
    pendingEvents: c.prepare<OutboxRow, [number]>(`SELECT id, project_id AS projectId, event, payload FROM outbox_events
      WHERE dispatched_at IS NULL ORDER BY id LIMIT ?`),
    anyPendingEvent: c.prepare<{ yes: number }, []>(`SELECT 1 AS yes FROM outbox_events WHERE dispatched_at IS NULL LIMIT 1`),
    endpointsOf: c.prepare<{ id: number; events: string }, [number]>(`SELECT id, events FROM webhook_endpoints WHERE project_id = ? AND enabled = 1`),
    insertDelivery: c.prepare<unknown, [string, number, number, number, string, string, number, number]>(`INSERT INTO deliveries
      (public_id, endpoint_id, project_id, outbox_event_id, event, payload, status, attempt_count, next_attempt_at, created_at)
      VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)
      ON CONFLICT (outbox_event_id, endpoint_id) DO NOTHING`),
    markDispatched: c.prepare<unknown, [number, number]>(`UPDATE outbox_events SET dispatched_at = ? WHERE id = ?`),
    deleteEvent: c.prepare<unknown, [number]>(`DELETE FROM outbox_events WHERE id = ?`),
    pendingAfter: c.prepare<PendingRow, [number]>(`SELECT id, endpoint_id AS endpointId, MAX(next_attempt_at, COALESCE(lease_until, 0)) AS dueAt
      FROM deliveries WHERE id > ? AND status = 'pending' ORDER BY id`),
    maxId: c.prepare<{ id: number }, []>(`SELECT COALESCE(MAX(id), 0) AS id FROM deliveries`),
    pendingOfEndpoint: c.prepare<PendingRow, [number]>(`SELECT id, endpoint_id AS endpointId, MAX(next_attempt_at, COALESCE(lease_until, 0)) AS dueAt
      FROM deliveries WHERE endpoint_id = ? AND status = 'pending'`),
    enabledAmong: c.prepare<{ id: number }, [string]>(`SELECT id FROM webhook_endpoints WHERE enabled = 1 AND id IN (SELECT value FROM json_each(?))`),
    candidate: c.prepare<CandidateRow, [number]>(`SELECT d.id, d.public_id AS publicId, d.endpoint_id AS endpointId, d.event, d.payload,
        d.attempt_count AS attemptCount, d.next_attempt_at AS nextAttemptAt, d.lease_until AS leaseUntil,
        e.url, e.secret, e.enabled
      FROM deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.id = ? AND d.status = 'pending'`),
    lease: c.prepare<unknown, [number, number]>(`UPDATE deliveries SET lease_until = ? WHERE id = ?`),
    release: c.prepare<unknown, [number]>(`UPDATE deliveries SET lease_until = NULL WHERE id = ? AND status = 'pending'`),
    finish: c.prepare<{ id: number }, [string, number, number | null, number, number]>(`UPDATE deliveries
      SET status = ?, attempt_count = ?, next_attempt_at = ?, lease_until = NULL
      WHERE id = ? AND status = 'pending' AND attempt_count = ? RETURNING id`),
    insertAttempt: c.prepare<unknown, [number, number, number, number, string, Nullable, Nullable, number, Nullable]>(`INSERT INTO delivery_attempts
      (delivery_id, number, started_at, duration_ms, request_headers, response_status, response_body, response_body_truncated, failure_reason)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    endpointOk: c.prepare<unknown, [number]>(`UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id = ? AND consecutive_failures <> 0`),
    endpointFailed: c.prepare<unknown, [number]>(`UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1 WHERE id = ?`),
    /** For the `phrasebook_outbox_pending` gauge: events not yet turned into deliveries, plus deliveries not yet done. */
    backlog: c.prepare<{ n: number }, []>(`SELECT (SELECT count(*) FROM outbox_events WHERE dispatched_at IS NULL)
      + (SELECT count(*) FROM deliveries WHERE status = 'pending') AS n`),
  };
}

export type DeliveryQueries = ReturnType<typeof prepareDeliveryQueries>;
