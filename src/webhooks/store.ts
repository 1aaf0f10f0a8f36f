import type { Database, Statement } from "bun:sqlite";
import { newId } from "../common/ids.ts";
import type { Db } from "../storage/db.ts";
import type { AttemptOutcome } from "./attempt.ts";
import { nextStep, type NextStep } from "./schedule.ts";

/**
 * The sender's queue lives in the database (STYLE habit 7), so a restart or a kill loses nothing:
 * an event stays in the outbox until its deliveries exist, a delivery stays `pending` with its
 * `next_attempt_at` until an attempt's outcome is written, and `lease_until` marks an attempt in
 * flight so nobody starts it twice. Hot paths use prepared SQL; they run hundreds of times a second.
 */
export interface ClaimedDelivery {
  id: number;
  publicId: string;
  endpointId: number;
  event: string;
  payload: string;
  attemptCount: number;
  url: string;
  secret: string | null;
}

export interface PendingRow {
  id: number;
  endpointId: number;
  dueAt: number;
}

export interface Claim {
  claimed: ClaimedDelivery[];
  parked: PendingRow[];
  later: PendingRow[];
  gone: number[];
}

interface OutboxRow {
  id: number;
  projectId: number;
  event: string;
  payload: string;
}

export class DeliveryStore {
  private readonly sql: Database;
  private readonly q: Record<string, Statement>;

