/**
 * Public ids and slugs: random, opaque, never derived from row numbers or from each other.
 * Rejection sampling keeps every character equally likely (no modulo bias).
 */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const ACCEPT_BELOW = 256 - (256 % ALPHABET.length); // 248: bytes at or above are biased

export function randomString(length: number): string {
  let out = "";
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < ACCEPT_BELOW) out += ALPHABET[b % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Length of project and release CDN slugs (docs/interface.md §2.7). */
export const SLUG_LENGTH = 16;
export const newSlug = () => randomString(SLUG_LENGTH);

/** Public id with a short kind prefix, so a pasted id says what it is (`rel_...`). */
export type IdKind = "usr" | "prj" | "key" | "rel" | "tok" | "whk" | "dlv" | "tmx" | "gls" | "cmt" | "scr";
export const newId = (kind: IdKind) => `${kind}_${randomString(20)}`;

/** The shape of every public id; route labels and file paths rely on it. */
export const PUBLIC_ID_PATTERN = /^[a-z]{3}_[0-9A-Za-z]{20}$/;

export function isPublicIdShape(value: string): boolean {
  return PUBLIC_ID_PATTERN.test(value);
}
