import { Elysia } from "elysia";
import type { AppDeps } from "../app.ts";
import { errorResponse } from "../common/errors.ts";
import { DOCS_CSP, renderDocsPage } from "./docs-page.ts";
import { ReleaseIdParams, ReleasesQueryWire } from "./model.ts";
import { buildOpenApi } from "./openapi.ts";
import { publicApiFor } from "./service.ts";

const KNOWN_PATHS = new Set(["/v1/projects", "/v1/releases", "/v1/project-languages", "/v1/openapi.json", "/v1/docs"]);

/**
 * The public API v1 (spec 4.1-4.4, 5, 7, 8, CONTRACTS 2) and its description. The four GET
 * endpoints are routes validated with the model's wire schemas and answered by `PublicApi.answer`;
 * cache hits with a valid token are also answered before routing by the server's fetch handler
 * (`PublicApi.hit`, like CDN files: the throughput goal). The other routes serve the
 * documents and refuse the rest, so every answer under /v1 carries the X-RateLimit-* headers.
 */
export function publicApiRoutes(deps: AppDeps) {
  const api = publicApiFor(deps);
  const openApi = JSON.stringify(buildOpenApi(deps.settings));
  const docsPage = renderDocsPage(JSON.parse(openApi));

  return new Elysia({ name: "public-api" })
    // The Authorization header is read and judged by token-auth.ts (spec 5: a malformed one is the
    // 401 "invalid token", never a validation 400), so it has no schema of its own here.
    .get("/v1/projects", ({ request }) => api.answer(request))
    .get("/v1/releases", ({ request }) => api.answer(request), { query: ReleasesQueryWire })
    .get("/v1/releases/:release_id", ({ request }) => api.answer(request), { params: ReleaseIdParams })
    .get("/v1/project-languages", ({ request }) => api.answer(request))
    .get("/v1/openapi.json", ({ request }) =>
      new Response(openApi, { headers: { ...api.addressHeaders(request), "content-type": "application/json; charset=utf-8" } }),
    )
    .get("/v1/docs", ({ request }) =>
      new Response(docsPage, {
        headers: { ...api.addressHeaders(request), "content-type": "text/html; charset=utf-8", "content-security-policy": DOCS_CSP },
      }),
    )
    // spec 4: the API is GET only; anything else under /v1 is answered here so it carries the headers.
    .all("/v1/*", ({ request }) => {
      const path = new URL(request.url).pathname;
      const known = KNOWN_PATHS.has(path) || path.startsWith("/v1/releases/");
      const headers = api.addressHeaders(request);
      if (known && request.method !== "GET") return errorResponse(405, "method not allowed: the API is read-only", { ...headers, allow: "GET" });
      return errorResponse(404, "not found", headers);
    });
}
