import type { PathChange, ReleaseRef } from "../changes/paths.ts";
import { CHANNEL_SEGMENT, LATEST } from "../bundles/urls.ts";

/**
 * A change of the path record as what it does to the CDN's paths (docs/architecture.md "Publish
 * targets"): objects to write and objects to remove, in the order a copy elsewhere must follow,
 * so that a moving path (`latest`, a channel) never names a file its copy lacks. Paths are
 * relative to the CDN's address, `p/{projectSlug}/r/{releaseSlug|latest}/{code}.{ext}` and
 * `p/{projectSlug}/c/{channelSlug}/{code}.{ext}` (docs/interface.md §4.5, docs/releases.md
 * "Channels"). A target that keeps files elsewhere (object storage) replays these; a put's bytes
 * are the release's file in the data directory, which never changes once published.
 */
export type PathOp = PutOp | { op: "delete"; path: string };

export interface PutOp {
  op: "put";
  path: string;
  /** Where the object's bytes come from (render.ts turns it into bytes and headers). */
  source: ObjectSource;
  /** A moving path (`latest`, a channel): served with latest's cache headers, not pinned ones. */
  moving: boolean;
}

/**
 * What an object is made from. A bundle file is a release's file in the data directory, which
 * never changes once published: `release` is the release's public id (its folder), `file` the
 * name in it, `{code}.{ext}`. Kinds of objects made from more than one file add a kind here and
 * its making in render.ts.
 */
export type ObjectSource = { kind: "file"; release: string; file: string };

function files(ref: ReleaseRef): string[] {
  return ref.languages.flatMap((code) => ref.formats.map((ext) => `${code}.${ext}`));
}

const pinnedDir = (projectSlug: string, releaseSlug: string) => `p/${projectSlug}/r/${releaseSlug}`;
const latestDir = (projectSlug: string) => `p/${projectSlug}/r/${LATEST}`;
const channelDir = (projectSlug: string, channelSlug: string) => `p/${projectSlug}/${CHANNEL_SEGMENT}/${channelSlug}`;

function puts(dir: string, ref: ReleaseRef, moving: boolean): PathOp[] {
  return files(ref).map((file) => ({ op: "put", path: `${dir}/${file}`, source: { kind: "file", release: ref.id, file }, moving }));
}

function deletes(dir: string, names: string[]): PathOp[] {
  return names.map((file) => ({ op: "delete", path: `${dir}/${file}` }));
}

/** A moving path's new files, then the removal of those the new release does not ship. */
function moved(dir: string, release: ReleaseRef | null, previous: ReleaseRef | null): PathOp[] {
  const now = release ? files(release) : [];
  const kept = new Set(now);
  return [...(release ? puts(dir, release, true) : []), ...deletes(dir, previous ? files(previous).filter((f) => !kept.has(f)) : [])];
}

export function pathOps(change: PathChange): PathOp[] {
  switch (change.kind) {
    case "release_published":
      return puts(pinnedDir(change.project_slug, change.release.slug), change.release, false);
    case "latest_moved":
      return moved(latestDir(change.project_slug), change.release, change.previous);
    case "channel_moved":
      return moved(channelDir(change.project_slug, change.channel.slug), change.release, change.previous);
    case "release_deleted":
      return deletes(pinnedDir(change.project_slug, change.release.slug), files(change.release));
    case "slug_rotated":
      switch (change.of) {
        case "release":
          return [...puts(pinnedDir(change.project_slug, change.release.slug), change.release, false), ...deletes(pinnedDir(change.project_slug, change.from), files(change.release))];
        case "channel":
          return [...puts(channelDir(change.project_slug, change.channel.slug), change.release, true), ...deletes(channelDir(change.project_slug, change.from), files(change.release))];
        case "project": {
          // Everything under the new slug, pinned files first, then the old paths go.
          const under = (projectSlug: string, op: "put" | "delete"): PathOp[] => {
            const each = (dir: string, ref: ReleaseRef, moving: boolean) => (op === "put" ? puts(dir, ref, moving) : deletes(dir, files(ref)));
            return [
              ...change.releases.flatMap((r) => each(pinnedDir(projectSlug, r.slug), r, false)),
              ...(change.latest ? each(latestDir(projectSlug), change.latest, true) : []),
              ...change.channels.flatMap((c) => each(channelDir(projectSlug, c.slug), c.release, true)),
            ];
          };
          return [...under(change.project_slug, "put"), ...under(change.from, "delete")];
        }
      }
  }
}
