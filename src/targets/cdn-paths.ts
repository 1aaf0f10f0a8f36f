import type { KeysRef, ManifestRef, PathChange, ReleaseRef } from "../changes/paths.ts";
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
 * name in it, `{code}.{ext}`. A manifest and its signature are made from the release's row and
 * the project's key as the change recorded them (docs/delivery.md "Manifests"); a key file from
 * the project's key `n` (`current`: the `key.pub` the project had then). Each kind has its making
 * in a renderer the server composes (render.ts, delivery/render.ts).
 */
export type ObjectSource =
  | { kind: "file"; release: string; file: string }
  | { kind: "manifest" | "manifest_signature"; project_slug: string; manifest: ManifestRef }
  | { kind: "key" | "key_signature"; project: string; n: number };

const MANIFEST = "manifest.json";
const SIGNATURE = ".minisig";

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

/** The manifests a change writes, each with its signature, after the files they name (pinned first, as recorded). */
function manifestPuts(projectSlug: string, manifests: ManifestRef[] | undefined): PathOp[] {
  return (manifests ?? []).flatMap((manifest) => {
    // A pinned manifest is cached like pinned files, latest's and channels' like theirs (docs/delivery.md).
    const moving = manifest.dir !== pinnedDir(projectSlug, manifest.release_slug);
    return [
      { op: "put", path: `${manifest.dir}/${MANIFEST}`, source: { kind: "manifest", project_slug: projectSlug, manifest }, moving },
      { op: "put", path: `${manifest.dir}/${MANIFEST}${SIGNATURE}`, source: { kind: "manifest_signature", project_slug: projectSlug, manifest }, moving },
    ] satisfies PathOp[];
  });
}

/** A folder's manifest and its signature go (a deleted release, an old slug, `latest` with nothing to serve). */
function manifestDeletes(dir: string): PathOp[] {
  return deletes(dir, [MANIFEST, `${MANIFEST}${SIGNATURE}`]);
}

const keysDir = (projectSlug: string) => `p/${projectSlug}/keys`;
const currentKeyPath = (projectSlug: string) => `p/${projectSlug}/key.pub`;

/** The numbered key files from key `from` on (immutable), each from 2 on with its signature by the key before. */
function numberedKeyPuts(projectSlug: string, keys: KeysRef, from = 1): PathOp[] {
  const ops: PathOp[] = [];
  for (let n = from; n <= keys.count; n++) {
    ops.push({ op: "put", path: `${keysDir(projectSlug)}/${n}.pub`, source: { kind: "key", project: keys.project, n }, moving: false });
    if (n >= 2) ops.push({ op: "put", path: `${keysDir(projectSlug)}/${n}.pub${SIGNATURE}`, source: { kind: "key_signature", project: keys.project, n }, moving: false });
  }
  return ops;
}

/** `key.pub`, the current key: it moves (a rotation changes it), and is cached and purged like `latest`. */
function currentKeyPut(projectSlug: string, keys: KeysRef): PathOp[] {
  return keys.count > 0 ? [{ op: "put", path: currentKeyPath(projectSlug), source: { kind: "key", project: keys.project, n: keys.count }, moving: true }] : [];
}

/** Every key file: the numbered ones, then `key.pub`. */
function keyPuts(projectSlug: string, keys: KeysRef): PathOp[] {
  return [...numberedKeyPuts(projectSlug, keys), ...currentKeyPut(projectSlug, keys)];
}

function keyDeletes(projectSlug: string, keys: KeysRef): PathOp[] {
  const names = Array.from({ length: keys.count }, (_, i) => i + 1).flatMap((n) => (n >= 2 ? [`${n}.pub`, `${n}.pub${SIGNATURE}`] : [`${n}.pub`]));
  return [...deletes(keysDir(projectSlug), names), ...(keys.count > 0 ? [{ op: "delete" as const, path: currentKeyPath(projectSlug) }] : [])];
}

export function pathOps(change: PathChange): PathOp[] {
  const slug = change.project_slug;
  switch (change.kind) {
    case "release_published":
      // The numbered keys before the pinned manifest signed with the newest (a client follows the chain).
      return [...puts(pinnedDir(slug, change.release.slug), change.release, false), ...(change.keys ? numberedKeyPuts(slug, change.keys) : []), ...manifestPuts(slug, change.manifests)];
    case "latest_moved":
      // `key.pub` with latest's files: one change, so one purge names them all (Fastly: one key).
      return [
        ...moved(latestDir(slug), change.release, change.previous),
        ...(change.release && change.keys ? currentKeyPut(slug, change.keys) : []),
        ...(change.release ? manifestPuts(slug, change.manifests) : manifestDeletes(latestDir(slug))),
      ];
    case "channel_moved": {
      const dir = channelDir(slug, change.channel.slug);
      return [...moved(dir, change.release, change.previous), ...(change.release ? manifestPuts(slug, change.manifests) : manifestDeletes(dir))];
    }
    case "release_deleted": {
      const dir = pinnedDir(slug, change.release.slug);
      return [...deletes(dir, files(change.release)), ...manifestDeletes(dir)];
    }
    case "key_rotated":
      // The new key's files first: a client meeting a manifest signed with it can follow the chain.
      // Before the first publish (no `keys`) a copy holds no key file yet: the publish writes them all.
      return change.keys ? [...numberedKeyPuts(slug, change.keys, change.keys.count), ...currentKeyPut(slug, change.keys), ...manifestPuts(slug, change.manifests)] : [];
    case "slug_rotated":
      switch (change.of) {
        case "release": {
          const old = pinnedDir(slug, change.from);
          return [...puts(pinnedDir(slug, change.release.slug), change.release, false), ...manifestPuts(slug, change.manifests), ...deletes(old, files(change.release)), ...manifestDeletes(old)];
        }
        case "channel": {
          const old = channelDir(slug, change.from);
          return [...puts(channelDir(slug, change.channel.slug), change.release, true), ...manifestPuts(slug, change.manifests), ...deletes(old, files(change.release)), ...manifestDeletes(old)];
        }
        case "project": {
          // Everything under the new slug, pinned files first, then the old paths go.
          const under = (projectSlug: string, op: "put" | "delete"): PathOp[] => {
            const each = (dir: string, ref: ReleaseRef, moving: boolean) => (op === "put" ? puts(dir, ref, moving) : [...deletes(dir, files(ref)), ...(change.manifests ? manifestDeletes(dir) : [])]);
            return [
              ...change.releases.flatMap((r) => each(pinnedDir(projectSlug, r.slug), r, false)),
              ...(change.latest ? each(latestDir(projectSlug), change.latest, true) : []),
              ...change.channels.flatMap((c) => each(channelDir(projectSlug, c.slug), c.release, true)),
            ];
          };
          const keys = change.keys;
          return [
            ...(keys ? keyPuts(slug, keys) : []),
            ...under(slug, "put"),
            ...manifestPuts(slug, change.manifests),
            ...under(change.from, "delete"),
            ...(keys ? keyDeletes(change.from, keys) : []),
          ];
        }
      }
  }
}
