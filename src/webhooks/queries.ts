import type { Db } from "../storage/db.ts";
import { named, selected, type RowOf, type Stored } from "../storage/names.ts";
import { deliveries, deliveryAttempts, outboxEvents, webhookEndpoints } from "../storage/schema.ts";

const o = named(outboxEvents);
const e = named(webhookEndpoints);
const dl = named(deliveries);
const at = named(deliveryAttempts);
// The candidate's statement: the delivery `d` with its endpoint `ep`.
const d = named(deliveries, "d");
const ep = named(webhookEndpoints, "ep");

const outboxRow = selected(o, "id", "projectId", "event", "payload");
const candidateDelivery = selected(d, "id", "publicId", "endpointId", "event", "payload", "attemptCount", "nextAttemptAt", "leaseUntil");
const candidateEndpoint = selected(ep, "url", "secret", "enabled");

export type OutboxRow = RowOf<typeof outboxRow>;

/** A pending delivery and when it is due: its next attempt, or the end of an attempt's lease if later. */
export type PendingRow = Pick<Stored<typeof deliveries>, "id" | "endpointId"> & { dueAt: number };

/** A pending delivery with its endpoint; a pending delivery always has the time of its next attempt. */
export type CandidateRow = Omit<RowOf<typeof candidateDelivery>, "nextAttemptAt"> & RowOf<typeof candidateEndpoint> & { nextAttemptAt: number };

type Nullable = string | number | null;

/**
 * The sender's statements, prepared once: they run hundreds of times a second under load
 * (docs/architecture.md "Reaching SQLite").
 */
export function prepareDeliveryQueries(db: Db) {
  const sqlite = db.$client;
  const due = `MAX(${dl.nextAttemptAt}, COALESCE(${dl.leaseUntil}, 0)) AS dueAt`;
  return {
    pendingEvents: sqlite.prepare<OutboxRow, [number]>(`SELECT ${outboxRow} FROM ${o}
      WHERE ${o.dispatchedAt} IS NULL ORDER BY ${o.id} LIMIT ?`),
    anyPendingEvent: sqlite.prepare<{ yes: number }, []>(`SELECT 1 AS yes FROM ${o} WHERE ${o.dispatchedAt} IS NULL LIMIT 1`),
    endpointsOf: sqlite.prepare<Pick<Stored<typeof webhookEndpoints>, "id" | "events">, [number]>(
      `SELECT ${e.id}, ${e.events} FROM ${e} WHERE ${e.projectId} = ? AND ${e.enabled} = 1`,
    ),
    insertDelivery: sqlite.prepare<unknown, [string, number, number, number, string, string, number, number]>(`INSERT INTO ${dl}
      (${dl.publicId}, ${dl.endpointId}, ${dl.projectId}, ${dl.outboxEventId}, ${dl.event}, ${dl.payload}, ${dl.status}, ${dl.attemptCount}, ${dl.nextAttemptAt}, ${dl.createdAt})
      VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)
      ON CONFLICT (${dl.outboxEventId}, ${dl.endpointId}) DO NOTHING`),
    markDispatched: sqlite.prepare<unknown, [number, number]>(`UPDATE ${o} SET ${o.dispatchedAt} = ? WHERE ${o.id} = ?`),
    deleteEvent: sqlite.prepare<unknown, [number]>(`DELETE FROM ${o} WHERE ${o.id} = ?`),
    pendingAfter: sqlite.prepare<PendingRow, [number]>(`SELECT ${selected(dl, "id", "endpointId")}, ${due}
      FROM ${dl} WHERE ${dl.id} > ? AND ${dl.status} = 'pending' ORDER BY ${dl.id}`),
    maxId: sqlite.prepare<{ id: number }, []>(`SELECT COALESCE(MAX(${dl.id}), 0) AS id FROM ${dl}`),
    pendingOfEndpoint: sqlite.prepare<PendingRow, [number]>(`SELECT ${selected(dl, "id", "endpointId")}, ${due}
      FROM ${dl} WHERE ${dl.endpointId} = ? AND ${dl.status} = 'pending'`),
    enabledAmong: sqlite.prepare<{ id: number }, [string]>(`SELECT ${e.id} FROM ${e} WHERE ${e.enabled} = 1 AND ${e.id} IN (SELECT value FROM json_each(?))`),
    candidate: sqlite.prepare<CandidateRow, [number]>(`SELECT ${candidateDelivery}, ${candidateEndpoint}
      FROM ${d} JOIN ${ep} ON ${ep.id} = ${d.endpointId}
      WHERE ${d.id} = ? AND ${d.status} = 'pending'`),
    lease: sqlite.prepare<unknown, [number, number]>(`UPDATE ${dl} SET ${dl.leaseUntil} = ? WHERE ${dl.id} = ?`),
    release: sqlite.prepare<unknown, [number]>(`UPDATE ${dl} SET ${dl.leaseUntil} = NULL WHERE ${dl.id} = ? AND ${dl.status} = 'pending'`),
    finish: sqlite.prepare<{ id: number }, [string, number, number | null, number, number]>(`UPDATE ${dl}
      SET ${dl.status} = ?, ${dl.attemptCount} = ?, ${dl.nextAttemptAt} = ?, ${dl.leaseUntil} = NULL
      WHERE ${dl.id} = ? AND ${dl.status} = 'pending' AND ${dl.attemptCount} = ? RETURNING ${dl.id}`),
    insertAttempt: sqlite.prepare<unknown, [number, number, number, number, string, Nullable, Nullable, number, Nullable]>(`INSERT INTO ${at}
      (${at.deliveryId}, ${at.number}, ${at.startedAt}, ${at.durationMs}, ${at.requestHeaders}, ${at.responseStatus}, ${at.responseBody}, ${at.responseBodyTruncated}, ${at.failureReason})
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    endpointOk: sqlite.prepare<unknown, [number]>(`UPDATE ${e} SET ${e.consecutiveFailures} = 0 WHERE ${e.id} = ? AND ${e.consecutiveFailures} <> 0`),
    endpointFailed: sqlite.prepare<unknown, [number]>(`UPDATE ${e} SET ${e.consecutiveFailures} = ${e.consecutiveFailures} + 1 WHERE ${e.id} = ?`),
    /** For the `phrasebook_outbox_pending` gauge: events not yet turned into deliveries, plus deliveries not yet done. */
    backlog: sqlite.prepare<{ n: number }, []>(`SELECT (SELECT count(*) FROM ${o} WHERE ${o.dispatchedAt} IS NULL)
      + (SELECT count(*) FROM ${dl} WHERE ${dl.status} = 'pending') AS n`),
  };
}

export type DeliveryQueries = ReturnType<typeof prepareDeliveryQueries>;
