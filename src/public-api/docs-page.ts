import { makeStaticAsset, type StaticAsset } from "../common/static-asset.ts";
import { SCALAR_PATH, SCALAR_SHA256 } from "./scalar-bundle.ts";

/**
 * The browsable API reference at /v1/docs (docs/product.md §2, docs/public-api.md "OpenAPI"):
 * Scalar's API reference, from its npm package, built into the executable and served from here,
 * reading /v1/openapi.json. Nothing is loaded from anywhere else: Scalar's web fonts, telemetry
 * and AI assistant are off, and the page's Content-Security-Policy allows this origin only.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const SCALAR_CONFIGURATION = {
  url: "openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  hideClientButton: false,
  showDeveloperTools: "never",
  documentDownloadType: "json",
};

let script: StaticAsset | undefined;

/** Scalar's standalone script (about 4 MB), a file of the build, as a static asset. */
export function docsScript(): StaticAsset {
  script ??= makeStaticAsset("scalar", "js", "text/javascript; charset=utf-8", Bun.file(SCALAR_PATH), SCALAR_SHA256);
  return script;
}

/** The page: Scalar's documented embedding (a configuration element, then its script). */
export function renderDocsPage(scriptName: string): string {
  // JSON inside an HTML attribute: every character that could end the attribute is escaped.
  const configuration = JSON.stringify(SCALAR_CONFIGURATION).replace(/&/g, "&amp;").replace(/'/g, "&#39;").replace(/</g, "&lt;");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Phrasebook public API</title>
</head>
<body>
<script id="api-reference" type="application/json" data-configuration='${configuration}'></script>
<script src="docs/${scriptName}"></script>
</body>
</html>
`;
}
