import { urlOf, type PurgeApi } from "./api.ts";

/** The smallest plan's limit of URLs in one purge_cache call (Cloudflare "Purge cached content"). */
export const CLOUDFLARE_FILES_PER_CALL = 30;
export const CLOUDFLARE_API = "https://api.cloudflare.com/client/v4";

/**
 * Cloudflare: `POST {api}/zones/{zone}/purge_cache` with `{"files": [urls]}` and a bearer API
 * token (docs/deploy.md "Object storage and CDN purge"). Its answer is 200 with `success: true`.
 */
export const cloudflare: PurgeApi = {
  name: "cloudflare",
  calls(paths, settings) {
    const urls = paths.map((p) => urlOf(settings, p));
    const calls = [];
    for (let i = 0; i < urls.length; i += CLOUDFLARE_FILES_PER_CALL) calls.push({ urls: urls.slice(i, i + CLOUDFLARE_FILES_PER_CALL) });
    return calls;
  },
  request(call, settings) {
    return {
      url: `${settings.purgeApi ?? CLOUDFLARE_API}/zones/${encodeURIComponent(settings.purgeZone!)}/purge_cache`,
      init: {
        method: "POST",
        headers: { authorization: `Bearer ${settings.purgeToken}`, "content-type": "application/json" },
        body: JSON.stringify({ files: "urls" in call ? call.urls : [] }),
      },
      accepted: (body) => {
        try {
          return (JSON.parse(body) as { success?: unknown }).success === true;
        } catch {
          return false;
        }
      },
    };
  },
};
