import { signPayload } from "../common/signature.ts";

/**
 * docs/interface.md §6.3: both headers are sent only when the endpoint has a secret, and both are
 * regenerated for every attempt (the signature itself: common/signature.ts).
 */
export { SIGNATURE_PREFIX, signPayload } from "../common/signature.ts";

export function signatureHeaders(secret: string | null, timestampSeconds: number, rawBody: string): Record<string, string> {
  if (!secret) return {};
  return {
    "X-Service-Timestamp": String(timestampSeconds),
    "X-Service-Signature": signPayload(secret, timestampSeconds, rawBody),
  };
}
