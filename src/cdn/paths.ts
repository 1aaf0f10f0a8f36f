import { CHANNEL_SEGMENT, LATEST } from "../bundles/urls.ts";
import { SLUG_LENGTH } from "../common/ids.ts";
import type { DeliveryPath } from "../delivery/objects.ts";
import { BUILD_SEGMENT } from "../delivery/protocol/manifest.ts";
import { BUNDLE_FORMATS, type BundleFormat } from "../formats/registry.ts";

/**
 * CDN paths (docs/interface.md §4.5): `/p/{projectSlug}/r/{releaseSlug|latest}/{language}.{ext}`
 * below the CDN prefix, and a channel's `/p/{projectSlug}/c/{channelSlug}/{language}.{ext}`
 * (docs/releases.md "Channels").
 * Matched as raw text against a strict pattern and never decoded: slugs are 16 letters or digits,
 * a language code holds letters, digits and '-', and `ext` is a bundle format of the registry
 * (whose extension is its name, docs/formats.md). Anything else (`..`, `%2F`, NUL, odd lengths,
 * other extensions) is simply not a CDN file.
 */
export interface CdnPath {
  projectSlug: string;
  releaseSlug: string; // a slug or LATEST; a channel's slug when `channel`
  channel: boolean;
  code: string;
  ext: BundleFormat;
}

export const MAX_CDN_PATH_LENGTH = 128;

const PATTERN = new RegExp(
  `^/p/([0-9A-Za-z]{${SLUG_LENGTH}})/(r|${CHANNEL_SEGMENT})/([0-9A-Za-z]{${SLUG_LENGTH}}|${LATEST})/([A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8}){0,6})\\.(${BUNDLE_FORMATS.join("|")})$`,
);

/** `path` is the request path with the CDN prefix already removed. */
export function parseCdnPath(path: string): CdnPath | null {
  if (path.length > MAX_CDN_PATH_LENGTH) return null;
  const m = PATTERN.exec(path);
  if (!m) return null;
  const channel = m[2] === CHANNEL_SEGMENT;
  if (channel && m[3] === LATEST) return null; // a channel has no `latest`
  // `manifest.json` is the release's manifest, never a language (docs/delivery.md "Manifests").
  if (m[4] === MANIFEST_NAME) return null;
  return { projectSlug: m[1]!, releaseSlug: m[3]!, channel, code: m[4]!, ext: m[5] as BundleFormat };
}

/** The name of a manifest file, `manifest.json`, which no language code may take. */
export const MANIFEST_NAME = "manifest";

const VIEW = `^/p/([0-9A-Za-z]{${SLUG_LENGTH}})/(r|${CHANNEL_SEGMENT})/([0-9A-Za-z]{${SLUG_LENGTH}}|${LATEST})`;
const BUILD = `/${BUILD_SEGMENT}/([0-9a-f]{16})`;
const MANIFEST_PATTERN = new RegExp(`${VIEW}(?:${BUILD})?/${MANIFEST_NAME}\.json(\.minisig)?$`);
const BUILD_FILE_PATTERN = new RegExp(`${VIEW}${BUILD}/([A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8}){0,6})\.(${BUNDLE_FORMATS.join("|")})$`);
const KEY_PATTERN = /^\/p\/([0-9A-Za-z]{16})\/(?:key\.pub|keys\/([1-9][0-9]{0,5})\.pub(\.minisig)?)$/;

/**
 * The paths of delivery (docs/delivery.md): a manifest and its signature (of a release, `latest`,
 * a channel, and of an app build's view of each), an app build's file, and the project's key
 * files. Matched like the files' paths: strict patterns over the raw text, never decoded.
 */
export function parseDeliveryPath(path: string): DeliveryPath | null {
  if (path.length > MAX_CDN_PATH_LENGTH) return null;
  const key = KEY_PATTERN.exec(path);
  if (key) return { kind: "key", projectSlug: key[1]!, n: key[2] === undefined ? null : Number(key[2]), signature: key[3] !== undefined };
  const manifest = MANIFEST_PATTERN.exec(path);
  if (manifest) {
    const channel = manifest[2] === CHANNEL_SEGMENT;
    if (channel && manifest[3] === LATEST) return null;
    return { kind: "manifest", projectSlug: manifest[1]!, releaseSlug: manifest[3]!, channel, build: manifest[4] ?? null, signature: manifest[5] !== undefined };
  }
  const file = BUILD_FILE_PATTERN.exec(path);
  if (file) {
    const channel = file[2] === CHANNEL_SEGMENT;
    if ((channel && file[3] === LATEST) || file[5] === MANIFEST_NAME) return null;
    return { kind: "build_file", projectSlug: file[1]!, releaseSlug: file[3]!, channel, build: file[4]!, code: file[5]!, ext: file[6] as BundleFormat };
  }
  return null;
}
