import type { Database } from "bun:sqlite";
import { newId } from "../common/ids.ts";
import type { Db } from "../storage/db.ts";
import type { AttemptOutcome } from "./attempt.ts";
import { prepareDeliveryQueries, type CandidateRow, type DeliveryQueries, type PendingRow } from "./queries.ts";
import { nextStep, type NextStep } from "./schedule.ts";

export type { PendingRow };

/** A delivery leased for one attempt, with its endpoint's URL and secret. */
export type ClaimedDelivery = Omit<CandidateRow, "nextAttemptAt" | "leaseUntil" | "enabled">;

export interface Claim {
  claimed: ClaimedDelivery[];
  parked: PendingRow[];
  later: PendingRow[];
  gone: number[];
}

/**
 * The sender's queue lives in the database (docs/webhooks.md "Queue"), so a restart or a kill
 * loses nothing: an event stays in the outbox until its deliveries exist, a delivery stays
 * `pending` with its `next_attempt_at` until an attempt's outcome is written, and `lease_until`
 * marks an attempt in flight so nobody starts it twice.
 */
export class DeliveryStore {
  private readonly sql: Database;
  private readonly q: DeliveryQueries;

  constructor(db: Db) {
    this.sql = db.$client;
    this.q = prepareDeliveryQueries(db);
  }

  /**
   * Turns outbox events into one delivery per enabled endpoint subscribed to them (docs/product.md §5),
   * and removes the events no such endpoint takes.
   * Idempotent: deliveries are unique per (event, endpoint), and the event is marked in the same
   * transaction, so a crash between the two repeats nothing. Returns how many events it took.
   */
  dispatchOutbox(now: number, limit: number): number {
    if (!this.q.anyPendingEvent.get()) return 0;
    return this.sql.transaction(() => {
      const events = this.q.pendingEvents.all(limit);
      const endpointsByProject = new Map<number, { id: number; events: string[] }[]>();
      for (const ev of events) {
        let endpoints = endpointsByProject.get(ev.projectId);
        if (!endpoints) {
          const rows = this.q.endpointsOf.all(ev.projectId);
          endpoints = rows.map((r) => ({ id: r.id, events: JSON.parse(r.events) as string[] }));
          endpointsByProject.set(ev.projectId, endpoints);
        }
        let subscribed = false;
        for (const ep of endpoints) {
          if (!ep.events.includes(ev.event)) continue;
          subscribed = true;
          this.q.insertDelivery.run(newId("dlv"), ep.id, ev.projectId, ev.id, ev.event, ev.payload, now, now);
        }
        // An event no endpoint takes is not kept (docs/webhooks.md "Events nobody subscribes
        // to"): a push of 100,000 strings to a project without webhooks wrote 100,000 rows that
        // nothing would ever read.
        if (subscribed) this.q.markDispatched.run(now, ev.id);
        else this.q.deleteEvent.run(ev.id);
      }
      return events.length;
    }).immediate();
  }

  /** Pending deliveries with an id above `afterId` (new ones), and the highest id seen. */
  pendingAfter(afterId: number): { rows: PendingRow[]; maxId: number } {
    return this.sql.transaction(() => {
      const rows = this.q.pendingAfter.all(afterId);
      const maxId = this.q.maxId.get()!.id;
      return { rows, maxId: Math.max(maxId, afterId) };
    })();
  }

  pendingOfEndpoint(endpointId: number): PendingRow[] {
    return this.q.pendingOfEndpoint.all(endpointId);
  }

  enabledAmong(endpointIds: number[]): number[] {
    return this.q.enabledAmong.all(JSON.stringify(endpointIds)).map((r) => r.id);
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
        const row = this.q.candidate.get(id);
        if (!row) {
          out.gone.push(id);
        } else if (!row.enabled) {
          out.parked.push({ id, endpointId: row.endpointId, dueAt: row.nextAttemptAt });
        } else if (row.nextAttemptAt > now || (row.leaseUntil ?? 0) > now) {
          out.later.push({ id, endpointId: row.endpointId, dueAt: Math.max(row.nextAttemptAt, row.leaseUntil ?? 0) });
        } else {
          this.q.lease.run(now + leaseMs, id);
          const { nextAttemptAt: _n, leaseUntil: _l, enabled: _e, ...claimed } = row;
          out.claimed.push(claimed);
        }
      }
    }).immediate();
    return out;
  }

  /** Gives a lease back without an outcome (shutdown): the attempt runs again after a restart. */
  release(id: number): void {
    this.q.release.run(id);
  }

  /**
   * Writes an attempt and what follows from it (docs/interface.md §6.4) in one transaction. The update is
   * conditional on the attempt count it started from, so an outcome can be written only once.
   */
  recordAttempt(d: ClaimedDelivery, outcome: AttemptOutcome, endedAt: number, retryDelaysSeconds: number[]): NextStep | null {
    const number = d.attemptCount + 1;
    const step = nextStep(number, outcome.succeeded, endedAt, retryDelaysSeconds);
    return this.sql.transaction(() => {
      const updated = this.q.finish.get(step.status, number, step.nextAttemptAt, d.id, d.attemptCount);
      if (!updated) return null; // deleted with its endpoint meanwhile
      this.q.insertAttempt.run(
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
      if (outcome.succeeded) this.q.endpointOk.run(d.endpointId);
      else this.q.endpointFailed.run(d.endpointId);
      return step;
    }).immediate();
  }

  /** Events and deliveries waiting to be sent (a gauge on /metrics). */
  backlog(): number {
    return this.q.backlog.get()?.n ?? 0;
  }
}
