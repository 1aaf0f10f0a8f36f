/**
 * docs/interface.md §6.3: `X-Service-Signature` is `sha256=` + hex
 * HMAC-SHA256(secret, "<timestamp>.<raw body>"), where the timestamp is the `X-Service-Timestamp`
 * value in Unix seconds. Webhooks sign this way, and so does the http purge of the mirror
 * (docs/deploy.md "Object storage and CDN purge"), with the same `User-Agent`.
 */
export const SIGNATURE_PREFIX = "sha256=";
export const USER_AGENT = "Service-Webhooks/1.0";

/** HMAC by Bun's hasher given a key (node:crypto's createHmac would load that module at every start). */
export function signPayload(secret: string, timestampSeconds: number, rawBody: string): string {
  return SIGNATURE_PREFIX + new Bun.CryptoHasher("sha256", secret).update(`${timestampSeconds}.${rawBody}`).digest("hex");
}
