import { Type, type Static } from "@sinclair/typebox";
import { WholeNumberParam } from "../common/model.ts";
import { URL_MAX_LENGTH, SECRET_MAX_LENGTH, EVENT_NAME_MAX_LENGTH, EVENTS_MAX_ITEMS, DELIVERY_LIST_DEFAULT, DELIVERY_LIST_MAX } from "./limits.ts";
export * from "./limits.ts";

/**
 * What the webhook routes take (docs/architecture.md "Input models"): each limit once, the route
 * schemas built from them, the services' input types from the schemas. The services check what a
 * schema cannot say: an https URL without credentials, known events (named when unknown).
 */

const Url = Type.String({ maxLength: URL_MAX_LENGTH });
const EventName = Type.String({ maxLength: EVENT_NAME_MAX_LENGTH });
const Events = Type.Array(EventName, { maxItems: EVENTS_MAX_ITEMS });
/** `null` or `""` removes the secret; left out, it stays as it is. */
const Secret = Type.Union([Type.String({ maxLength: SECRET_MAX_LENGTH }), Type.Null()]);

export const NewEndpoint = Type.Object({ url: Url, events: Events, secret: Type.Optional(Secret), enabled: Type.Optional(Type.Boolean()) });
export type NewEndpoint = Static<typeof NewEndpoint>;

export const EndpointPatch = Type.Object({
  url: Type.Optional(Url),
  events: Type.Optional(Events),
  secret: Type.Optional(Secret),
  enabled: Type.Optional(Type.Boolean()),
});
export type EndpointPatch = Static<typeof EndpointPatch>;

/** A test delivery of one event; without one, the endpoint's first (docs/webhooks.md). */
export const TestEvent = Type.Optional(Type.Object({ event: Type.Optional(EventName) }));
export type TestEvent = Static<typeof TestEvent>;

/** `limit` is text the route reads with parsePositiveInt, so a bad one is a 400 naming it. */
export const DeliveryListQuery = Type.Object({ limit: Type.Optional(WholeNumberParam) });
export type DeliveryListQuery = Static<typeof DeliveryListQuery>;
