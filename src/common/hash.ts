/**
 * SHA-256, one way for the whole program: Bun's one-shot SHA256 (a fraction of the cost of building
 * a hasher object, and about 30% cheaper than `CryptoHasher.hash("sha256", ...)`, which looks the
 * algorithm up by name; it matters on the public API's per-request token check). Tokens and
 * session cookies are stored only as this hex; content tags use the base64url form.
 */
export function sha256Hex(data: string | Uint8Array): string {
  return Bun.SHA256.hash(data, "hex") as string;
}

export function sha256Base64Url(data: string | Uint8Array): string {
  return Bun.SHA256.hash(data, "base64url") as string;
}

/**
 * Constant-time comparison of two secrets' encodings (length is not secret: both are hashes).
 * Bun's global `crypto.timingSafeEqual`, the same function as node:crypto's, without loading that
 * module: about 13 ms of every start (bench/RESULTS.md "Start-up").
 */
export function timingSafeEqualStrings(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}
