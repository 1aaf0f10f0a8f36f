/** The webhook event types and the envelope every delivery carries (docs/interface.md §6.2). */
export const EVENT_TYPES = [
  "key_created",
  "key_updated",
  "key_deleted",
  "translation_created",
  "translation_updated",
  "translation_approved",
  "release_created",
  "release_published",
  "release_updated",
  "release_deleted",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_VERSION = 1;

export interface EventData {
  key_created: { key: string; context: string | null };
  key_updated: { key: string; context: string | null };
  key_deleted: { key: string };
  translation_created: { key: string; language_code: string; value: string; status: string };
  translation_updated: { key: string; language_code: string; value: string; status: string };
  translation_approved: { key: string; language_code: string; value: string; status: string };
  release_created: { release_id: string; name: string; tag: string; status: string };
  release_published: { release_id: string; name: string; tag: string; status: string };
  release_updated: { release_id: string; name: string; tag: string };
  release_deleted: { release_id: string; name: string; tag: string };
}

export interface Envelope<E extends EventType = EventType> {
  event: E;
  event_version: number;
  occurred_at: string;
  project_id: string;
  data: EventData[E];
}

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
