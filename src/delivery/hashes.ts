import type { Hashes } from "./protocol/crypto.ts";

/** The protocol's hashes with Bun's own functions (docs/delivery.md "Signatures"): the server's. */
export const bunHashes: Hashes = {
  blake2b512: (bytes) => new Bun.CryptoHasher("blake2b512").update(bytes).digest() as Uint8Array,
  sha256Hex: (bytes) => Bun.SHA256.hash(bytes, "hex") as string,
};
