import type { Clock } from "../common/clock.ts";
import type { Db } from "../storage/db.ts";
import { preparePathQueries, type PathQueries } from "./queries.ts";

const pinnedDir = (projectSlug: string, releaseSlug: string) => `p/${projectSlug}/r/${releaseSlug}`;
const latestDir = (projectSlug: string) => `p/${projectSlug}/r/latest`;
const channelDir = (projectSlug: string, channelSlug: string) => `p/${projectSlug}/c/${channelSlug}`;

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

/**
 * A manifest a change writes, after the files it names (docs/delivery.md "Manifests"): under
 * `dir` (`p/{project}/r/{slug|latest}` or `p/{project}/c/{channel}`), the manifest of release
 * `release` (public id) at its slug `release_slug`, carrying `sequence` and signed with the
 * project's key number `key`. Changes recorded before manifests existed carry none.
 */
export interface ManifestRef {
  dir: string;
  release: string;
  release_slug: string;
  sequence: number;
  key: number;
}

/** The project's key files (`key.pub`, `keys/{n}.pub` and their signatures) for keys 1 to `count`. */
export interface KeysRef {
  /** The project's public id, which finds its keys. */
  project: string;
  count: number;
}

export type PathChange =
  /**
   * A release's pinned files were written (a publish or a republish), then its manifest; with the
   * project's numbered key files (`keys/{n}.pub`), so a copy elsewhere has them from the first
   * publish on, before the manifests signed with them.
   */
  | { kind: "release_published"; project_slug: string; release: ReleaseRef; manifests?: ManifestRef[]; keys?: KeysRef }
  /**
   * `latest` serves another release, or none (`release: null`: every `latest` path 404s). With a
   * release, `keys` names the project's current key, whose `key.pub` moves with `latest` (its
   * surrogate key is latest's, docs/deploy.md "Purging the CDN in front"): written with latest's
   * files, so a publish's purge names it with theirs.
   */
  | { kind: "latest_moved"; project_slug: string; release: ReleaseRef | null; previous: ReleaseRef | null; manifests?: ManifestRef[]; keys?: KeysRef }
  /** A channel points at another release; `release: null` when it was deleted. */
  | { kind: "channel_moved"; project_slug: string; channel: ChannelRef; release: ReleaseRef | null; previous: ReleaseRef | null; manifests?: ManifestRef[] }
  /**
   * A release's pinned paths moved to a new slug (`release.slug`); the old ones 404. The
   * manifests naming its files (its own, `latest`'s and channels' that serve it) are written again.
   */
  | { kind: "slug_rotated"; of: "release"; project_slug: string; release: ReleaseRef; from: string; manifests?: ManifestRef[] }
  /** A channel's paths moved to a new slug (`channel.slug`). */
  | { kind: "slug_rotated"; of: "channel"; project_slug: string; channel: ChannelRef; release: ReleaseRef; from: string; manifests?: ManifestRef[] }
  /** Every path of the project moved under a new project slug: what it served then, in full. */
  | {
      kind: "slug_rotated";
      of: "project";
      project_slug: string;
      from: string;
      releases: ReleaseRef[];
      latest: ReleaseRef | null;
      channels: (ChannelRef & { release: ReleaseRef })[];
      manifests?: ManifestRef[];
      keys?: KeysRef;
    }
  /** A published release's pinned files are gone. */
  | { kind: "release_deleted"; project_slug: string; release: ReleaseRef }
  /**
   * The project has a new signing key (`keys.count` is its number): its key files, then the
   * moving manifests (`latest`, channels) signed again with it (docs/delivery.md "Key rotation").
   * `keys` is absent before the project's first publish: a copy elsewhere gets the key files with
   * that publish (docs/delivery.md "Object storage"), and until then there is nothing to sign.
   */
  | { kind: "key_rotated"; project_slug: string; keys?: KeysRef; manifests: ManifestRef[] };

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

  nextSequence(projectId: number): number {
    return (this.q.lastSequence.get({ projectId })?.sequence ?? 0) + 1;
  }

  /**
   * A release was published (its files written): recorded with `latest`, which now serves it,
   * under one sequence, so its pinned manifest and `latest`'s carry the same (docs/delivery.md).
   * The release keeps that sequence and the signing key of the moment: its pinned manifest is
   * always the one published.
   */
  releasePublished(projectId: number, releaseId: number): void {
    this.latestChanged(projectId, this.recordPublished(projectId, releaseId));
  }

  private recordPublished(projectId: number, releaseId: number): number {
    const sequence = this.nextSequence(projectId);
    const key = this.currentKey(projectId);
    this.q.setReleaseManifest.run({ sequence, key, releaseId });
    const slug = this.projectSlug(projectId);
    const release = this.releaseRef(releaseId);
    const manifests = [this.manifestRef(pinnedDir(slug, release.slug), release, sequence, key)];
    return this.record(projectId, { kind: "release_published", project_slug: slug, release, manifests, keys: this.keysRef(projectId) }, sequence);
  }

  /** A published release was deleted; `ref` was read before the row went. */
  releaseDeleted(projectId: number, ref: ReleaseRef): void {
    const sequence = this.record(projectId, { kind: "release_deleted", project_slug: this.projectSlug(projectId), release: ref });
    this.latestChanged(projectId, sequence);
  }

  /** Its pinned paths move, and so do the URLs in every manifest that names its files. */
  releaseSlugRotated(projectId: number, releaseId: number, from: string): void {
    const slug = this.projectSlug(projectId);
    const release = this.releaseRef(releaseId);
    const own = this.q.releaseManifest.get({ releaseId });
    const manifests = [this.manifestRef(pinnedDir(slug, release.slug), release, own?.sequence ?? 0, own?.key ?? 1)];
    const key = this.currentKey(projectId);
    const latest = this.q.latestRelease.get({ projectId });
    if (latest?.id === releaseId) manifests.push(this.manifestRef(latestDir(slug), release, this.latestSequence(projectId), key));
    for (const c of this.q.channels.all({ projectId })) {
      if (c.releaseId === releaseId) manifests.push(this.manifestRef(channelDir(slug, c.slug), release, this.channelSequence(projectId, c.name), key));
    }
    this.record(projectId, { kind: "slug_rotated", of: "release", project_slug: slug, release, from, manifests });
  }

  /** A channel was made, moved (`releaseId`) or deleted (`releaseId` null). */
  channelMoved(projectId: number, channel: ChannelRef, releaseId: number | null, previousReleaseId: number | null): void {
    const sequence = this.nextSequence(projectId);
    const slug = this.projectSlug(projectId);
    const release = releaseId === null ? null : this.releaseRef(releaseId);
    this.record(
      projectId,
      {
        kind: "channel_moved",
        project_slug: slug,
        channel,
        release,
        previous: previousReleaseId === null ? null : this.releaseRef(previousReleaseId),
        manifests: release ? [this.manifestRef(channelDir(slug, channel.slug), release, sequence, this.currentKey(projectId))] : [],
      },
      sequence,
    );
  }

  channelSlugRotated(projectId: number, channel: ChannelRef, releaseId: number, from: string): void {
    const slug = this.projectSlug(projectId);
    const release = this.releaseRef(releaseId);
    const manifests = [this.manifestRef(channelDir(slug, channel.slug), release, this.channelSequence(projectId, channel.name), this.currentKey(projectId))];
    this.record(projectId, { kind: "slug_rotated", of: "channel", project_slug: slug, channel, release, from, manifests });
  }

  /** Called after the project's new slug is written: everything it serves, under the new slug. */
  projectSlugRotated(projectId: number, from: string): void {
    this.record(projectId, { kind: "slug_rotated", of: "project", project_slug: this.projectSlug(projectId), from, ...this.served(projectId) });
  }

  /**
   * Everything the project's CDN paths serve now: its releases, `latest`, channels, the manifests
   * naming them and its key files, in the shape of a project's slug rotation (what a copy made from
   * nothing, `phrasebook mirror sync`, writes).
   */
  served(projectId: number): Pick<Extract<PathChange, { kind: "slug_rotated"; of: "project" }>, "releases" | "latest" | "channels" | "manifests" | "keys"> {
    const paths = this.servedPaths(projectId);
    return { ...paths, manifests: this.servedManifests(projectId, paths), keys: this.copiedKeys(projectId) };
  }

  /**
   * The project's signing key was rotated (its new key is written): the key files, then the
   * moving manifests signed with the new key. Their sequences stay: what they say is unchanged.
   */
  keyRotated(projectId: number): void {
    const slug = this.projectSlug(projectId);
    const key = this.currentKey(projectId);
    const manifests: ManifestRef[] = [];
    const latest = this.q.latestRelease.get({ projectId });
    if (latest) manifests.push(this.manifestRef(latestDir(slug), this.releaseRef(latest.id), this.latestSequence(projectId), key));
    for (const c of this.q.channels.all({ projectId })) manifests.push(this.manifestRef(channelDir(slug, c.slug), this.releaseRef(c.releaseId), this.channelSequence(projectId, c.name), key));
    this.record(projectId, { kind: "key_rotated", project_slug: slug, keys: this.copiedKeys(projectId), manifests });
  }

  /**
   * Records `latest_moved` when the release `latest` resolves to (docs/interface.md §4.5) is not
   * the one the record last said; a change that does not move it records nothing.
   */
  private latestChanged(projectId: number, sequence = this.nextSequence(projectId)): void {
    const now = this.q.latestRelease.get({ projectId });
    const said = this.lastLatest(projectId);
    // The same release (its slug alone may have changed; `latest` paths hold none): nothing moved.
    if ((now?.publicId ?? null) === (said?.id ?? null)) return;
    const slug = this.projectSlug(projectId);
    const release = now ? this.releaseRef(now.id) : null;
    const manifests = release ? [this.manifestRef(latestDir(slug), release, sequence, this.currentKey(projectId))] : [];
    this.record(projectId, { kind: "latest_moved", project_slug: slug, release, previous: said, manifests, ...(release ? { keys: this.keysRef(projectId) } : {}) }, sequence);
  }

  private manifestRef(dir: string, release: ReleaseRef, sequence: number, key: number): ManifestRef {
    return { dir, release: release.id, release_slug: release.slug, sequence, key };
  }

  /** Every manifest the project serves now: each release's, `latest`'s, each channel's. */
  private servedManifests(projectId: number, served: ReturnType<PathRecord["servedPaths"]>): ManifestRef[] {
    const slug = this.projectSlug(projectId);
    const key = this.currentKey(projectId);
    const out: ManifestRef[] = [];
    for (const r of served.releases) {
      const own = this.q.releaseManifestByPublicId.get({ publicId: r.id });
      if (own?.sequence != null) out.push(this.manifestRef(pinnedDir(slug, r.slug), r, own.sequence, own.key ?? 1));
    }
    if (served.latest) out.push(this.manifestRef(latestDir(slug), served.latest, this.latestSequence(projectId), key));
    for (const c of served.channels) out.push(this.manifestRef(channelDir(slug, c.slug), c.release, this.channelSequence(projectId, c.name), key));
    return out;
  }

  /** The sequence `latest`'s manifest carries: that of the change that made its release `latest`. */
  latestSequence(projectId: number): number {
    return this.q.lastSequenceOfKind.get({ projectId, kind: "latest_moved" })?.sequence ?? 0;
  }

  /** The sequence a channel's manifest carries: that of its last move. */
  channelSequence(projectId: number, name: string): number {
    return this.q.channelSequence.get({ projectId, name })?.sequence ?? 0;
  }

  /** The number of the project's current signing key (1 before it has any). */
  currentKey(projectId: number): number {
    return this.q.currentKey.get({ projectId })?.n ?? 1;
  }

  private keysRef(projectId: number): KeysRef {
    return { project: this.q.projectPublicId.get({ projectId })!.publicId, count: this.q.currentKey.get({ projectId })?.n ?? 0 };
  }

  /**
   * The key files a copy elsewhere holds: none before the project's first publish, which writes
   * them all; from then on every key, kept when every release is deleted (docs/delivery.md
   * "Object storage"). The server's own CDN answers them from the project's creation, but nothing
   * of a project is signed or served to an app before it publishes.
   */
  private copiedKeys(projectId: number): KeysRef | undefined {
    return this.q.lastSequenceOfKind.get({ projectId, kind: "release_published" }) ? this.keysRef(projectId) : undefined;
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
    if (this.q.anyChange.get()) {
      // A record made before manifests: each published release takes its publish's sequence.
      this.q.backfillReleaseManifests.run();
      return 0;
    }
    return this.db.transaction(() => this.backfillNow(), { behavior: "immediate" });
  }

  private backfillNow(): number {
    let written = 0;
    for (const { id: projectId } of this.q.projectsWithReleases.all()) {
      let last: number | undefined;
      for (const r of this.q.publishedReleases.all({ projectId })) {
        last = this.recordPublished(projectId, r.id);
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
