import * as ed from "@noble/ed25519";
import { blake2b } from "@noble/hashes/blake2.js";
import { sha256, sha512 } from "@noble/hashes/sha2.js";
import { globalPayload, sameBytes, type PublicKey, type Signature } from "./minisign.ts";

/**
 * Ed25519 and the hashes of the delivery protocol (docs/delivery.md "Signatures"), from the noble
 * libraries: audited, without dependencies, and the same code in Bun, Node 18+ and browsers (whose
 * WebCrypto has no BLAKE2b, and not everywhere Ed25519). The server hashes with Bun's own
 * functions where it can (`Hashes`); signing and verifying are these.
 */
ed.hashes.sha512 = sha512;

/** The hashes the protocol needs; the server passes Bun's, the client and the loader noble's. */
export interface Hashes {
  blake2b512(bytes: Uint8Array): Uint8Array;
  sha256Hex(bytes: Uint8Array): string;
}

function hex(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += bytes[i]!.toString(16).padStart(2, "0");
  return out;
}

export const portableHashes: Hashes = {
  blake2b512: (bytes) => blake2b(bytes, { dkLen: 64 }),
  sha256Hex: (bytes) => hex(sha256(bytes)),
};

export const SEED_BYTES = 32;

export function publicKeyOf(seed: Uint8Array): Uint8Array {
  return ed.getPublicKey(seed);
}

export function signBytes(message: Uint8Array, seed: Uint8Array): Uint8Array {
  return ed.sign(message, seed);
}

/** Strict RFC 8032 verification, as libsodium's (and so minisign's) is. */
export function verifyBytes(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return ed.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** A secret key the server holds: minisign's key number, the Ed25519 seed. */
export interface SecretKey {
  keyNumber: Uint8Array;
  seed: Uint8Array;
}

/** A prehashed (`ED`) signature of `file` with a trusted comment: the fields of a `.minisig` file. */
export function signFile(file: Uint8Array, trustedComment: string, key: SecretKey, hashes: Hashes): Omit<Signature, "algorithm"> {
  const signature = signBytes(hashes.blake2b512(file), key.seed);
  const globalSignature = signBytes(globalPayload(signature, trustedComment), key.seed);
  return { keyNumber: key.keyNumber, signature, trustedComment, globalSignature };
}

/** Why a signature does not verify, in one line; null when it does. */
export function signatureFault(file: Uint8Array, sig: Signature, key: PublicKey, hashes: Hashes): string | null {
  if (!sameBytes(sig.keyNumber, key.keyNumber)) return "signed by another key";
  const message = sig.algorithm === "ED" ? hashes.blake2b512(file) : file;
  if (!verifyBytes(sig.signature, message, key.publicKey)) return "the signature does not match the file";
  if (!verifyBytes(sig.globalSignature, globalPayload(sig.signature, sig.trustedComment), key.publicKey)) return "the signature of the trusted comment does not match";
  return null;
}
