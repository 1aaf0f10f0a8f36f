import { signatureFault, type Hashes } from "./crypto.ts";
import { keyComment, MANIFEST_VERSION, numberedKeyPathOf, parseManifestComment, SIGNATURE_SUFFIX, type Manifest, type ManifestFile } from "./manifest.ts";
import { keyIdOf, MinisignFormatError, parsePublicKey, parseSignature, publicKeyLine, sameBytes, type PublicKey } from "./minisign.ts";

/**
 * What a client checks before it uses a manifest (docs/delivery.md "What a loader checks"): the
 * signature, by a key it trusts or one the project's key chain leads to from it; the path the
 * signature names; and a sequence no lower than the last good one. `phrasebook verify` and the web
 * loader run this same code.
 */
export class VerifyError extends Error {}

/** Keys checked so far, oldest first: the configured one (its number found when needed) and those the chain proved. */
export interface KeyChain {
  keys: { n: number | null; key: string }[];
}

/** Reads a path under the CDN's address: its text, or null when the CDN answers 404. */
export type FetchText = (path: string) => Promise<string | null>;

/** How far a client walks the key files looking for its key's number, or for the next key. */
export const KEY_CHAIN_MAX = 1000;

export function chainOf(trusted: string): KeyChain {
  return { keys: [{ n: null, key: publicKeyLine(parsePublicKey(trusted)) }] };
}

function keyNumberOf(line: string): Uint8Array {
  return parsePublicKey(line).keyNumber;
}

/**
 * The key a signature names, from the chain, or found by following the project's key files from
 * the newest key checked: key n+1's file must be signed by key n with the trusted comment
 * `phrasebook key n=<n+1>`. A key older than the newest checked is refused: a rotation retires it.
 */
async function keyFor(keyNumber: Uint8Array, chain: KeyChain, projectSlug: string, fetchText: FetchText, hashes: Hashes): Promise<{ key: PublicKey; chain: KeyChain }> {
  const keys = [...chain.keys];
  const newest = keys[keys.length - 1]!;
  const at = keys.findIndex((k) => sameBytes(keyNumberOf(k.key), keyNumber));
  if (at >= 0 && at < keys.length - 1) throw new VerifyError(`signed by key ${keyIdOf(keyNumber)}, which a later key of the project replaced`);
  if (at >= 0) return { key: parsePublicKey(newest.key), chain };
  let n = newest.n;
  if (n === null) {
    // The configured key's number: the first of the project's key files that holds it.
    for (let i = 1; i <= KEY_CHAIN_MAX && n === null; i++) {
      const file = await fetchText(numberedKeyPathOf(projectSlug, i));
      if (file === null) break;
      if (publicKeyLine(parsePublicKey(file)) === newest.key) n = i;
    }
    if (n === null) throw new VerifyError(`signed by an unknown key ${keyIdOf(keyNumber)}, and the trusted key is none of the project's keys`);
    keys[keys.length - 1] = { n, key: newest.key };
  }
  for (let next = n + 1; next <= n + KEY_CHAIN_MAX; next++) {
    const path = numberedKeyPathOf(projectSlug, next);
    const file = await fetchText(path);
    if (file === null) break;
    const sigText = await fetchText(path + SIGNATURE_SUFFIX);
    if (sigText === null) throw new VerifyError(`key ${next} of the project has no signature by key ${next - 1}`);
    const previous = parsePublicKey(keys[keys.length - 1]!.key);
    const sig = parseSignature(sigText);
    const fault = signatureFault(new TextEncoder().encode(file), sig, previous, hashes);
    if (fault !== null || sig.trustedComment !== keyComment(next)) {
      throw new VerifyError(`key ${next} of the project is not signed by key ${next - 1} (${fault ?? "its trusted comment is not theirs"}): a rotation the old key did not sign`);
    }
    const key = parsePublicKey(file);
    keys.push({ n: next, key: publicKeyLine(key) });
    if (sameBytes(key.keyNumber, keyNumber)) return { key, chain: { keys } };
  }
  throw new VerifyError(`signed by an unknown key ${keyIdOf(keyNumber)}: not the trusted key, nor one the project's key chain leads to from it`);
}

export interface VerifiedManifest {
  manifest: Manifest;
  /** The chain with the keys checked on the way; a client keeps it for the next time. */
  chain: KeyChain;
}

/**
 * Checks a manifest's signature and what the signature says (its path, sequence and release),
 * and that the sequence is not lower than `minSequence`. Throws a VerifyError saying why in one line.
 */
export async function verifyManifest(input: {
  manifest: Uint8Array;
  signature: string;
  /** The manifest's path under the CDN's address, as fetched. */
  path: string;
  projectSlug: string;
  chain: KeyChain;
  fetchText: FetchText;
  hashes: Hashes;
  minSequence?: number;
}): Promise<VerifiedManifest> {
  try {
    const sig = parseSignature(input.signature);
    const { key, chain } = await keyFor(sig.keyNumber, input.chain, input.projectSlug, input.fetchText, input.hashes);
    const fault = signatureFault(input.manifest, sig, key, input.hashes);
    if (fault !== null) throw new VerifyError(`manifest signature: ${fault}`);
    const said = parseManifestComment(sig.trustedComment);
    if (said === null) throw new VerifyError("the signature's trusted comment is not a manifest's");
    if (said.path !== input.path) throw new VerifyError(`the manifest is signed for ${said.path}, not ${input.path}`);
    let manifest: Manifest;
    try {
      manifest = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(input.manifest)) as Manifest;
    } catch {
      throw new VerifyError("the manifest is not JSON");
    }
    if (manifest.manifest_version !== MANIFEST_VERSION) throw new VerifyError(`unknown manifest_version ${String(manifest.manifest_version)}`);
    if (manifest.sequence !== said.sequence || manifest.release?.id !== said.release) throw new VerifyError("the manifest says another sequence or release than its signature");
    if (input.minSequence !== undefined && manifest.sequence < input.minSequence) {
      throw new VerifyError(`the manifest is older than one already seen (sequence ${manifest.sequence} < ${input.minSequence}): refused as a replay`);
    }
    return { manifest, chain };
  } catch (err) {
    if (err instanceof MinisignFormatError) throw new VerifyError(err.message);
    throw err;
  }
}

/** Why a file's bytes are not what the manifest names; null when they are. */
export function fileFault(bytes: Uint8Array, entry: ManifestFile, hashes: Hashes): string | null {
  if (bytes.length !== entry.bytes) return `${bytes.length} bytes where the manifest says ${entry.bytes}`;
  if (hashes.sha256Hex(bytes) !== entry.sha256) return "its SHA-256 is not the manifest's";
  return null;
}
