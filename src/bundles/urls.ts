import type { BundleFormat } from "../formats/registry.ts";

/**
 * The CDN URL of a bundle file (docs/interface.md §4.5), built in one place so the public API's
 * `download_urls`, the dashboard and the CDN routes agree. A bundle format's file extension is its
 * name (docs/formats.md), so this needs no more of the registry than its type, and the dashboard's
 * script can use it without bundling the formats' readers.
 */
export const LATEST = "latest";

/**
 * docs/interface.md §4.5 rule 3, verbatim: what the CDN answers a pinned path with, and a moving
 * one (`latest`, a channel). Here, not in cdn/, because every copy of the CDN's paths (object
 * storage) must carry the same.
 */
export const CACHE_CONTROL_PINNED = "public, max-age=31536000, immutable";
export const CACHE_CONTROL_LATEST = "public, max-age=60, must-revalidate";

export function fileUrl(cdnUrl: string, projectSlug: string, releaseSlug: string, code: string, format: BundleFormat): string {
  return `${cdnUrl}/p/${projectSlug}/r/${releaseSlug}/${code}.${format}`;
}

/** `download_urls` of one language: a URL per format the release shipped, in the order recorded. */
export function downloadUrls(cdnUrl: string, projectSlug: string, releaseSlug: string, code: string, formats: readonly BundleFormat[]): Partial<Record<BundleFormat, string>> {
  const urls: Partial<Record<BundleFormat, string>> = {};
  for (const format of formats) urls[format] = fileUrl(cdnUrl, projectSlug, releaseSlug, code, format);
  return urls;
}

/**
 * A channel's file (docs/releases.md "Channels"): `{cdn_url}/p/{projectSlug}/c/{channelSlug}/...`,
 * serving the release the channel points at now.
 */
export const CHANNEL_SEGMENT = "c";

export function channelFileUrl(cdnUrl: string, projectSlug: string, channelSlug: string, code: string, format: BundleFormat): string {
  return `${cdnUrl}/p/${projectSlug}/${CHANNEL_SEGMENT}/${channelSlug}/${code}.${format}`;
}

/**
 * The Fastly surrogate key of a CDN path (docs/deploy.md "Object storage and CDN purge"), relative
 * to the CDN's address: `{projectSlug}/latest` for what `latest` serves (and `key.pub`),
 * `{projectSlug}/c/{channelSlug}` for a channel's, and null for everything else, pinned files
 * included: they never change, so nothing purges them. A path with a key is one whose content
 * moves.
 */
export function surrogateKey(path: string): string | null {
  // `key.pub` moves with a key rotation, which re-signs `latest`'s manifest: purged with it.
  const m = /^p\/([^/]+)\/(?:r\/(latest)\/|(c)\/([^/]+)\/|(key\.pub)$)/.exec(path);
  if (!m) return null;
  return m[2] || m[5] ? `${m[1]}/${LATEST}` : `${m[1]}/${CHANNEL_SEGMENT}/${m[4]}`;
}
