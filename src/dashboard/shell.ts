import type { FileFormat } from "../formats/format.ts";
import { FORMATS } from "../formats/registry.ts";
import { ASSET_PREFIX, assetNamed } from "./assets.ts";

/**
 * A format of the registry as the pages see it (docs/formats.md): the import page offers every one,
 * the release pages name the bundle formats. Sent in the page's config, so the script does not
 * bundle the formats' readers.
 */
export interface FormatInfo {
  name: string;
  label: string;
  /** Without the dot, lower case. */
  extensions: string[];
  /** Without parameters (`application/json`), for the file picker's `accept`. */
  media_type: string;
  /** Every release ships it and the CDN serves it. */
  bundle: boolean;
  /** One file holds several languages (XLIFF, .xcstrings): the import needs no language. */
  multi_language: boolean;
}

export const FORMAT_INFO: FormatInfo[] = FORMATS.map((f) => ({
  name: f.name,
  label: f.label,
  extensions: [...f.extensions],
  media_type: f.contentType.split(";")[0]!.trim(),
  bundle: f.bundle,
  multi_language: (f as FileFormat).multiLanguage === true,
}));

/** What the pages need to know about this deployment, read once from the settings. */
export interface ClientConfig {
  /** `{base_url}` of the public API (docs/product.md §1: public URL + /v1), for `curl` lines. */
  api_url: string;
  /** `{cdn_url}`, for the `latest` URLs (built the same way as download_urls, see src/bundles/urls.ts). */
  cdn_url: string;
  version: string;
  formats: FormatInfo[];
}

/**
 * Scripts, styles, images and data only from this origin: the pages load nothing from the internet
 * (air-gapped sites, docs/dashboard.md), and an injected script could not run even if escaping
 * failed.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** JSON inside a <script> element: `<` escaped so no string in it can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/** The one HTML page every dashboard path answers with; the client routes from the path. */
export function renderShell(config: ClientConfig): string {
  const css = ASSET_PREFIX + assetNamed("app", "css").name;
  const js = ASSET_PREFIX + assetNamed("app", "js").name;
  const logo = ASSET_PREFIX + assetNamed("logo", "svg").name;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>Phrasebook</title>
<link rel="icon" href="${logo}" type="image/svg+xml">
<link rel="stylesheet" href="${css}">
<script type="module" src="${js}"></script>
</head>
<body>
<script type="application/json" id="pb-config">${scriptJson({ ...config, logo })}</script>
<noscript><p class="noscript">The Phrasebook dashboard needs JavaScript.</p></noscript>
<div id="app"></div>
</body>
</html>
`;
}
