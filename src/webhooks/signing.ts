/**
 * docs/interface.md §6.3: `X-Service-Signature` is `sha256=` + hex
 * HMAC-SHA256(secret, "<timestamp>.<raw body>"), where the timestamp is the `X-Service-Timestamp`
 * value in Unix seconds. Both headers are sent only when the endpoint has a secret, and both are
 * regenerated for every attempt.
 */
export const SIGNATURE_PREFIX = "sha256=";

/** HMAC by Bun's hasher given a key (node:crypto's createHmac would load that module at every start). */
export function signPayload(secret: string, timestampSeconds: number, rawBody: string): string {
  return SIGNATURE_PREFIX + new Bun.CryptoHasher("sha256", secret).update(`${timestampSeconds}.${rawBody}`).digest("hex");
}

export function signatureHeaders(secret: string | null, timestampSeconds: number, rawBody: string): Record<string, string> {
  if (!secret) return {};
  return {
    "X-Service-Timestamp": String(timestampSeconds),
    "X-Service-Signature": signPayload(secret, timestampSeconds, rawBody),
  };
}
