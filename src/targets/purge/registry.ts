import type { Settings } from "../../config/settings.ts";
import type { PurgeApi } from "./api.ts";
import { cloudflare } from "./cloudflare.ts";
import { fastly } from "./fastly.ts";
import { http } from "./http.ts";

/** The purge APIs `PHRASEBOOK_PURGE` names (docs/deploy.md "Object storage and CDN purge"). */
export const PURGE_APIS: readonly PurgeApi[] = [cloudflare, fastly, http];

export function purgeApi(name: Settings["purge"]): PurgeApi | undefined {
  return PURGE_APIS.find((api) => api.name === name);
}
