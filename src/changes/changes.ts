import type { Clock } from "../common/clock.ts";
import { iso } from "../common/clock.ts";
import type { Db } from "../storage/db.ts";
import { EVENT_VERSION, type Envelope, type EventData, type EventType } from "./events.ts";
import { PathRecord } from "./paths.ts";
import { prepareChangeQueries, type ChangeQueries } from "./queries.ts";

/** The project a change belongs to: its row id and the public id webhook envelopes carry. */
export interface ProjectRef {
  id: number;
  publicId: string;
}

export type ProjectChangeListener = (projectId: number) => void;

/**
 * Where every committed change is announced, in two ways (docs/architecture.md "Changes"):
 *
 * - `event()` writes the webhook event to the outbox. Call it inside the transaction of the change
 *   it reports, so the change and its event commit or vanish together (docs/product.md §5). The
 *   envelope is serialised once here; every delivery sends these exact bytes. The sender in this
 *   process is woken on a later turn of the event loop, after the transaction committed. An event
 *   no enabled endpoint of the project subscribes to, as that transaction sees them, is not written
 *   at all (docs/webhooks.md "Events nobody subscribes to").
 * - `notify()` tells in-process caches (the CDN files, the public API answers) that a project
 *   changed. Call it after the commit; listeners run synchronously.
 * - `paths` records what changed at the CDN's paths (a release's files, `latest`, a channel, a
 *   slug, a deletion), inside the transaction of the change, for the publish targets to replay
 *   (docs/architecture.md "Publish targets"); `notify()` wakes them.
 */
export class Changes {
  private readonly listeners: ProjectChangeListener[] = [];
  private readonly wakeListeners = new Set<() => void>();
  private wakeScheduled = false;
  private readonly queries: ChangeQueries;
  readonly paths: PathRecord;

  constructor(db: Db, private readonly clock: Clock) {
    this.paths = new PathRecord(db, clock);
    // One prepared insert: a 10,000-key import writes an event per key, and the query builder costs
    // about ten times more per insert. Prepared on the connection, so it runs inside drizzle's
    // transactions on that connection too.
    this.queries = prepareChangeQueries(db);
  }

  event<E extends EventType>(project: ProjectRef, event: E, data: EventData[E]): void {
    if (!this.queries.subscribed.get(project.id, JSON.stringify(event))) return;
    const now = this.clock.now();
    const envelope: Envelope<E> = { event, event_version: EVENT_VERSION, occurred_at: iso(now), project_id: project.publicId, data };
    this.queries.insertEvent.run(project.id, event, JSON.stringify(envelope), now);
    this.wake();
  }

  subscribe(listener: ProjectChangeListener): void {
    this.listeners.push(listener);
  }

  notify(projectId: number): void {
    for (const listener of this.listeners) listener(projectId);
  }

  /** The webhook sender listens here for new work (an event, a redelivery, an endpoint enabled again). */
  onWake(listener: () => void): () => void {
    this.wakeListeners.add(listener);
    return () => this.wakeListeners.delete(listener);
  }

  /** Asks the sender to look for work soon; many calls before it runs make one wake-up. */
  wake(): void {
    if (this.wakeScheduled || this.wakeListeners.size === 0) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      for (const listener of this.wakeListeners) listener();
    });
  }
}
