/**
 * docs/delivery.md "Test vectors" is what scripts/delivery-vectors.ts makes, and the vectors are
 * right: `minisign -V` accepts them, and the protocol's verifier (the loader's and `phrasebook
 * verify`'s) walks the rotation from key 1 and refuses the older manifest after it.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deliveryVectors } from "../../scripts/delivery-vectors.ts";
import { portableHashes } from "../../src/delivery/protocol/crypto.ts";
import { chainOf, verifyManifest, VerifyError } from "../../src/delivery/protocol/verify.ts";
import { ROOT } from "../helpers/server.ts";

const v = deliveryVectors();
const work = mkdtempSync(join(tmpdir(), "phrasebook-vectors-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function minisign(name: string, file: string, signature: string, key: string): boolean {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "file"), file);
  writeFileSync(join(dir, "file.minisig"), signature);
  writeFileSync(join(dir, "key.pub"), key);
  return Bun.spawnSync(["minisign", "-Vq", "-p", join(dir, "key.pub"), "-m", join(dir, "file")]).exitCode === 0;
}

test("docs/delivery.md holds the test vectors exactly as they are made", () => {
  expect(readFileSync(join(ROOT, "docs/delivery.md"), "utf8")).toContain(v.markdown);
});

test("minisign -V accepts each signature with its key, and no other", () => {
  expect(minisign("m7", v.manifest7, v.signature7, v.key1File)).toBe(true);
  expect(minisign("k2", v.key2File, v.key2Signature, v.key1File)).toBe(true);
  expect(minisign("m8", v.manifest8, v.signature8, v.key2File)).toBe(true);
  expect(minisign("m8-key1", v.manifest8, v.signature8, v.key1File)).toBe(false);
  expect(minisign("m7-as-8", v.manifest8, v.signature7, v.key1File)).toBe(false);
});

test("trusting key 1, a verifier accepts 7, follows the rotation to 8, then refuses 7", async () => {
  const files: Record<string, string> = { "p/AbCdEfGhIjKlMnOp/keys/1.pub": v.key1File, "p/AbCdEfGhIjKlMnOp/keys/2.pub": v.key2File, "p/AbCdEfGhIjKlMnOp/keys/2.pub.minisig": v.key2Signature };
  const common = { path: v.path, projectSlug: "AbCdEfGhIjKlMnOp", fetchText: async (p: string) => files[p] ?? null, hashes: portableHashes };
  const seven = await verifyManifest({ ...common, manifest: new TextEncoder().encode(v.manifest7), signature: v.signature7, chain: chainOf(v.key1File) });
  expect(seven.manifest.sequence).toBe(7);
  const eight = await verifyManifest({ ...common, manifest: new TextEncoder().encode(v.manifest8), signature: v.signature8, chain: seven.chain, minSequence: 7 });
  expect(eight.chain.keys.map((k) => k.n)).toEqual([1, 2]);
  const again = verifyManifest({ ...common, manifest: new TextEncoder().encode(v.manifest7), signature: v.signature7, chain: eight.chain, minSequence: 8 });
  expect(again).rejects.toThrow(VerifyError);
  expect(again).rejects.toThrow(/which a later key of the project replaced/);
});
