/**
 * The test vectors of docs/delivery.md "Test vectors": a key, a manifest, its signature, and a
 * rotation, made from fixed seeds, so a loader written in another language can check its code
 * against them. Ed25519 signatures are deterministic, so these never change.
 * `test/delivery/vectors.test.ts` holds the page to them and checks them with minisign.
 *
 *   bun scripts/delivery-vectors.ts     print the section as docs/delivery.md has it
 */
import { portableHashes, publicKeyOf, signFile, type SecretKey } from "../src/delivery/protocol/crypto.ts";
import { keyComment, manifestComment, type Manifest } from "../src/delivery/protocol/manifest.ts";
import { keyIdOf, publicKeyFile, publicKeyLine, signatureFile } from "../src/delivery/protocol/minisign.ts";

const bytesOf = (s: string) => new TextEncoder().encode(s);
const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
const digest = (s: string) => new Uint8Array(new Bun.CryptoHasher("sha256").update(s).digest());

function key(n: number): SecretKey {
  return { seed: digest(`phrasebook test vector key ${n}`), keyNumber: digest(`phrasebook test vector key number ${n}`).slice(0, 8) };
}

export interface Vectors {
  key1: SecretKey;
  key2: SecretKey;
  key1File: string;
  key2File: string;
  key2Signature: string;
  file: string;
  manifest7: string;
  signature7: string;
  manifest8: string;
  signature8: string;
  path: string;
  markdown: string;
}

export function deliveryVectors(): Vectors {
  const key1 = key(1);
  const key2 = key(2);
  const key1File = publicKeyFile({ keyNumber: key1.keyNumber, publicKey: publicKeyOf(key1.seed) });
  const key2File = publicKeyFile({ keyNumber: key2.keyNumber, publicKey: publicKeyOf(key2.seed) });
  const comment = (k: SecretKey) => `signature from phrasebook key ${keyIdOf(k.keyNumber)}`;
  const key2Signature = signatureFile(signFile(bytesOf(key2File), keyComment(2), key1, portableHashes), comment(key1));
  const file = `{\n  "hello": "Hallo {name}"\n}\n`;
  const project = "AbCdEfGhIjKlMnOp";
  const release = "rel_TestVector0000000001";
  const path = `p/${project}/r/latest/manifest.json`;
  const manifestAt = (sequence: number) => {
    const m: Manifest = {
      manifest_version: 1,
      sequence,
      release: { id: release, tag: "v1.0.0", published_at: "2026-11-28T12:00:00.000Z" },
      languages: {
        de: { is_base_language: false, files: { json: { url: `https://cdn.example.com/p/${project}/r/Zy9Xw8Vu7Ts6Rq5P/de.json`, sha256: portableHashes.sha256Hex(bytesOf(file)), bytes: bytesOf(file).length } } },
      },
    };
    return `${JSON.stringify(m, null, 2)}\n`;
  };
  const manifest7 = manifestAt(7);
  const manifest8 = manifestAt(8);
  const signature7 = signatureFile(signFile(bytesOf(manifest7), manifestComment(7, release, path), key1, portableHashes), comment(key1));
  const signature8 = signatureFile(signFile(bytesOf(manifest8), manifestComment(8, release, path), key2, portableHashes), comment(key2));
  const block = (text: string) => "```\n" + text + (text.endsWith("\n") ? "" : "\n") + "```";
  const markdown = `## Test vectors

Made by \`bun scripts/delivery-vectors.ts\` from fixed seeds (key n's seed is the SHA-256 of the
text \`phrasebook test vector key n\`, its key number the first 8 bytes of the SHA-256 of
\`phrasebook test vector key number n\`); \`test/delivery/vectors.test.ts\` checks this page against
them, and checks them with \`minisign -V\`. Every text below ends with one line feed.

Key 1: seed \`${hex(key1.seed)}\`, key number \`${hex(key1.keyNumber)}\` (ID ${keyIdOf(key1.keyNumber)}), public key \`${hex(publicKeyOf(key1.seed))}\`. Its \`key.pub\` (the key line, \`${publicKeyLine({ keyNumber: key1.keyNumber, publicKey: publicKeyOf(key1.seed) })}\`, is what an app is configured with):

${block(key1File)}

The file \`de.json\` the manifest names (${bytesOf(file).length} bytes, SHA-256 \`${portableHashes.sha256Hex(bytesOf(file))}\`):

${block(file)}

\`${path}\`, sequence 7:

${block(manifest7)}

Its BLAKE2b-512 (what \`ED\` signs) is \`${hex(portableHashes.blake2b512(bytesOf(manifest7)))}\`; its \`manifest.json.minisig\`, by key 1:

${block(signature7)}

A rotation. Key 2: seed \`${hex(key2.seed)}\`, key number \`${hex(key2.keyNumber)}\` (ID ${keyIdOf(key2.keyNumber)}). \`keys/2.pub\`:

${block(key2File)}

\`keys/2.pub.minisig\`, by key 1, trusted comment \`${keyComment(2)}\`:

${block(key2Signature)}

The same manifest at sequence 8 (the same text but \`"sequence": 8\`), signed by key 2:

${block(signature8)}

A loader that trusts key 1 accepts the sequence 7 manifest directly, and the sequence 8 one by
fetching \`keys/1.pub\` (to learn key 1's number), \`keys/2.pub\` and \`keys/2.pub.minisig\`; it then
refuses the sequence 7 manifest: it was signed by a key a later one replaced, and its sequence is
lower than the last good one.
`;
  return { key1, key2, key1File, key2File, key2Signature, file, manifest7, signature7, manifest8, signature8, path, markdown };
}

if (import.meta.main) process.stdout.write(deliveryVectors().markdown);
