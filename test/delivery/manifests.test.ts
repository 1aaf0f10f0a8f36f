/**
 * Manifests and their signatures (docs/delivery.md "Manifests", "Signatures"): what each path's
 * manifest says, its sequence, and that Debian's `minisign -V` accepts every manifest Phrasebook
 * signs, with the project's `key.pub`, and refuses each one altered by a byte.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ORIGIN } from "../helpers/app.ts";
import { cdnFixture, importJson, projectSlug, publish, type CdnFixture } from "../helpers/releases.ts";

let f: CdnFixture;
let pid: string;
let slug: string;
const work = mkdtempSync("/tmp/phrasebook-minisign-");

beforeAll(async () => {
  f = await cdnFixture();
  pid = (await f.admin.post("/projects", { name: "Shop", base_language_code: "en" })).body.id;
  await f.admin.post(`/projects/${pid}/languages`, { code: "de" });
  await importJson(f.admin, pid, "en", { hello: "Hello {name}", bye: "Bye" });
  await importJson(f.admin, pid, "de", { hello: "Hallo {name}", bye: "Tschüss" });
  slug = await projectSlug(f.admin, pid);
});
afterAll(async () => {
  await f.t.close();
  rmSync(work, { recursive: true, force: true });
});

const cdn = (path: string) => `${ORIGIN}/cdn/${path}`;
async function get(path: string): Promise<{ status: number; bytes: Uint8Array; headers: Headers }> {
  const res = await f.t.fetch(cdn(path));
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()), headers: res.headers };
}

/** Runs `minisign -V` on a manifest and its signature with the project's key.pub: exit 0 when it verifies. */
function minisignVerifies(name: string, manifest: Uint8Array, signature: Uint8Array, keyFile: Uint8Array): { ok: boolean; out: string } {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  require("node:fs").mkdirSync(dir);
  writeFileSync(join(dir, "manifest.json"), manifest);
  writeFileSync(join(dir, "manifest.json.minisig"), signature);
  writeFileSync(join(dir, "key.pub"), keyFile);
  const run = Bun.spawnSync(["minisign", "-V", "-p", join(dir, "key.pub"), "-m", join(dir, "manifest.json")], { stdout: "pipe", stderr: "pipe" });
  return { ok: run.exitCode === 0, out: run.stdout.toString() + run.stderr.toString() };
}

