import { Elysia } from "elysia";
import type { AppDeps } from "../app.ts";
import { errorResponse } from "../common/errors.ts";
import { DOCS_CSP, renderDocsPage } from "./docs-page.ts";
import { ReleaseIdParam, ReleasesQueryWire } from "./model.ts";
import { buildOpenApi } from "./openapi.ts";
import { publicApiFor } from "./service.ts";

const KNOWN_PATHS = new Set(["/v1/projects", "/v1/releases", "/v1/project-languages"]);

/**
 * The public API v1 (spec 4.1-4.4, 5, 7, 8, CONTRACTS 2) and its description. Cache hits are
 * answered before Elysia routes the request (spec 4.2 rule 7: a hit costs no quota; the issue's
 * goal: a hit within 0.8x of a bare Bun.serve handler): by the server's fetch handler, and by
 * onRequest for callers of `app.handle` alone.
 */
export function publicApiRoutes(deps: AppDeps) {
  const api = publicApiFor(deps);
  const openApi = JSON.stringify(buildOpenApi(deps.settings));
  const docsPage = renderDocsPage(JSON.parse(openApi));

  const endpoints = new Elysia({ prefix: "/v1" })
    // derive runs before input validation, so auth and quota come first; a refusal (401, 429) is
    // a finished response that the handler returns as it is. Nothing goes into `set.headers`:
    // Elysia would then copy every returned Response to merge them in.
    .derive(({ request }) => ({ gate: api.admit(request) }))
    .get("/projects", ({ gate, request }) => (gate instanceof Response ? gate : api.projects(gate, request)))
    .get("/releases", ({ gate, request }) => (gate instanceof Response ? gate : api.releases(gate, request)), { query: ReleasesQueryWire })
    .get("/releases/:release_id", ({ gate, request, params }) => (gate instanceof Response ? gate : api.release(gate, request, params.release_id ?? "")), {
      params: ReleaseIdParam,
    })
    .get("/project-languages", ({ gate, request }) => (gate instanceof Response ? gate : api.projectLanguages(gate, request)));

  return new Elysia({ name: "public-api" })
    .onRequest(({ request }) => api.fastPath(request))
    .get("/v1/openapi.json", ({ request }) =>
      new Response(openApi, { headers: { ...api.addressHeaders(request), "content-type": "application/json; charset=utf-8" } }),
    )
    .get("/v1/docs", ({ request }) =>
      new Response(docsPage, {
        headers: { ...api.addressHeaders(request), "content-type": "text/html; charset=utf-8", "content-security-policy": DOCS_CSP },
      }),
    )
    .use(endpoints)
    // spec 4: the API is GET only; anything else under /v1 is answered here so it carries the headers.
    .all("/v1/*", ({ request }) => {
      const path = new URL(request.url).pathname;
      const known = KNOWN_PATHS.has(path) || path.startsWith("/v1/releases/") || path === "/v1/openapi.json" || path === "/v1/docs";
      const headers = api.addressHeaders(request);
      if (known && request.method !== "GET") return errorResponse(405, "method not allowed: the API is read-only", { ...headers, allow: "GET" });
      return errorResponse(404, "not found", headers);
    });
}
