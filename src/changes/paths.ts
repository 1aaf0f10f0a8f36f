import type { Clock } from "../common/clock.ts";
import type { Db } from "../storage/db.ts";
import { preparePathQueries, type PathQueries } from "./queries.ts";

/**
 * The record of what changed at the CDN's paths (docs/architecture.md "Publish targets"). Each
 * change is written in the transaction of the action that made it, in order, and says enough on
 * its own (slugs, languages, formats as they were then) that a publish target can replay it with
 * nothing but the release files: the data directory removes a deleted release's folder, object
 * storage writes and deletes objects, the replica prunes its copies.
 */

/** A published release as a path sees it: the files `p/{project}/r/{slug}/{language}.{format}`. */
export interface ReleaseRef {
  /** The release's public id, which names its folder in the data directory. */
  id: string;
  slug: string;
  languages: string[];
  formats: string[];
}

export interface ChannelRef {
  name: string;
  slug: string;
}

export type PathChange =
  /** A release's pinned files were written (a publish or a republish). */
  | { kind: "release_published"; project_slug: string; release: ReleaseRef }
  /** `latest` serves another release, or none (`release: null`: every `latest` path 404s). */
  | { kind: "latest_moved"; project_slug: string; release: ReleaseRef | null; previous: ReleaseRef | null }
  /** A channel points at another release; `release: null` when it was deleted. */
  | { kind: "channel_moved"; project_slug: string; channel: ChannelRef; release: ReleaseRef | null; previous: ReleaseRef | null }
  /** A release's pinned paths moved to a new slug (`release.slug`); the old ones 404. */
  | { kind: "slug_rotated"; of: "release"; project_slug: string; release: ReleaseRef; from: string }
  /** A channel's paths moved to a new slug (`channel.slug`). */
  | { kind: "slug_rotated"; of: "channel"; project_slug: string; channel: ChannelRef; release: ReleaseRef; from: string }
  /** Every path of the project moved under a new project slug: what it served then, in full. */
  | { kind: "slug_rotated"; of: "project"; project_slug: string; from: string; releases: ReleaseRef[]; latest: ReleaseRef | null; channels: (ChannelRef & { release: ReleaseRef })[] }
  /** A published release's pinned files are gone. */
  | { kind: "release_deleted"; project_slug: string; release: ReleaseRef };

export type PathChangeKind = PathChange["kind"];

export interface RecordedPathChange {
  /** The change's place in the whole record; a target's cursor is the last id it finished. */
  id: number;
  projectId: number;
  /** The project's counter: grows with every change of the project, never reused. */
  sequence: number;
  at: number;
  change: PathChange;
}

/**
 * Writes the record. Every method that records is called inside the transaction of its change;
 * the references are read there too, so they are what the change committed.
 */
