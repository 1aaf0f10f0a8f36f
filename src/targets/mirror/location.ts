import type { Settings } from "../../config/settings.ts";

/**
 * Where the mirror writes (docs/deploy.md "Object storage and CDN purge"): a bucket of
 * S3-compatible storage and a prefix in it. The keys are the mirror's own settings, else
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, as the replica's copies fall back to them.
 */
export interface MirrorLocation {
  /** Unset: AWS S3 in `region`. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** No slash at either end; empty: keys are the CDN paths themselves. */
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
  virtualHosted: boolean;
}

export type MirrorSettings = Pick<Settings, "s3Endpoint" | "s3Bucket" | "s3Region" | "s3Prefix" | "s3AccessKeyId" | "s3SecretAccessKey" | "s3VirtualHosted">;

export function mirrorLocation(settings: MirrorSettings, env: Record<string, string | undefined> = process.env): MirrorLocation | undefined {
  if (!settings.s3Bucket) return undefined;
  return {
    endpoint: settings.s3Endpoint,
    bucket: settings.s3Bucket,
    region: settings.s3Region,
    prefix: settings.s3Prefix,
    accessKeyId: settings.s3AccessKeyId ?? env.AWS_ACCESS_KEY_ID ?? "",
    secretAccessKey: settings.s3SecretAccessKey ?? env.AWS_SECRET_ACCESS_KEY ?? "",
    virtualHosted: settings.s3VirtualHosted,
  };
}

/**
 * Which bucket and prefix, without the keys, and what the objects are made with: the queue
 * remembers it, and a mirror pointed elsewhere fills its new place in full (mirror.ts `catchUp`).
 * The CDN's address is part of it because every manifest names its files by their absolute URL
 * (docs/delivery.md "Manifests"): a new `PHRASEBOOK_CDN_URL` (a restore on another address, a
 * CDN moved) changes every manifest's bytes, and the full pass writes them again. So does Fastly
 * purging turned on or off, which adds or drops each object's surrogate key.
 */
export function locationId(location: MirrorLocation, made: { cdnUrl: string; surrogateKeys: boolean }): string {
  return JSON.stringify([location.endpoint ?? "aws", location.region, location.bucket, location.prefix, made.cdnUrl, made.surrogateKeys]);
}
