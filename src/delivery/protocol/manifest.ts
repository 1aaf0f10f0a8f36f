/**
 * The manifest and its paths (docs/delivery.md "Manifests"): what a release, `latest`, a channel
 * or an app build's view of them says, and where each lives under the CDN's address. Types and
 * plain functions only: the server, the client and the web loader share them.
 */

export const MANIFEST_VERSION = 1;
export const MANIFEST_FILE = "manifest.json";
export const SIGNATURE_SUFFIX = ".minisig";
/** The path segment before a build's id: `.../r/{slug}/b/{build_id}/...`. */
export const BUILD_SEGMENT = "b";
/** A build id: the first 16 hex digits of a SHA-256 (docs/delivery.md "App builds"). */
export const BUILD_ID_PATTERN = /^[0-9a-f]{16}$/;

export interface ManifestFile {
  /** The pinned URL of the file. */
  url: string;
  /** Lower-case hex. */
  sha256: string;
  bytes: number;
}

export interface ManifestLanguage {
  is_base_language: boolean;
  /** By format (`json`, `yaml`, `arb`), in the order the release recorded them. */
  files: Record<string, ManifestFile>;
}

export interface ManifestRelease {
  id: string;
  tag: string;
  published_at: string;
}

export interface Manifest {
  manifest_version: typeof MANIFEST_VERSION;
  sequence: number;
  /** Only in a build's manifest. */
  build_id?: string;
  release: ManifestRelease;
  /** By language code, in code-point order. */
  languages: Record<string, ManifestLanguage>;
}

/** `p/{projectSlug}/r/{releaseSlug|latest}` */
export const releaseDirOf = (projectSlug: string, releaseSlug: string) => `p/${projectSlug}/r/${releaseSlug}`;
/** `p/{projectSlug}/c/{channelSlug}` */
export const channelDirOf = (projectSlug: string, channelSlug: string) => `p/${projectSlug}/c/${channelSlug}`;
/** A build's view of a release, `latest` or a channel: `{dir}/b/{build_id}`. */
export const buildDirOf = (dir: string, buildId: string) => `${dir}/${BUILD_SEGMENT}/${buildId}`;
export const manifestPathOf = (dir: string) => `${dir}/${MANIFEST_FILE}`;
/** The project's current public key, `p/{projectSlug}/key.pub`. */
export const currentKeyPathOf = (projectSlug: string) => `p/${projectSlug}/key.pub`;
/** The project's n-th key, `p/{projectSlug}/keys/{n}.pub` (immutable; from 2 on signed by n-1). */
export const numberedKeyPathOf = (projectSlug: string, n: number) => `p/${projectSlug}/keys/${n}.pub`;

/**
 * The trusted comment of a manifest's signature (docs/delivery.md "Signatures"): a manifest
 * replayed at another path (another channel, another build) is refused by its path.
 */
export function manifestComment(sequence: number, releaseId: string, path: string): string {
  return `phrasebook manifest sequence=${sequence} release=${releaseId} path=${path}`;
}

const MANIFEST_COMMENT = /^phrasebook manifest sequence=(\d+) release=(\S+) path=(\S+)$/;

export function parseManifestComment(comment: string): { sequence: number; release: string; path: string } | null {
  const m = MANIFEST_COMMENT.exec(comment);
  return m ? { sequence: Number(m[1]), release: m[2]!, path: m[3]! } : null;
}

/** The trusted comment of key n's file signed by key n-1. */
export function keyComment(n: number): string {
  return `phrasebook key n=${n}`;
}

/** The part of a CDN URL from `p/` on: the same path under any address the CDN is reached by. */
export function pathUnderCdn(url: string): string | null {
  const at = url.indexOf("/p/");
  return at < 0 ? null : url.slice(at + 1);
}