export class PathRecord {
  private readonly q: PathQueries;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.q = preparePathQueries(db);
  }

  /**
   * Appends a change of the project; returns its sequence: the next one, or `sequence` when the
   * change belongs to an action that already took one (its changes share it).
   */
  record(projectId: number, change: PathChange, sequence = this.nextSequence(projectId)): number {
    this.q.insert.run(projectId, sequence, change.kind, JSON.stringify(change), this.clock.now());
    return sequence;
  }

  private nextSequence(projectId: number): number {
    return (this.q.lastSequence.get({ projectId })?.sequence ?? 0) + 1;
  }

  /**
   * A release was published (its files written): recorded with `latest`, which now serves it,
   * under one sequence, so a pinned manifest and `latest`'s can carry the same (docs/architecture.md
   * "Publish targets").
   */
  releasePublished(projectId: number, releaseId: number): void {
    const sequence = this.record(projectId, { kind: "release_published", project_slug: this.projectSlug(projectId), release: this.releaseRef(releaseId) });
    this.latestChanged(projectId, sequence);
  }

  /** A published release was deleted; `ref` was read before the row went. */
  releaseDeleted(projectId: number, ref: ReleaseRef): void {
    const sequence = this.record(projectId, { kind: "release_deleted", project_slug: this.projectSlug(projectId), release: ref });
    this.latestChanged(projectId, sequence);
  }

  releaseSlugRotated(projectId: number, releaseId: number, from: string): void {
    this.record(projectId, { kind: "slug_rotated", of: "release", project_slug: this.projectSlug(projectId), release: this.releaseRef(releaseId), from });
  }

  /** A channel was made, moved (`releaseId`) or deleted (`releaseId` null). */
  channelMoved(projectId: number, channel: ChannelRef, releaseId: number | null, previousReleaseId: number | null): void {
    this.record(projectId, {
      kind: "channel_moved",
      project_slug: this.projectSlug(projectId),
      channel,
      release: releaseId === null ? null : this.releaseRef(releaseId),
      previous: previousReleaseId === null ? null : this.releaseRef(previousReleaseId),
    });
  }

  channelSlugRotated(projectId: number, channel: ChannelRef, releaseId: number, from: string): void {
    this.record(projectId, { kind: "slug_rotated", of: "channel", project_slug: this.projectSlug(projectId), channel, release: this.releaseRef(releaseId), from });
  }

  /** Called after the project's new slug is written: everything it serves, under the new slug. */
  projectSlugRotated(projectId: number, from: string): void {
    this.record(projectId, { kind: "slug_rotated", of: "project", project_slug: this.projectSlug(projectId), from, ...this.servedPaths(projectId) });
  }

  /**
   * Records `latest_moved` when the release `latest` resolves to (docs/interface.md §4.5) is not
   * the one the record last said; a change that does not move it records nothing.
   */
  private latestChanged(projectId: number, sequence?: number): void {
    const now = this.q.latestRelease.get({ projectId });
    const said = this.lastLatest(projectId);
    // The same release (its slug alone may have changed; `latest` paths hold none): nothing moved.
    if ((now?.publicId ?? null) === (said?.id ?? null)) return;
    this.record(projectId, { kind: "latest_moved", project_slug: this.projectSlug(projectId), release: now ? this.releaseRef(now.id) : null, previous: said }, sequence);
  }

  /** What the record last said `latest` serves, or null. */
  lastLatest(projectId: number): ReleaseRef | null {
    const row = this.q.lastOfKind.get({ projectId, kind: "latest_moved" });
    if (!row) return null;
    const change = JSON.parse(row.change) as Extract<PathChange, { kind: "latest_moved" }>;
    return change.release;
  }

  /** Every published release of the project, `latest` and each channel, as they are now. */
  servedPaths(projectId: number): { releases: ReleaseRef[]; latest: ReleaseRef | null; channels: (ChannelRef & { release: ReleaseRef })[] } {
    const releases = this.q.publishedReleases.all({ projectId }).map((r) => this.releaseRef(r.id));
    const latest = this.q.latestRelease.get({ projectId });
    const channels = this.q.channels.all({ projectId }).map((c) => ({ name: c.name, slug: c.slug, release: this.releaseRef(c.releaseId) }));
    return { releases, latest: latest ? this.releaseRef(latest.id) : null, channels };
  }

  /** A published release's reference as the database holds it now. */
  releaseRef(releaseId: number): ReleaseRef {
    const row = this.q.release.get({ releaseId });
    if (!row || row.slug === null) throw new Error(`release ${releaseId} is not published`);
    return { id: row.publicId, slug: row.slug, languages: this.q.languages.all({ releaseId }).map((l) => l.code), formats: [...row.formats] };
  }

  private projectSlug(projectId: number): string {
    return this.q.projectSlug.get({ projectId })!.cdnSlug;
  }

  /**
   * A database made before the record existed gets one that says what it serves now, once: each
   * published release (oldest first), `latest`, every channel. Targets then start from it.
   */
  backfill(): number {
    if (this.q.anyChange.get()) return 0;
    return this.db.transaction(() => this.backfillNow(), { behavior: "immediate" });
  }

  private backfillNow(): number {
    let written = 0;
    for (const { id: projectId } of this.q.projectsWithReleases.all()) {
      const slug = this.projectSlug(projectId);
      let last: number | undefined;
      for (const r of this.q.publishedReleases.all({ projectId })) {
        last = this.record(projectId, { kind: "release_published", project_slug: slug, release: this.releaseRef(r.id) });
        written++;
      }
      // The newest release is `latest`: both under its publish's sequence, as a publish records them.
      this.latestChanged(projectId, last);
      for (const c of this.q.channels.all({ projectId })) {
        this.channelMoved(projectId, { name: c.name, slug: c.slug }, c.releaseId, null);
        written++;
      }
    }
    return written;
  }

  /** The changes after `afterId`, oldest first, at most `limit`. */
  after(afterId: number, limit: number): RecordedPathChange[] {
    return this.q.after.all({ afterId, limit }).map((r) => ({ id: r.id, projectId: r.projectId, sequence: r.sequence, at: r.at, change: JSON.parse(r.change) as PathChange }));
  }

  /** The id of the newest change, 0 when there is none. */
  lastId(): number {
    return this.q.lastId.get()?.id ?? 0;
  }
}
