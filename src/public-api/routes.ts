import { Elysia } from "elysia";
import { HttpError } from "../common/errors.ts";
import { pathOf } from "../common/http.ts";
import type { Settings } from "../config/settings.ts";
import { DOCS_CSP, renderDocsPage } from "./docs-page.ts";
import { ReleaseIdParams, ReleasesQueryWire } from "./model.ts";
import { buildOpenApi } from "./openapi.ts";
import type { PublicApi } from "./service.ts";

const KNOWN_PATHS = new Set(["/v1/projects", "/v1/releases", "/v1/project-languages", "/v1/openapi.json", "/v1/docs"]);

/**
 * The public API v1 (docs/interface.md §4-5, §7-8, docs/product.md §2) and its description. The four
 * GET endpoints are routes validated with the model's wire schemas and answered by
 * `PublicApi.answer`; cache hits with a valid token are answered before routing by the app's fast
 * path (`PublicApi.hit`). The other routes serve the documents and refuse the rest, so every answer
 * under /v1 carries the X-RateLimit-* headers.
 */
export function publicApiRoutes(settings: Settings, api: PublicApi, clientOf: (request: Request) => string) {
  const openApi = JSON.stringify(buildOpenApi(settings));
  const docsPage = renderDocsPage(JSON.parse(openApi));
  const answer = ({ request }: { request: Request }) => api.answer(request, clientOf(request));

  return new Elysia({ name: "public-api" })
    // The Authorization header is read and judged by tokens/token-auth.ts (a malformed one is the
    // 401 "invalid token", never a validation 400), so it has no schema of its own here.
    .get("/v1/projects", answer)
    .get("/v1/releases", answer, { query: ReleasesQueryWire })
    .get("/v1/releases/:release_id", answer, { params: ReleaseIdParams })
    .get("/v1/project-languages", answer)
    .get("/v1/openapi.json", ({ request }) =>
      new Response(openApi, { headers: { ...api.addressHeaders(clientOf(request)), "content-type": "application/json; charset=utf-8" } }),
    )
    .get("/v1/docs", ({ request }) =>
      new Response(docsPage, {
        headers: { ...api.addressHeaders(clientOf(request)), "content-type": "text/html; charset=utf-8", "content-security-policy": DOCS_CSP },
      }),
    )
    // The API is GET only (docs/interface.md §4); anything else under /v1 is answered here so it carries the headers.
    .all("/v1/*", ({ request }) => {
      const path = pathOf(request.url);
      const known = KNOWN_PATHS.has(path) || path.startsWith("/v1/releases/");
      const headers = api.addressHeaders(clientOf(request));
      if (known && request.method !== "GET") throw new HttpError(405, "method not allowed: the API is read-only", { ...headers, allow: "GET" });
      throw new HttpError(404, "not found", headers);
    });
}
