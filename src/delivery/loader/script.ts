import { bundleLoader } from "./bundle.ts" with { type: "macro" };

/**
 * `GET /client/ota.mjs` (docs/delivery.md "The loader"): the web loader, built from these sources
 * when the executable is (./bundle.ts). Browsers import it from any origin (CORS), and revalidate
 * it with its ETag. Loaded on the first request for it, not at start.
 */
const SCRIPT: string = bundleLoader();

let body: Uint8Array<ArrayBuffer> | undefined;
let etag: string | undefined;

export function loaderResponse(request: Request): Response {
  body ??= new TextEncoder().encode(SCRIPT);
  etag ??= `"${Bun.SHA256.hash(body, "base64url").slice(0, 22)}"`;
  const headers = {
    "content-type": "text/javascript; charset=utf-8",
    "cache-control": "no-cache",
    etag,
    "access-control-allow-origin": "*",
    "access-control-expose-headers": "ETag",
    "x-content-type-options": "nosniff",
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(body, { headers });
}
