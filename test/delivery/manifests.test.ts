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
