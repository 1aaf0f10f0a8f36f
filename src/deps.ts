import type { Changes } from "./changes/changes.ts";
import type { Clock } from "./common/clock.ts";
import type { Settings } from "./config/settings.ts";
import type { Observability } from "./observability/index.ts";
import type { Db } from "./storage/db.ts";
import type { PublishTargets } from "./targets/registry.ts";

/**
 * Outgoing HTTP: Bun's `fetch`, with its own options (`tls`, `proxy`, `decompress`). Every request
 * the server makes goes through the one in `AppDeps` (webhook deliveries, and the identity
 * provider's endpoints for single sign-on), so the network is a dependency like the clock (docs/architecture.md "Requests
 * the server makes").
 */
export type HttpFetch = (input: string | URL | Request, init?: BunFetchRequestInit) => Promise<Response>;

/**
 * The wiring every part of the app is built from (docs/architecture.md). Made once by the server
 * (or a test) and handed to `createApp`; nothing else holds process state.
 */
export interface AppDeps {
  settings: Settings;
  db: Db;
  clock: Clock;
  /** Where services announce committed changes: webhook events and cache purges. */
  changes: Changes;
  /** Counters and the request log; capabilities count what only they can see. */
  observability: Observability;
  /** Outgoing HTTP (see HttpFetch). */
  fetch: HttpFetch;
  /**
   * Where releases go: the data directory, the replica's copies when the server replicates, and
   * any other target the settings turn on (docs/architecture.md "Publish targets").
   */
  targets: PublishTargets;
}

/** What a service that changes something needs: the database, the time, and where to announce it. */
export type ServiceDeps = Pick<AppDeps, "db" | "clock" | "changes">;
