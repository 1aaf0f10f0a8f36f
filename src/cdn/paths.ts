import { CHANNEL_SEGMENT, LATEST } from "../bundles/urls.ts";
import { SLUG_LENGTH } from "../common/ids.ts";
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
  return { projectSlug: m[1]!, releaseSlug: m[3]!, channel, code: m[4]!, ext: m[5] as BundleFormat };
}