describe("manifests (docs/delivery.md)", () => {
  test("before anything is published, latest's manifest is a 404 like any latest file", async () => {
    expect((await get(`p/${slug}/r/latest/manifest.json`)).status).toBe(404);
    expect((await get(`p/${slug}/key.pub`)).status).toBe(200);
  });

  test("a release's pinned manifest names every file's pinned URL, SHA-256 and size; latest's carries the publish's sequence", async () => {
    const release = await publish(f.admin, pid, "v1");
    const releaseSlug = release.slug ?? new URL(release.languages[0].download_urls.json).pathname.split("/")[5];
    const pinned = await get(`p/${slug}/r/${releaseSlug}/manifest.json`);
    expect(pinned.status).toBe(200);
    expect(pinned.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const m = JSON.parse(new TextDecoder().decode(pinned.bytes));
    expect(m.manifest_version).toBe(1);
    expect(m.release).toEqual({ id: release.id, tag: "v1", published_at: release.published_at });
    expect(Object.keys(m.languages)).toEqual(["de", "en"]);
    expect(m.languages.en.is_base_language).toBe(true);
    for (const code of ["de", "en"]) {
      for (const ext of ["json", "yaml", "arb"]) {
        const entry = m.languages[code].files[ext];
        expect(entry.url).toBe(cdn(`p/${slug}/r/${releaseSlug}/${code}.${ext}`));
        const file = await get(entry.url.slice(`${ORIGIN}/cdn/`.length));
        expect(entry.bytes).toBe(file.bytes.length);
        expect(entry.sha256).toBe(new Bun.CryptoHasher("sha256").update(file.bytes).digest("hex"));
      }
    }
    const latest = await get(`p/${slug}/r/latest/manifest.json`);
    expect(latest.headers.get("cache-control")).toBe("public, max-age=60, must-revalidate");
    expect(JSON.parse(new TextDecoder().decode(latest.bytes)).sequence).toBe(m.sequence);
    const sig = await get(`p/${slug}/r/latest/manifest.json.minisig`);
    const key = await get(`p/${slug}/key.pub`);
    const checked = minisignVerifies("latest", latest.bytes, sig.bytes, key.bytes);
    expect(checked.out).toContain(`phrasebook manifest sequence=${m.sequence} release=${release.id} path=p/${slug}/r/latest/manifest.json`);
    expect(checked.ok).toBe(true);
  });

  test("minisign -V refuses a manifest altered by any one byte", async () => {
    const latest = await get(`p/${slug}/r/latest/manifest.json`);
    const sig = await get(`p/${slug}/r/latest/manifest.json.minisig`);
    const key = await get(`p/${slug}/key.pub`);
    for (const at of [0, 10, Math.floor(latest.bytes.length / 2), latest.bytes.length - 1]) {
      const altered = latest.bytes.slice();
      altered[at] = altered[at]! ^ 1;
      expect(minisignVerifies(`altered-${at}`, altered, sig.bytes, key.bytes).ok).toBe(false);
    }
  });
});

/** A published release's detail (its slug included), by tag. */
async function release(tag: string): Promise<any> {
  const id = (await f.admin.get(`/projects/${pid}/releases`)).body.items.find((r: any) => r.tag === tag).id;
  return (await f.admin.get(`/projects/${pid}/releases/${id}`)).body;
}

describe("sequences (docs/delivery.md \"Manifests\")", () => {
  const manifest = async (path: string) => JSON.parse(new TextDecoder().decode((await get(path)).bytes));

  test("a channel's manifest carries its last move's sequence; latest's the change that made its release latest, a deletion included", async () => {
    const v1 = await release("v1");
    const v1Seq = (await manifest(`p/${slug}/r/latest/manifest.json`)).sequence;
    f.clock.advance(1000);
    const v2 = await publish(f.admin, pid, "v2");
    const v2Seq = (await manifest(`p/${slug}/r/latest/manifest.json`)).sequence;
    expect(v2Seq).toBeGreaterThan(v1Seq);
    const channel = (await f.admin.put(`/projects/${pid}/channels/beta`, { release_id: v1.id })).body;
    const beta = await manifest(`p/${slug}/c/${channel.slug}/manifest.json`);
    expect(beta.sequence).toBeGreaterThan(v2Seq);
    expect(beta.release.id).toBe(v1.id);
    // Moving it again: a higher one.
    const moved = (await f.admin.put(`/projects/${pid}/channels/beta`, { release_id: v2.id })).body;
    const betaAgain = await manifest(`p/${slug}/c/${moved.slug}/manifest.json`);
    expect(betaAgain.sequence).toBeGreaterThan(beta.sequence);
    // The pinned manifest of v1 keeps its publish's sequence whatever happens since.
    expect((await manifest(`p/${slug}/r/${v1.slug}/manifest.json`)).sequence).toBe(v1Seq);
    // Deleting latest's release makes v1 latest again, with the deletion's sequence: never a lower one.
    await f.admin.put(`/projects/${pid}/channels/beta`, { release_id: v1.id });
    expect((await f.admin.delete(`/projects/${pid}/releases/${v2.id}`)).status).toBe(204);
    const after = await manifest(`p/${slug}/r/latest/manifest.json`);
    expect(after.release.id).toBe(v1.id);
    expect(after.sequence).toBeGreaterThan(betaAgain.sequence);
  });

  test("a key rotation signs latest's and channels' manifests again at once, same bytes; pinned ones keep their key", async () => {
    const before = await get(`p/${slug}/r/latest/manifest.json`);
    const beforeSig = new TextDecoder().decode((await get(`p/${slug}/r/latest/manifest.json.minisig`)).bytes);
    const v1 = await release("v1");
    const pinnedSig = new TextDecoder().decode((await get(`p/${slug}/r/${v1.slug}/manifest.json.minisig`)).bytes);
    const oldKey = (await get(`p/${slug}/key.pub`)).bytes;
    const rotated = await f.admin.post(`/projects/${pid}/signing-key/rotate`);
    expect(rotated.status).toBe(200);
    const after = await get(`p/${slug}/r/latest/manifest.json`);
    expect(after.bytes).toEqual(before.bytes);
    const afterSig = (await get(`p/${slug}/r/latest/manifest.json.minisig`)).bytes;
    expect(new TextDecoder().decode(afterSig)).not.toBe(beforeSig);
    const newKey = (await get(`p/${slug}/key.pub`)).bytes;
    expect(minisignVerifies("rotated", after.bytes, afterSig, newKey).ok).toBe(true);
    expect(minisignVerifies("rotated-old-key", after.bytes, afterSig, oldKey).ok).toBe(false);
    expect(new TextDecoder().decode((await get(`p/${slug}/r/${v1.slug}/manifest.json.minisig`)).bytes)).toBe(pinnedSig);
    // keys/2.pub is signed by key 1: minisign checks it with keys/1.pub.
    const k2 = (await get(`p/${slug}/keys/2.pub`)).bytes;
    const k2sig = (await get(`p/${slug}/keys/2.pub.minisig`)).bytes;
    const k1 = (await get(`p/${slug}/keys/1.pub`)).bytes;
    expect(k1).toEqual(oldKey);
    const chain = minisignVerifies("chain", k2, k2sig, k1);
    expect(chain.ok).toBe(true);
    expect(chain.out).toContain("phrasebook key n=2");
  });
});
