import { withHeaders } from "@elysiajs/openapi";
import { Elysia, t, type AnyElysia } from "elysia";
import { notFound } from "../common/errors.ts";
import { pathOf } from "../common/http.ts";
import { staticAssetResponse } from "../common/static-asset.ts";
import type { Settings } from "../config/settings.ts";
import { DOCS_CSP, docsScript, renderDocsPage } from "./docs-page.ts";
import { ENDPOINTS, type Endpoint } from "./endpoints.ts";
import { errorBodyFor, Int, NAMED_SCHEMAS, type NamedSchema } from "./model.ts";
import { buildOpenApi } from "./openapi.ts";
import { methodNotAllowed, type PublicApi } from "./service.ts";

/** Every API answer carries these (docs/product.md §2). */
const QUOTA_HEADERS = {
  "X-RateLimit-Limit": Int({ description: "Requests allowed per window" }),
  "X-RateLimit-Remaining": Int({ minimum: 0, description: "Requests left in the current window" }),
  "X-RateLimit-Reset": Int({ description: "Unix time (seconds) at which the current window ends" }),
};
const RETRY_AFTER = Int({ minimum: 1, description: "Whole seconds until the window ends; waiting less fails again" });

/** A named schema of the model, as the document's components list it. */
const ref = (name: NamedSchema) => t.Ref(`#/components/schemas/${name}`);

/** The answers of an endpoint: those every endpoint can give, and its own errors, with their headers. */
function answers(endpoint: Endpoint) {
  const own = Object.entries(endpoint.errors ?? {}).map(([status, e]) => [status, withHeaders(errorBodyFor(e.description, e.example), QUOTA_HEADERS)]);
  return {
    200: withHeaders(ref(endpoint.ok), QUOTA_HEADERS),
    401: withHeaders(errorBodyFor("Missing or invalid token", "invalid token"), QUOTA_HEADERS),
    // A live token without the read scope (docs/product.md §6: write and publish are for CI).
    403: withHeaders(errorBodyFor("A token without the read scope", "token lacks scope read"), QUOTA_HEADERS),
    429: withHeaders(ref("RateLimitError"), { ...QUOTA_HEADERS, "Retry-After": RETRY_AFTER }),
    ...Object.fromEntries(own),
  };
}

/**
 * One route per row of the endpoint table (endpoints.ts, docs/interface.md §4.1-4.4), with the
 * row's schemas: Elysia validates the inputs with them, and the OpenAPI document is generated from
 * them. Each is answered by `PublicApi.answer` with the row's function; cache hits and misses with
 * a valid token mostly never get here, the app's fast path answers those from the same rows.
 */
function endpointRoutes(api: PublicApi, clientOf: (request: Request) => string): AnyElysia {
  const routes = new Elysia({ name: "public-api-endpoints" }).model(NAMED_SCHEMAS);
  for (const endpoint of ENDPOINTS) {
    routes.get(endpoint.path, ({ request, params }) => api.answer(endpoint, request, params, clientOf(request)), {
      ...(endpoint.query && { query: endpoint.query }),
      ...(endpoint.params && { params: endpoint.params }),
      response: answers(endpoint),
      detail: { ...endpoint.detail },
    });
  }
  return routes;
}

/**
 * The public API v1 (docs/interface.md §4-5, §7-8, docs/product.md §2) and its description:
 * the endpoints, the OpenAPI 3.1 document generated from them (docs/public-api.md "OpenAPI"), the
 * reference page, and an answer for everything else under /v1, so every answer under /v1 carries
 * the X-RateLimit-* headers. The documents are made on their first request: nothing at start-up
 * needs them.
 */
export function publicApiRoutes(settings: Settings, api: PublicApi, clientOf: (request: Request) => string) {
  const script = docsScript();
  let openApi: string | undefined;
  let docsPage: string | undefined;
  // The documents (GET only, no token), by path; the reference page's script is a static asset.
  const documents: Record<string, { body: () => string; headers: Record<string, string> }> = {
    "/v1/openapi.json": {
      // From routes of its own: once used by the app, an Elysia instance's routes are the app's.
      body: () => (openApi ??= JSON.stringify(buildOpenApi(settings, endpointRoutes(api, clientOf)))),
      headers: { "content-type": "application/json; charset=utf-8" },
    },
    "/v1/docs": {
      body: () => (docsPage ??= renderDocsPage(script.name)),
      headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": DOCS_CSP },
    },
  };
  const scriptPath = `/v1/docs/${script.name}`;
  const hidden = { detail: { hide: true } };

  const routes = new Elysia({ name: "public-api" }).use(endpointRoutes(api, clientOf));
  for (const [path, { body, headers }] of Object.entries(documents)) {
    // Elysia answers HEAD with the GET handler; under /v1 only GET is a method (docs/interface.md §4).
    routes.get(path, ({ request }) => {
      const quota = api.addressHeaders(clientOf(request));
      if (request.method !== "GET") throw methodNotAllowed(quota);
      return new Response(body(), { headers: { ...quota, ...headers } });
    }, hidden);
  }
  return (
    routes
      .get(scriptPath, ({ request }) => staticAssetResponse(script, request), hidden)
      // The API is GET only (docs/interface.md §4): another method on a path that answers GET is a
      // 405, any other path a 404, both answered here so they carry the headers.
      .all("/v1/*", ({ request }) => {
        const path = pathOf(request.url);
        const headers = api.addressHeaders(clientOf(request));
        const known = api.isEndpoint(path) || Object.hasOwn(documents, path) || path === scriptPath;
        if (known && request.method !== "GET") throw methodNotAllowed(headers);
        throw notFound("not found", headers);
      }, hidden)
  );
}
