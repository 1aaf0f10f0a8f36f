import { EVENT_VERSION, type Envelope, type EventData, type EventType } from "../changes/events.ts";
import { iso } from "../common/clock.ts";
import type { ProjectRow } from "../storage/schema.ts";

/**
 * "Send test event" (docs/interface.md §6.5) posts a sample of a subscribed event: the real envelope with
 * made-up data of the right shape, so a receiver's parser sees exactly what it will get later.
 * The sample release id has the shape of a real one and names no release.
 */
const SAMPLE_RELEASE_ID = "rel_SampleTestEvent00000";

function sampleData(event: EventType, project: ProjectRow): EventData[EventType] {
  const translation = { key: "checkout.pay_button", language_code: project.baseLanguageCode, value: "Pay now", status: "translated" };
  const release = { release_id: SAMPLE_RELEASE_ID, name: "Sample release", tag: "v0.0.0-test" };
  switch (event) {
    case "key_created":
    case "key_updated":
      return { key: "checkout.pay_button", context: "Sample sent by Send test event" };
    case "key_deleted":
      return { key: "checkout.pay_button" };
    case "translation_created":
    case "translation_updated":
      return translation;
    case "translation_approved":
      return { ...translation, status: "approved" };
    case "release_created":
      return { ...release, status: "draft" };
    case "release_published":
      return { ...release, status: "published" };
    case "release_updated":
    case "release_deleted":
      return release;
  }
}

export function sampleEnvelope(event: EventType, project: ProjectRow, now: number): Envelope {
  return { event, event_version: EVENT_VERSION, occurred_at: iso(now), project_id: project.publicId, data: sampleData(event, project) };
}
