import { signPayload, USER_AGENT } from "../../common/signature.ts";
import { urlOf, type PurgeApi } from "./api.ts";

/**
 * The operator's own purge (docs/deploy.md "Object storage and CDN purge"), for a CDN without a
 * kind here (CloudFront, through a small function): `POST {PHRASEBOOK_PURGE_URL}` of
 * `{"urls": [...]}`, with the headers and signature of a webhook (docs/interface.md §6.3): the
 * event `cdn_purge`, one delivery id for every attempt, a fresh timestamp and signature each time.
 */
export const PURGE_EVENT = "cdn_purge";

export const http: PurgeApi = {
  name: "http",
  calls(paths, settings) {
    return paths.length ? [{ urls: paths.map((p) => urlOf(settings, p)) }] : [];
  },
  request(call, settings, deliveryId, nowSeconds) {
    const body = JSON.stringify({ urls: "urls" in call ? call.urls : [] });
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      "x-service-event": PURGE_EVENT,
      "x-service-delivery": deliveryId,
    };
    if (settings.purgeSecret) {
      headers["x-service-timestamp"] = String(nowSeconds);
      headers["x-service-signature"] = signPayload(settings.purgeSecret, nowSeconds, body);
    }
    return { url: settings.purgeUrl!, init: { method: "POST", headers, body } };
  },
};
