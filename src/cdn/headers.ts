import type { Encoding } from "../common/http.ts";

import { CACHE_CONTROL_LATEST, CACHE_CONTROL_PINNED } from "../bundles/urls.ts";

export { CACHE_CONTROL_LATEST, CACHE_CONTROL_PINNED };
/** docs/product.md §3: a 404 must not be cached, so a publish or an undone rotation shows at once. */
export const CACHE_CONTROL_NOT_FOUND = "no-store";

/**
 * Browsers fetch bundles from other origins directly (docs/product.md §3). The files are public by
 * capability URL, so any origin may read them; ETag is exposed for scripts that revalidate.
 */
const CORS = { "access-control-allow-origin": "*", "access-control-expose-headers": "ETag" } as const;

export const PREFLIGHT_HEADERS = {
  ...CORS,
  "access-control-allow-methods": "GET, HEAD, OPTIONS",
  "access-control-allow-headers": "*",
  "access-control-max-age": "86400",
  "cache-control": "public, max-age=86400",
};

export interface FileHeaders {
  ok: Record<string, string>;
  notModified: Record<string, string>;
}

/**
 * Built once per cached file and encoding, so a hit copies a ready object (the hot path). The
 * content type is the format's own (docs/product.md §3, src/formats/registry.ts).
 */
export function fileHeaders(contentType: string, cacheControl: string, etag: string, encoding: Encoding, surrogateKey: string | null = null): FileHeaders {
  const common: Record<string, string> = { ...CORS, "cache-control": cacheControl, etag, vary: "Accept-Encoding" };
  // Fastly purges by this key and strips it before the answer leaves its edge.
  if (surrogateKey) common["surrogate-key"] = surrogateKey;
  const ok: Record<string, string> = { ...common, "content-type": contentType, "x-content-type-options": "nosniff" };
  if (encoding !== "identity") ok["content-encoding"] = encoding;
  return { ok, notModified: common };
}

export const NOT_FOUND_HEADERS = {
  ...CORS,
  "cache-control": CACHE_CONTROL_NOT_FOUND,
  "content-type": "application/json; charset=utf-8",
};
