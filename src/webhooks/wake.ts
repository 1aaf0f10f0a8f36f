/**
 * Tells the sender in this process that there is new work (an outbox event, a redelivery, a test
 * event, an endpoint enabled again) so it does not wait for its next poll. Callers may signal
 * inside a transaction: listeners run on a later turn of the event loop, after it committed.
 */
type Listener = () => void;

const listeners = new Set<Listener>();
let scheduled = false;

export function onWake(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function wakeSender(): void {
  if (scheduled || listeners.size === 0) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    for (const l of listeners) l();
  });
}
