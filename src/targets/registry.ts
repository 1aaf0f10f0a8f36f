import type { Changes } from "../changes/changes.ts";
import type { Clock } from "../common/clock.ts";
import { log } from "../common/log.ts";
import { dataDirectory } from "./data-dir.ts";
import { Follower } from "./follower.ts";
import { mirror } from "./mirror.ts";
import { purge } from "./purge/target.ts";
import { prepareCursorQueries } from "./queries.ts";
import { replicaCopies } from "./replica.ts";
import type { PublishTarget, PublishTargetKind, StagedRelease, TargetContext } from "./target.ts";

/**
 * The kinds of publish target, in the order a release reaches them (docs/architecture.md
 * "Publish targets"): the data directory first (the server's own CDN reads it, and every other
 * target copies from it), then the replica's copies, the mirror in object storage, and the purge
 * of a CDN in front of this server (with a mirror, the mirror purges). A new kind is one file and
 * one line here.
 */
export const TARGET_KINDS: readonly PublishTargetKind[] = [dataDirectory, replicaCopies, mirror, purge];

/**
 * The server's publish targets: what the settings turn on, each with a follower of the path
 * record. Publishing goes through `take` (every target, before the release is published) and
 * `settle` (after the change committed: the inline targets replay it before the caller answers;
 * the others are woken and follow at their own pace).
 */
export class PublishTargets {
  private readonly followers: Follower[];
  private started = false;

  constructor(
    readonly targets: readonly PublishTarget[],
    private readonly changes: Changes,
    context: Pick<TargetContext, "db">,
    clock: Clock,
  ) {
    const cursors = prepareCursorQueries(context.db);
    this.followers = targets.filter((t) => t.replay).map((t) => new Follower(t, changes.paths, cursors, clock));
    // Every committed change of a project is announced here (changes.notify), the path record's included.
    changes.subscribe(() => this.wake());
  }

  static fromSettings(context: TargetContext, changes: Changes, clock: Clock): PublishTargets {
    const targets = TARGET_KINDS.map((kind) => kind.make(context)).filter((t): t is PublishTarget => t !== undefined);
    return new PublishTargets(targets, changes, context, clock);
  }

  /** A target by name (its own operations: the replica's pruning in tests, a mirror's status). */
  target<T extends PublishTarget = PublishTarget>(name: string): T | undefined {
    return this.targets.find((t) => t.name === name) as T | undefined;
  }

  /**
   * Hands a staged release to every target in order, before the database publishes it; returns
   * where its files are then (the data directory's folder). A failure drops it from the targets
   * that took it, in reverse order, and is thrown: nothing is published.
   */
  async take(release: StagedRelease): Promise<StagedRelease> {
    const took: PublishTarget[] = [];
    let at = release;
    try {
      for (const target of this.targets) {
        if (!target.take) continue;
        at = (await target.take(at)) ?? at;
        took.push(target);
      }
      return at;
    } catch (err) {
      for (const target of took.reverse()) {
        await target.drop?.(release.publicId).catch((dropErr) => log.error("a publish target could not drop a release that was not published", { target: target.name, release_id: release.publicId, error: String(dropErr) }));
      }
      throw err;
    }
  }

  /** A release taken but not published after all (deleted while its files were written): every target drops it. */
  async drop(releasePublicId: string): Promise<void> {
    for (const target of [...this.targets].reverse()) {
      await target.drop?.(releasePublicId).catch((err) => log.error("a publish target could not drop a release that was not published", { target: target.name, release_id: releasePublicId, error: String(err) }));
    }
  }

  /**
   * After a change committed: the inline targets replay everything new before this resolves (so
   * a deleted release's files are gone when its caller answers); the others are woken.
   */
  async settle(): Promise<void> {
    this.wake();
    await Promise.all(this.followers.filter((f) => f.target.inline).map((f) => f.run()));
  }

  /** Starts following in the background (the server; tests that ask). */
  start(): void {
    this.started = true;
    for (const target of this.targets) target.start?.();
    this.wake();
  }

  private wake(): void {
    for (const f of this.followers) if (this.started || f.target.inline) void f.run();
  }

  async stop(): Promise<void> {
    await Promise.all(this.followers.map((f) => f.stop()));
    for (const target of this.targets) await target.stop?.();
  }
}
