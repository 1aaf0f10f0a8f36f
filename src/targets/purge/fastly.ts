import { surrogateKey } from "../../bundles/urls.ts";
import type { PurgeApi } from "./api.ts";

export const FASTLY_API = "https://api.fastly.com";

/**
 * Fastly: the server's own CDN answers carry `Surrogate-Key` (`{projectSlug}/latest`,
 * `{projectSlug}/c/{channelSlug}`), the mirror's objects `x-amz-meta-surrogate-key`; a change is
 * one `POST {api}/service/{service}/purge/{key}` per key it changed, with `Fastly-Key` (docs/deploy.md
 * "Object storage and CDN purge").
 */
export const fastly: PurgeApi = {
  name: "fastly",
  calls(paths) {
    const keys = new Set<string>();
    for (const path of paths) {
      const key = surrogateKey(path);
      if (key) keys.add(key);
    }
    return [...keys].map((key) => ({ key }));
  },
  request(call, settings) {
    return {
      url: `${settings.purgeApi ?? FASTLY_API}/service/${encodeURIComponent(settings.purgeService!)}/purge/${encodeURIComponent("key" in call ? call.key : "")}`,
      init: { method: "POST", headers: { "fastly-key": settings.purgeToken!, accept: "application/json" } },
    };
  },
};
