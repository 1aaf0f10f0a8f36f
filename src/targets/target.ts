import type { RecordedPathChange } from "../changes/paths.ts";
import type { Clock } from "../common/clock.ts";
import type { Settings } from "../config/settings.ts";
import type { Db } from "../storage/db.ts";
import type { ObjectRenderer } from "./render.ts";

/**
 * A place releases go (docs/architecture.md "Publish targets"): the data directory the server's
 * own CDN reads, the copies beside a replica, object storage behind another CDN. Each is one file
 * exporting a `PublishTargetKind`, and `registry.ts` names them in one list.
 *
 * A target takes part in two ways, both optional:
 * - `take`: before the database calls a release published, with its files flushed in `dir`. A
 *   failure stops the publish; the targets that took the release are asked to `drop` it. For
 *   places a database must never get ahead of (the data directory, the replica).
 * - `replay`: after, every change of the path record (changes/paths.ts), in order, from the
 *   target's own cursor, at its own pace; retried with backoff until it succeeds. A change may be
 *   replayed more than once (a restart between the replay and the cursor's write), so a replay
 *   must be idempotent.
 */
export interface StagedRelease {
  /** The release's public id: its folder's name in the data directory. */
  publicId: string;
  /** Where its files are now (flushed, dot files aside). */
  dir: string;
}

export interface PublishTarget {
  /** Names the target's cursor and its log lines. */
  readonly name: string;
  /**
   * Replayed by the change's own caller before it answers (a deletion's files are gone when the
   * 204 is sent), not in the background. For local, fast targets: the data directory.
   */
  readonly inline?: boolean;
  /** Takes a release's files before it is published; may move them (returns where they are then). */
  take?(release: StagedRelease): Promise<StagedRelease | void>;
  /** The release was not published after all: forget what `take` kept. */
  drop?(releasePublicId: string): Promise<void>;
  replay?(change: RecordedPathChange): Promise<void>;
  /**
   * A target without a cursor (new, or turned on later) first brings itself up to date from what
   * the database serves now; its cursor then starts at the newest change made before this began.
   */
  catchUp?(): Promise<unknown>;
  /** Background work of its own (the replica's pruning), started and stopped with the server. */
  start?(): void;
  stop?(): Promise<void>;
}

/** Outgoing HTTP: the server's own (`deps.fetch`, docs/architecture.md "Requests the server makes"). */
export type TargetFetch = (input: string | URL | Request, init?: BunFetchRequestInit) => Promise<Response>;

/** What a kind of target is made from: the server's settings, its database, and how objects are made. */
export interface TargetContext {
  settings: Settings;
  db: Db;
  clock: Clock;
  /** For targets that send requests (object storage, purges). */
  fetch: TargetFetch;
  /**
   * Makes the object a put of `pathOps` names, as the CDN answers it (render.ts). Given by the
   * server, which knows every kind of object its CDN serves.
   */
  renderer: ObjectRenderer;
}

/** One kind of target: `make` returns the target, or undefined when the settings leave it off. */
export interface PublishTargetKind {
  readonly name: string;
  make(context: TargetContext): PublishTarget | undefined;
}
