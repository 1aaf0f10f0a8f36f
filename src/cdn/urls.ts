/** Spec 4.5: the CDN paths, built in one place so the API's download_urls and the routes agree. */
export const BUNDLE_FORMATS = ["json", "yaml", "arb"] as const;
export type BundleFormat = (typeof BUNDLE_FORMATS)[number];

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
