import type { Clock } from "../common/clock.ts";
import { iso } from "../common/clock.ts";
import type { Db } from "../storage/db.ts";
import { outboxEvents } from "../storage/schema.ts";
import { EVENT_VERSION, type Envelope, type EventData, type EventType } from "./events.ts";
import { wakeSender } from "./wake.ts";

/** Anything that can insert: the Db itself or a transaction handle. */
type Writer = Pick<Db, "insert">;

export interface ProjectRef {
  id: number;
  publicId: string;
}

/**
 * Writes an event to the outbox. Call it inside the transaction of the change it reports
 * (CONTRACTS 5), so the change and its event commit or vanish together. The envelope is
 * serialised once here; every delivery sends these exact bytes.
 */
export function enqueueEvent<E extends EventType>(tx: Writer, clock: Clock, project: ProjectRef, event: E, data: EventData[E]): void {
  const now = clock.now();
  const envelope: Envelope<E> = { event, event_version: EVENT_VERSION, occurred_at: iso(now), project_id: project.publicId, data };
  tx.insert(outboxEvents).values({ projectId: project.id, event, payload: JSON.stringify(envelope), createdAt: now }).run();
  wakeSender();
}