  constructor(db: Db) {
    this.sql = db.$client;
    const s = (text: string) => this.sql.prepare(text);
    this.q = {
      pendingEvents: s(`SELECT id, project_id AS projectId, event, payload FROM outbox_events
        WHERE dispatched_at IS NULL ORDER BY id LIMIT ?`),
      anyPendingEvent: s(`SELECT 1 AS yes FROM outbox_events WHERE dispatched_at IS NULL LIMIT 1`),
      endpointsOf: s(`SELECT id, events FROM webhook_endpoints WHERE project_id = ? AND enabled = 1`),
      insertDelivery: s(`INSERT INTO deliveries
        (public_id, endpoint_id, project_id, outbox_event_id, event, payload, status, attempt_count, next_attempt_at, created_at)
        VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)
        ON CONFLICT (outbox_event_id, endpoint_id) DO NOTHING`),
      markDispatched: s(`UPDATE outbox_events SET dispatched_at = ? WHERE id = ?`),
      pendingAfter: s(`SELECT id, endpoint_id AS endpointId, MAX(next_attempt_at, COALESCE(lease_until, 0)) AS dueAt
        FROM deliveries WHERE id > ? AND status = 'pending' ORDER BY id`),
      maxId: s(`SELECT COALESCE(MAX(id), 0) AS id FROM deliveries`),
      pendingOfEndpoint: s(`SELECT id, endpoint_id AS endpointId, MAX(next_attempt_at, COALESCE(lease_until, 0)) AS dueAt
        FROM deliveries WHERE endpoint_id = ? AND status = 'pending'`),
      enabledAmong: s(`SELECT id FROM webhook_endpoints WHERE enabled = 1 AND id IN (SELECT value FROM json_each(?))`),
      candidate: s(`SELECT d.id, d.public_id AS publicId, d.endpoint_id AS endpointId, d.event, d.payload,
          d.attempt_count AS attemptCount, d.next_attempt_at AS nextAttemptAt, d.lease_until AS leaseUntil,
          e.url, e.secret, e.enabled
        FROM deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.id = ? AND d.status = 'pending'`),
      lease: s(`UPDATE deliveries SET lease_until = ? WHERE id = ?`),
      release: s(`UPDATE deliveries SET lease_until = NULL WHERE id = ? AND status = 'pending'`),
      finish: s(`UPDATE deliveries SET status = ?, attempt_count = ?, next_attempt_at = ?, lease_until = NULL
        WHERE id = ? AND status = 'pending' AND attempt_count = ? RETURNING id`),
      insertAttempt: s(`INSERT INTO delivery_attempts (delivery_id, number, started_at, duration_ms, request_headers,
        response_status, response_body, response_body_truncated, failure_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      endpointOk: s(`UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id = ? AND consecutive_failures <> 0`),
      endpointFailed: s(`UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1 WHERE id = ?`),
    };
  }

  /**
   * Turns outbox events into one delivery per enabled endpoint subscribed to them (CONTRACTS 5).
   * Idempotent: deliveries are unique per (event, endpoint), and the event is marked in the same
   * transaction, so a crash between the two repeats nothing. Returns how many events it took.
   */
  dispatchOutbox(now: number, limit: number): number {
    if (!this.q.anyPendingEvent!.get()) return 0;
    return this.sql.transaction(() => {
      const events = this.q.pendingEvents!.all(limit) as OutboxRow[];
      const endpointsByProject = new Map<number, { id: number; events: string[] }[]>();
      for (const ev of events) {
        let endpoints = endpointsByProject.get(ev.projectId);
        if (!endpoints) {
          const rows = this.q.endpointsOf!.all(ev.projectId) as { id: number; events: string }[];
          endpoints = rows.map((r) => ({ id: r.id, events: JSON.parse(r.events) as string[] }));
          endpointsByProject.set(ev.projectId, endpoints);
        }
        for (const ep of endpoints) {
          if (!ep.events.includes(ev.event)) continue;
          this.q.insertDelivery!.run(newId("dlv"), ep.id, ev.projectId, ev.id, ev.event, ev.payload, now, now);
        }
        this.q.markDispatched!.run(now, ev.id);
      }
      return events.length;
    }).immediate();
  }

  /** Pending deliveries with an id above `afterId` (new ones), and the highest id seen. */
  pendingAfter(afterId: number): { rows: PendingRow[]; maxId: number } {
    return this.sql.transaction(() => {
      const rows = this.q.pendingAfter!.all(afterId) as PendingRow[];
      const maxId = (this.q.maxId!.get() as { id: number }).id;
      return { rows, maxId: Math.max(maxId, afterId) };
    })();
  }

  pendingOfEndpoint(endpointId: number): PendingRow[] {
    return this.q.pendingOfEndpoint!.all(endpointId) as PendingRow[];
  }

  enabledAmong(endpointIds: number[]): number[] {
    return (this.q.enabledAmong!.all(JSON.stringify(endpointIds)) as { id: number }[]).map((r) => r.id);
  }

  /**
   * Leases the given deliveries for one attempt each, re-checking them against the database:
   * a delivery that is gone or finished is dropped, one of a disabled endpoint is parked (it
   * stays pending), one not yet due (another process's lease) comes back with its due time.
   */
  claim(ids: number[], now: number, leaseMs: number): Claim {
    const out: Claim = { claimed: [], parked: [], later: [], gone: [] };
    this.sql.transaction(() => {
      for (const id of ids) {
        const row = this.q.candidate!.get(id) as (ClaimedDelivery & { nextAttemptAt: number; leaseUntil: number | null; enabled: number }) | null;
        if (!row) {
          out.gone.push(id);
        } else if (!row.enabled) {
          out.parked.push({ id, endpointId: row.endpointId, dueAt: row.nextAttemptAt });
        } else if (row.nextAttemptAt > now || (row.leaseUntil ?? 0) > now) {
          out.later.push({ id, endpointId: row.endpointId, dueAt: Math.max(row.nextAttemptAt, row.leaseUntil ?? 0) });
        } else {
          this.q.lease!.run(now + leaseMs, id);
          const { nextAttemptAt: _n, leaseUntil: _l, enabled: _e, ...claimed } = row;
          out.claimed.push(claimed);
        }
      }
    }).immediate();
    return out;
  }

  /** Gives a lease back without an outcome (shutdown): the attempt runs again after a restart. */
  release(id: number): void {
    this.q.release!.run(id);
  }

  /**
   * Writes an attempt and what follows from it (spec 6.4) in one transaction. The update is
   * conditional on the attempt count it started from, so an outcome can be written only once.
   */
  recordAttempt(d: ClaimedDelivery, outcome: AttemptOutcome, endedAt: number, retryDelaysSeconds: number[]): NextStep | null {
    const number = d.attemptCount + 1;
    const step = nextStep(number, outcome.succeeded, endedAt, retryDelaysSeconds);
    return this.sql.transaction(() => {
      const updated = this.q.finish!.get(step.status, number, step.nextAttemptAt, d.id, d.attemptCount);
      if (!updated) return null; // deleted with its endpoint meanwhile
      this.q.insertAttempt!.run(
        d.id,
        number,
        outcome.startedAt,
        outcome.durationMs,
        JSON.stringify(outcome.requestHeaders),
        outcome.responseStatus,
        outcome.responseBody,
        outcome.responseBodyTruncated ? 1 : 0,
        outcome.failureReason,
      );
      if (outcome.succeeded) this.q.endpointOk!.run(d.endpointId);
      else this.q.endpointFailed!.run(d.endpointId);
      return step;
    }).immediate();
  }
}
