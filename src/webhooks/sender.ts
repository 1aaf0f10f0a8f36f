import type { Changes } from "../changes/changes.ts";
import { EVENT_VERSION } from "../changes/events.ts";
import type { Clock } from "../common/clock.ts";
import { log } from "../common/log.ts";
import type { HttpFetch } from "../deps.ts";
import type { Db } from "../storage/db.ts";
import { parseAllowList, type AllowList } from "./address-guard.ts";
import { sendAttempt, type AttemptOutcome } from "./attempt.ts";
import { DueQueue } from "./due-queue.ts";
import { DeliveryStore, type ClaimedDelivery, type PendingRow } from "./store.ts";
import { systemHostResolver, type HostResolver } from "./target.ts";

/** Attempts in flight at once, in all, and per endpoint: a dead receiver holds at most its share. */
export const MAX_IN_FLIGHT = 512;
export const MAX_IN_FLIGHT_PER_ENDPOINT = 32;
/** Safety net behind the wake-ups: picks up lapsed leases of a killed process and missed signals. */
export const POLL_INTERVAL_MS = 1000;
/** How often deliveries of disabled endpoints are checked for the endpoint being enabled again. */
export const UNPARK_CHECK_MS = 250;
/** Outbox events turned into deliveries per transaction. */
export const DISPATCH_BATCH = 500;
/** A lease outlives the attempt's own timeout by this much, so a live attempt is never doubled. */
export const LEASE_MARGIN_MS = 2000;
/**
 * Graceful shutdown waits this long for attempts in flight, then leaves them scheduled: well
 * inside the 10 s a container runtime gives between SIGTERM and SIGKILL.
 */
export const SHUTDOWN_GRACE_MS = 3000;

export interface SenderConfig {
  retryDelaysSeconds: number[];
  timeoutSeconds: number;
  allowCidrs: string[];
}

export interface SenderDeps {
  db: Db;
  clock: Clock;
  /** Wakes the sender when there is new work (an event, a redelivery, an endpoint enabled again). */
  changes: Pick<Changes, "onWake">;
  config: SenderConfig;
  /** Every attempt goes through it (AppDeps.fetch); it must keep Bun's `tls` and `proxy` options. */
  fetch: HttpFetch;
  resolver?: HostResolver;
  /** Extra trusted CA (PEM) for in-process tests; the server relies on NODE_EXTRA_CA_CERTS. */
  ca?: string;
  shutdownGraceMs?: number;
  /** Told about every finished attempt (the server logs and counts them). */
  onAttempt?: (delivery: ClaimedDelivery, outcome: AttemptOutcome, nextStatus: string | undefined) => void;
}

const SHUTDOWN = new Error("sender stopping");

/**
 * Delivers webhooks in the server process (docs/product.md §5): outbox -> deliveries -> attempts, many
 * at once, each receiver limited to its own share of the concurrency so that a slow one never
 * holds up the others. Background work that never overlaps itself (one tick at a time) and stops
 * on shutdown without losing anything: whatever is not finished stays scheduled in the database.
 */
export class WebhookSender {
  private readonly store: DeliveryStore;
  private readonly queue = new DueQueue();
  private readonly allow: AllowList;
  private readonly resolver: HostResolver;
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly perEndpoint = new Map<number, number>();
  private readonly parked = new Set<number>();
  private readonly stopSignal = new AbortController();
  private maxKnownId = 0;
  private running = false;
  private tickQueued = false;
  private outboxFull = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;
  private unsubscribe: (() => void) | undefined;
  private rotate = 0;
  private lastUnparkCheck = 0;

  constructor(private readonly deps: SenderDeps) {
    this.store = new DeliveryStore(deps.db);
    this.allow = parseAllowList(deps.config.allowCidrs);
    this.resolver = deps.resolver ?? systemHostResolver;
  }

  /** Events and deliveries waiting to be sent. */
  backlog(): number {
    return this.store.backlog();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.deps.changes.onWake(() => this.wake());
    this.wake();
  }

  /** Runs a tick soon; many calls before it runs make one tick. */
  wake(): void {
    if (!this.running || this.tickQueued) return;
    this.tickQueued = true;
    setImmediate(() => {
      this.tickQueued = false;
      if (!this.running) return;
      try {
        this.tick();
      } catch (err) {
        log.error("webhook sender tick failed", { error: String(err) });
        this.setTimer(this.deps.clock.now() + POLL_INTERVAL_MS);
      }
    });
  }

  private tick(): void {
    const now = this.deps.clock.now();
    const taken = this.store.dispatchOutbox(now, DISPATCH_BATCH);
    this.outboxFull = taken === DISPATCH_BATCH;
    this.loadNew();
    this.unpark(now);
    this.claimAndSend(now);
    if (this.outboxFull) this.wake();
    const next = this.queue.earliest(this.queue.endpoints().filter((e) => this.room(e) > 0));
    this.setTimer(Math.min(next ?? Infinity, now + POLL_INTERVAL_MS));
  }

  private loadNew(): void {
    const { rows, maxId } = this.store.pendingAfter(this.maxKnownId);
    this.maxKnownId = maxId;
    for (const r of rows) this.queue.add(r.endpointId, { id: r.id, dueAt: r.dueAt });
  }

