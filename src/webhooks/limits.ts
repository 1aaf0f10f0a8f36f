/**
 * The limits of what the webhooks routes take (docs/architecture.md "Input models"), written once. A
 * module that imports nothing, so the dashboard's script and the command-line client read them
 * without loading the schemas; model.ts builds the schemas from them and re-exports them.
 */

export const URL_MAX_LENGTH = 2048;
export const SECRET_MAX_LENGTH = 256;
/** An event type is a short word (docs/interface.md §6.2); the service names an unknown one. */
export const EVENT_NAME_MAX_LENGTH = 100;
export const EVENTS_MAX_ITEMS = 50;
/** The dashboard shows the newest deliveries of an endpoint; older ones stay reachable by id. */
export const DELIVERY_LIST_DEFAULT = 100;
export const DELIVERY_LIST_MAX = 500;
