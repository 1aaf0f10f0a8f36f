import type { Settings } from "../../config/settings.ts";

/**
 * A CDN's purge API (docs/deploy.md "Object storage and CDN purge"): one file per kind, named by
 * `PHRASEBOOK_PURGE`, listed in registry.ts. A kind turns the CDN paths a change changed into
 * calls (the fewest its API allows), and a call into a request; the queue (queue.ts) sends them
 * in order and retries each until its API says it was done.
 */
export type PurgeSettings = Pick<Settings, "cdnUrl" | "purge" | "purgeApi" | "purgeZone" | "purgeService" | "purgeToken" | "purgeUrl" | "purgeSecret">;

/** A call as the queue keeps it: what it names (URLs, or a surrogate key). */
export type PurgeCall = { urls: string[] } | { key: string };

export interface PurgeRequest {
  url: string;
  init: { method: "POST"; headers: Record<string, string>; body?: string };
  /** Whether the API's answer says it purged (its status checked first: only a 2xx can). */
  accepted?(body: string): boolean;
}

export interface PurgeApi {
  readonly name: NonNullable<Settings["purge"]>;
  /** The calls that purge these CDN paths (relative to the CDN's address; never pinned ones). */
  calls(paths: string[], settings: PurgeSettings): PurgeCall[];
  /** The request of a call; `deliveryId` stays the same across its attempts, `nowSeconds` does not. */
  request(call: PurgeCall, settings: PurgeSettings, deliveryId: string, nowSeconds: number): PurgeRequest;
}

/** `{cdn_url}/{path}`: the URL the CDN in front caches a path under. */
export const urlOf = (settings: PurgeSettings, path: string) => `${settings.cdnUrl}/${path}`;