  /**
   * Brings back the pending deliveries of endpoints that were disabled and are enabled again.
   * Checked at most every UNPARK_CHECK_MS, not on every tick, so a long-disabled endpoint costs nothing.
   */
  private unpark(now: number): void {
    if (this.parked.size === 0 || now - this.lastUnparkCheck < UNPARK_CHECK_MS) return;
    this.lastUnparkCheck = now;
    for (const endpointId of this.store.enabledAmong([...this.parked])) {
      this.parked.delete(endpointId);
      for (const r of this.store.pendingOfEndpoint(endpointId)) this.queue.add(r.endpointId, { id: r.id, dueAt: r.dueAt });
    }
  }

  private room(endpointId: number): number {
    return Math.min(MAX_IN_FLIGHT_PER_ENDPOINT - (this.perEndpoint.get(endpointId) ?? 0), MAX_IN_FLIGHT - this.inFlight.size);
  }

  private claimAndSend(now: number): void {
    const endpoints = this.queue.endpoints();
    if (endpoints.length === 0) return;
    // Round-robin start, so that no endpoint is always first in line for the shared slots.
    this.rotate = (this.rotate + 1) % endpoints.length;
    const ids: number[] = [];
    for (let i = 0; i < endpoints.length && this.inFlight.size + ids.length < MAX_IN_FLIGHT; i++) {
      const endpointId = endpoints[(this.rotate + i) % endpoints.length]!;
      const free = Math.min(this.room(endpointId), MAX_IN_FLIGHT - this.inFlight.size - ids.length);
      if (free > 0) for (const item of this.queue.takeDue(endpointId, now, free)) ids.push(item.id);
    }
    if (ids.length === 0) return;
    const claim = this.store.claim(ids, now, this.leaseMs());
    for (const id of claim.gone) this.queue.forget(id);
    for (const p of claim.parked) {
      this.queue.forget(p.id);
      this.parked.add(p.endpointId);
    }
    this.requeue(claim.later);
    for (const d of claim.claimed) this.launch(d);
  }

  private leaseMs(): number {
    return this.deps.config.timeoutSeconds * 1000 + LEASE_MARGIN_MS;
  }

  private requeue(rows: PendingRow[]): void {
    for (const r of rows) {
      this.queue.forget(r.id);
      this.queue.add(r.endpointId, { id: r.id, dueAt: r.dueAt });
    }
  }

  private launch(d: ClaimedDelivery): void {
    this.perEndpoint.set(d.endpointId, (this.perEndpoint.get(d.endpointId) ?? 0) + 1);
    const run = this.attempt(d).catch((err: unknown) => {
      // Not a receiver's doing (a bug, a database error): log it; the attempt runs again once its lease lapses.
      log.error("webhook attempt crashed", { delivery: d.publicId, error: String(err) });
      this.queue.forget(d.id);
      this.queue.add(d.endpointId, { id: d.id, dueAt: this.deps.clock.now() + this.leaseMs() });
    }).finally(() => {
      this.inFlight.delete(d.id);
      const n = (this.perEndpoint.get(d.endpointId) ?? 1) - 1;
      if (n > 0) this.perEndpoint.set(d.endpointId, n);
      else this.perEndpoint.delete(d.endpointId);
      this.wake();
    });
    this.inFlight.set(d.id, run);
  }

  private async attempt(d: ClaimedDelivery): Promise<void> {
    const { config, clock } = this.deps;
    let outcome: AttemptOutcome;
    try {
      outcome = await sendAttempt(
        { url: d.url, secret: d.secret, event: d.event, eventVersion: EVENT_VERSION, deliveryPublicId: d.publicId, payload: d.payload },
        { fetch: this.deps.fetch, resolver: this.resolver, allow: this.allow, timeoutMs: config.timeoutSeconds * 1000, ca: this.deps.ca, signal: this.stopSignal.signal, now: () => clock.now() },
      );
    } catch (err) {
      if (err !== SHUTDOWN) throw err;
      // Stopped mid-attempt: no outcome, the delivery stays due and runs again after a restart.
      this.queue.forget(d.id);
      this.store.release(d.id);
      return;
    }
    this.queue.forget(d.id);
    const step = this.store.recordAttempt(d, outcome, clock.now(), config.retryDelaysSeconds);
    this.deps.onAttempt?.(d, outcome, step?.status);
    if (step?.status === "pending") this.queue.add(d.endpointId, { id: d.id, dueAt: step.nextAttemptAt });
    // The URL stays out of the log: receivers put tokens in query strings.
    if (step?.status === "failed") log.warn("webhook delivery failed", { delivery: d.publicId, event: d.event, last_reason: outcome.failureReason });
  }

  private setTimer(at: number): void {
    if (!this.running) return;
    if (this.timer && at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.wake();
    }, Math.max(0, at - this.deps.clock.now()));
  }

  /**
   * Graceful shutdown: take no new work, give attempts in flight a short while to finish, then
   * abort the rest and hand their leases back, so they are due again as soon as the server is.
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    const grace = Math.min(this.deps.shutdownGraceMs ?? SHUTDOWN_GRACE_MS, this.deps.config.timeoutSeconds * 1000);
    const all = Promise.allSettled([...this.inFlight.values()]);
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([all, new Promise((r) => (graceTimer = setTimeout(r, grace)))]);
    clearTimeout(graceTimer);
    this.stopSignal.abort(SHUTDOWN);
    await all;
  }
}
