import { Elysia } from "elysia";
import pkg from "../../package.json" with { type: "json" };
import { notFound } from "../common/errors.ts";
import { pathOf } from "../common/http.ts";
import type { Settings } from "../config/settings.ts";
import { staticAssetResponse } from "../common/static-asset.ts";
import { ASSET_PREFIX, assets } from "./assets.ts";
import { CONTENT_SECURITY_POLICY, FORMAT_INFO, renderShell } from "./shell.ts";

const DASHBOARD_API_PATH = "/dashboard/api/";

/**
 * The dashboard pages (docs/dashboard.md): one HTML shell for every path under /dashboard (the
 * client routes from the path, so deep links and reloads work) and the embedded assets.
 */
export function dashboardPages(settings: Settings) {
  const html = renderShell({ api_url: `${settings.publicUrl}/v1`, cdn_url: settings.cdnUrl, version: pkg.version, formats: FORMAT_INFO });
  const shell = (request: Request) => {
    const path = pathOf(request.url);
    // An unknown API path is a JSON 404, never the page (scripts must not get HTML back).
    if (path.startsWith(DASHBOARD_API_PATH) || path.startsWith(ASSET_PREFIX)) throw notFound("not found");
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
      return staticAssetResponse(asset, request);
    });
}
