import { withHeaders } from "@elysiajs/openapi";
import { Elysia, t } from "elysia";
import { HttpError } from "../common/errors.ts";
import { pathOf } from "../common/http.ts";
import { staticAssetResponse } from "../common/static-asset.ts";
import type { Settings } from "../config/settings.ts";
import { DOCS_CSP, docsScript, renderDocsPage } from "./docs-page.ts";
import { errorBodyFor, Int, NAMED_SCHEMAS, ReleaseIdParams, ReleasesQueryWire } from "./model.ts";
import { buildOpenApi } from "./openapi.ts";
import type { PublicApi } from "./service.ts";

const KNOWN_PATHS = new Set(["/v1/projects", "/v1/releases", "/v1/project-languages", "/v1/openapi.json", "/v1/docs"]);

/** Every API answer carries these (docs/product.md §2). */
const QUOTA_HEADERS = {
  "X-RateLimit-Limit": Int({ description: "Requests allowed per window" }),
  "X-RateLimit-Remaining": Int({ minimum: 0, description: "Requests left in the current window" }),
  "X-RateLimit-Reset": Int({ description: "Unix time (seconds) at which the current window ends" }),
};
const RETRY_AFTER = Int({ minimum: 1, description: "Whole seconds until the window ends; waiting less fails again" });

/** A named schema of the model, as the document's components list it. */
const ref = (name: keyof typeof NAMED_SCHEMAS) => t.Ref(`#/components/schemas/${name}`);

/** The answers every endpoint can give besides its own, with their headers. */
function answers(ok: keyof typeof NAMED_SCHEMAS, more: Record<number, unknown> = {}) {
  return {
    200: withHeaders(ref(ok), QUOTA_HEADERS),
    401: withHeaders(errorBodyFor("Missing or invalid token", "invalid token"), QUOTA_HEADERS),
    // A live token without the read scope (docs/product.md §6: write and publish are for CI).
    403: withHeaders(errorBodyFor("A token without the read scope", "token lacks scope read"), QUOTA_HEADERS),
    429: withHeaders(ref("RateLimitError"), { ...QUOTA_HEADERS, "Retry-After": RETRY_AFTER }),
    ...more,
  } as const;
}

/**
 * The four endpoints (docs/interface.md §4.1-4.4) with the schemas of what they take and answer:
 * Elysia validates the inputs with them, and the OpenAPI document is generated from them. They are
 * answered by `PublicApi.answer`; cache hits with a valid token never get here, the app's fast path
 * answers those (`PublicApi.hit`).
 */
function endpoints(api: PublicApi, clientOf: (request: Request) => string) {
  const answer = ({ request }: { request: Request }) => api.answer(request, clientOf(request));
  return new Elysia({ name: "public-api-endpoints" })
    .model(NAMED_SCHEMAS)
    // The Authorization header is read and judged by tokens/token-auth.ts (a malformed one is the
    // 401 "invalid token", never a validation 400), so it has no schema of its own here.
    .get("/v1/projects", answer, {
      response: answers("ProjectList"),
      detail: { operationId: "listProjects", summary: "The token's project", description: "Always exactly one item: a token belongs to one project." },
    })
    .get("/v1/releases", answer, {
      query: ReleasesQueryWire,
      response: answers("ReleaseList", {
        400: withHeaders(
          errorBodyFor("A page or page_size that is not a positive whole number, or a parameter given twice", 'invalid query parameter "page": must be a positive whole number'),
          QUOTA_HEADERS,
        ),
      }),
      detail: { operationId: "listReleases", summary: "Published releases, paged", description: "Drafts are never listed. Page until page reaches page_info.total_pages." },
    })
    .get("/v1/releases/:release_id", answer, {
      params: ReleaseIdParams,
      response: answers("ReleaseDetail", { 404: withHeaders(errorBodyFor("No such release, or a draft", "release not found"), QUOTA_HEADERS) }),
      detail: {
        operationId: "getRelease",
        summary: "One published release with its languages and download URLs",
        description: "A draft answers exactly like a release that does not exist.",
      },
    })
    .get("/v1/project-languages", answer, {
      response: answers("ProjectLanguageList"),
      detail: { operationId: "listProjectLanguages", summary: "Every language of the project", description: "Never paginated." },
    });
}

/**
 * The public API v1 (docs/interface.md §4-5, §7-8, docs/product.md §2) and its description:
 * the endpoints, the OpenAPI 3.1 document generated from them (docs/public-api.md "OpenAPI"), the
 * reference page, and an answer for everything else under /v1, so every answer under /v1 carries
 * the X-RateLimit-* headers.
 */
export function publicApiRoutes(settings: Settings, api: PublicApi, clientOf: (request: Request) => string) {
  const routes = endpoints(api, clientOf);
  const openApi = JSON.stringify(buildOpenApi(settings, routes));
  const script = docsScript();
  const docsPage = renderDocsPage(script.name);
  const hidden = { detail: { hide: true } };
  // Elysia answers HEAD with the GET handler; under /v1 only GET is a method (docs/interface.md §4).
  const document = (request: Request, body: string, headers: Record<string, string>) => {
    const quota = api.addressHeaders(clientOf(request));
    if (request.method !== "GET") throw new HttpError(405, "method not allowed: the API is read-only", { ...quota, allow: "GET" });
    return new Response(body, { headers: { ...quota, ...headers } });
  };

  return new Elysia({ name: "public-api" })
    .use(routes)
    .get("/v1/openapi.json", ({ request }) => document(request, openApi, { "content-type": "application/json; charset=utf-8" }), hidden)
    .get("/v1/docs", ({ request }) => document(request, docsPage, { "content-type": "text/html; charset=utf-8", "content-security-policy": DOCS_CSP }), hidden)
    .get(`/v1/docs/${script.name}`, ({ request }) => staticAssetResponse(script, request), hidden)
    // The API is GET only (docs/interface.md §4); anything else under /v1 is answered here so it carries the headers.
    .all("/v1/*", ({ request }) => {
      const path = pathOf(request.url);
      const known = KNOWN_PATHS.has(path) || path.startsWith("/v1/releases/");
      const headers = api.addressHeaders(clientOf(request));
      if (known && request.method !== "GET") throw new HttpError(405, "method not allowed: the API is read-only", { ...headers, allow: "GET" });
      throw new HttpError(404, "not found", headers);
    }, hidden);
}
