import { Elysia } from "elysia";
import pkg from "../../package.json" with { type: "json" };
import type { AppDeps } from "../app.ts";
import { findProject } from "../authoring/projects.ts";
import { authenticate } from "../authoring/routes/guard.ts";
import { notFound } from "../common/errors.ts";
import { ASSET_PREFIX, assetResponse, assets } from "./assets.ts";
import { projectProgress } from "./progress.ts";
import { CONTENT_SECURITY_POLICY, renderShell } from "./shell.ts";

const API_PREFIX = "/dashboard/api/";

/**
 * The dashboard pages (issue 6): one HTML shell for every path under /dashboard (the client routes
 * from the path, so deep links and reloads work), the embedded assets, and the one read the pages
 * need beyond CONTRACTS 4 (per-language progress).
 */
export function dashboardRoutes(deps: AppDeps) {
  const html = renderShell({ api_url: `${deps.settings.publicUrl}/v1`, cdn_url: deps.settings.cdnUrl, version: pkg.version });
  const shell = (request: Request) => {
    const path = new URL(request.url).pathname;
    // An unknown API path is a JSON 404, never the page (scripts must not get HTML back).
    if (path.startsWith(API_PREFIX) || path.startsWith(ASSET_PREFIX)) throw notFound("not found");
    return new Response(html, {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-cache",
        "content-security-policy": CONTENT_SECURITY_POLICY,
        "x-content-type-options": "nosniff",
        "referrer-policy": "same-origin",
      },
    });
  };
  return new Elysia()
    .get("/dashboard", ({ request }) => shell(request))
    .get("/dashboard/*", ({ request }) => shell(request))
    .get(`${ASSET_PREFIX}:name`, ({ params, request }) => {
      const asset = assets().get(params.name);
      if (!asset) throw notFound("no such asset");
      return assetResponse(asset, request);
    })
    .get(`${API_PREFIX}projects/:pid/progress`, ({ params, request }) => {
      authenticate(deps, request);
      return projectProgress(deps.db, findProject(deps.db, params.pid));
    });
}
