import type { BundleFormat } from "../formats/bundle.ts";

/**
 * The CDN URL of a bundle file (docs/interface.md §4.5), built in one place so the public API's
 * `download_urls`, the dashboard and the CDN routes agree.
 */
export const LATEST = "latest";

export function fileUrl(cdnUrl: string, projectSlug: string, releaseSlug: string, code: string, ext: BundleFormat): string {
  return `${cdnUrl}/p/${projectSlug}/r/${releaseSlug}/${code}.${ext}`;
}

export function downloadUrls(cdnUrl: string, projectSlug: string, releaseSlug: string, code: string): Record<BundleFormat, string> {
  return {
    json: fileUrl(cdnUrl, projectSlug, releaseSlug, code, "json"),
    yaml: fileUrl(cdnUrl, projectSlug, releaseSlug, code, "yaml"),
    arb: fileUrl(cdnUrl, projectSlug, releaseSlug, code, "arb"),
  };
}
