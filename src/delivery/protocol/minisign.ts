/**
 * minisign's file formats (docs/delivery.md "Signatures"), read and written with no dependency, so
 * the server, the command-line client (Bun or Node) and the web loader (browsers) share them.
 *
 * A public key file is two lines: `untrusted comment: minisign public key <ID>` and the base64 of
 * `"Ed" || key number (8 bytes) || Ed25519 public key (32 bytes)`. A signature file is four lines:
 * an untrusted comment, the base64 of `"ED" || key number || signature of BLAKE2b-512(file)`
 * (prehashed; `"Ed"`, the legacy form, signs the file itself), `trusted comment: <text>`, and the
 * base64 of the signature of (the first signature || the trusted comment's bytes). `<ID>` is the
 * key number read as a little-endian 64-bit integer, in 16 upper-case hex digits.
 */

export const KEY_NUMBER_BYTES = 8;
export const PUBLIC_KEY_BYTES = 32;
export const SIGNATURE_BYTES = 64;

/** Prehashed (BLAKE2b-512 of the file), what Phrasebook writes and `minisign -V` expects by default. */
export const ALG_HASHED = "ED";
/** The legacy form: the file itself is signed. Read, never written. */
export const ALG_LEGACY = "Ed";

const UNTRUSTED = "untrusted comment: ";
const TRUSTED = "trusted comment: ";
/** minisign's bound on a trusted comment line (TRUSTEDCOMMENTMAXBYTES less the prefix). */
const TRUSTED_COMMENT_MAX_BYTES = 8192 - TRUSTED.length - 1;

export class MinisignFormatError extends Error {}

export interface PublicKey {
  keyNumber: Uint8Array;
  publicKey: Uint8Array;
}

export interface Signature {
  algorithm: typeof ALG_HASHED | typeof ALG_LEGACY;
  keyNumber: Uint8Array;
  signature: Uint8Array;
  trustedComment: string;
  globalSignature: Uint8Array;
}

export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return btoa(s);
}

export function fromBase64(text: string): Uint8Array {
  let s: string;
  try {
    s = atob(text);
  } catch {
    throw new MinisignFormatError("not base64");
  }
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const text = (bytes: Uint8Array) => String.fromCharCode(...bytes);

/** The key's ID as minisign prints it: the key number as a little-endian integer, 16 hex digits. */
export function keyIdOf(keyNumber: Uint8Array): string {
  let hex = "";
  for (let i = keyNumber.length - 1; i >= 0; i--) hex += keyNumber[i]!.toString(16).padStart(2, "0");
  return hex.toUpperCase();
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** The key line alone: base64 of `Ed || key number || public key`. */
export function publicKeyLine(key: PublicKey): string {
  const bytes = new Uint8Array(2 + KEY_NUMBER_BYTES + PUBLIC_KEY_BYTES);
  bytes.set(ascii(ALG_LEGACY), 0);
  bytes.set(key.keyNumber, 2);
  bytes.set(key.publicKey, 2 + KEY_NUMBER_BYTES);
  return toBase64(bytes);
}

/** A public key file, as `minisign -G` writes it. */
export function publicKeyFile(key: PublicKey): string {
  return `${UNTRUSTED}minisign public key ${keyIdOf(key.keyNumber)}\n${publicKeyLine(key)}\n`;
}

/**
 * A public key from a key file's text or its key line alone (what an app is configured with):
 * the last non-empty line is the key.
 */
export function parsePublicKey(source: string): PublicKey {
  const lines = source.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "");
  const line = lines.find((l) => !l.startsWith(UNTRUSTED));
  if (line === undefined || lines.length > 2) throw new MinisignFormatError("not a minisign public key (its key line, or the two lines of a key.pub file)");
  const bytes = fromBase64(line);
  if (bytes.length !== 2 + KEY_NUMBER_BYTES + PUBLIC_KEY_BYTES) throw new MinisignFormatError("not a minisign public key: wrong length");
  if (text(bytes.subarray(0, 2)) !== ALG_LEGACY) throw new MinisignFormatError("not an Ed25519 minisign public key");
  return { keyNumber: bytes.slice(2, 2 + KEY_NUMBER_BYTES), publicKey: bytes.slice(2 + KEY_NUMBER_BYTES) };
}

/** Whether a trusted comment can be written: one line of printable text, within minisign's bound. */
export function checkTrustedComment(comment: string): void {
  if (/[\u0000-\u001f\u007f]/.test(comment) || new TextEncoder().encode(comment).length > TRUSTED_COMMENT_MAX_BYTES) {
    throw new MinisignFormatError("a trusted comment must be one line of printable text");
  }
}

/** What the global signature signs: the file's signature, then the trusted comment's UTF-8 bytes. */
export function globalPayload(signature: Uint8Array, trustedComment: string): Uint8Array {
  const comment = new TextEncoder().encode(trustedComment);
  const out = new Uint8Array(signature.length + comment.length);
  out.set(signature, 0);
  out.set(comment, signature.length);
  return out;
}

export function signatureFile(sig: Omit<Signature, "algorithm">, untrustedComment: string): string {
  checkTrustedComment(sig.trustedComment);
  const head = new Uint8Array(2 + KEY_NUMBER_BYTES + SIGNATURE_BYTES);
  head.set(ascii(ALG_HASHED), 0);
  head.set(sig.keyNumber, 2);
  head.set(sig.signature, 2 + KEY_NUMBER_BYTES);
  return `${UNTRUSTED}${untrustedComment}\n${toBase64(head)}\n${TRUSTED}${sig.trustedComment}\n${toBase64(sig.globalSignature)}\n`;
}

/** Reads a signature file as minisign does (four lines; trailing white space ignored). */
export function parseSignature(source: string): Signature {
  const lines = source.split("\n").map((l) => l.replace(/[\s]+$/, ""));
  const [comment, head, trusted, global] = lines;
  if (comment === undefined || !comment.startsWith(UNTRUSTED)) throw new MinisignFormatError(`not a minisign signature: the first line must start with "${UNTRUSTED}"`);
  if (head === undefined || trusted === undefined || global === undefined) throw new MinisignFormatError("not a minisign signature: it has fewer than four lines");
  if (!trusted.startsWith(TRUSTED)) throw new MinisignFormatError(`not a minisign signature: the third line must start with "${TRUSTED}"`);
  const bytes = fromBase64(head);
  if (bytes.length !== 2 + KEY_NUMBER_BYTES + SIGNATURE_BYTES) throw new MinisignFormatError("not a minisign signature: wrong length");
  const algorithm = text(bytes.subarray(0, 2));
  if (algorithm !== ALG_HASHED && algorithm !== ALG_LEGACY) throw new MinisignFormatError("unsupported signature algorithm");
  const globalSignature = fromBase64(global);
  if (globalSignature.length !== SIGNATURE_BYTES) throw new MinisignFormatError("not a minisign signature: wrong length of the comment signature");
  const trustedComment = trusted.slice(TRUSTED.length);
  checkTrustedComment(trustedComment);
  return { algorithm, keyNumber: bytes.slice(2, 2 + KEY_NUMBER_BYTES), signature: bytes.slice(2 + KEY_NUMBER_BYTES), trustedComment, globalSignature };
}
