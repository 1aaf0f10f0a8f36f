import { timingSafeEqual } from "node:crypto";

/** SHA-256 hex of a string: token and session lookups store only this, never the secret. */
export function sha256Hex(value: string): string {
  return new Bun.CryptoHasher("sha256").update(value).digest("hex");
}

/** Constant-time comparison of two secrets' encodings (length is not secret: both are hashes). */
export function timingSafeEqualStrings(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
