import { bundleNodeClient } from "./bundle.ts" with { type: "macro" };

/**
 * `GET /client/phrasebook.mjs` (docs/automation.md "The Node client"): the server's own client for
 * Node.js, built from these sources when the executable is (./bundle.ts), so it is always the
 * server's version. Loaded on the first request for it, not at start.
 */
const SCRIPT: string = bundleNodeClient();

let body: Uint8Array<ArrayBuffer> | undefined;

export function nodeClientResponse(): Response {
  body ??= new TextEncoder().encode(SCRIPT);
  return new Response(body, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "content-disposition": 'attachment; filename="phrasebook.mjs"',
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    },
  });
}
