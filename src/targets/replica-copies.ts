import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ReleaseStaging } from "../bundles/files.ts";
import { RELEASES_DIR } from "../bundles/layout.ts";
import { sha256Hex } from "../common/hash.ts";
import { isPublicIdShape } from "../common/ids.ts";
import { LANGUAGE_CODE_MAX_LENGTH } from "../common/limits.ts";
import type { ObjectStore } from "./object-store.ts";

/**
 * Release files beside the replica (docs/deploy.md "Continuous replication"). Litestream copies
 * only the database, so each release's files are copied once, when it is published: published
 * files never change. The copy is made before the release is marked published, so a database the
 * replica holds never names a release whose files it lacks. A manifest written last (names, sizes,
 * SHA-256) marks a copy complete and lets a restore check every byte it brings back.
 */
export const MANIFEST = "_manifest.json"; // "_" is in no language code, so no bundle file has this name

interface Manifest {
  files: { name: string; size: number; sha256: string }[];
}

/** What a bundle file is called (bundles/layout.ts); a manifest naming anything else is refused. */
const BUNDLE_FILE = new RegExp(`^[A-Za-z0-9-]{1,${LANGUAGE_CODE_MAX_LENGTH}}\\.[a-z0-9]{1,10}$`);

const releasePrefix = (releasePublicId: string) => `${RELEASES_DIR}/${releasePublicId}`;

/**
 * Copies the plain files of a release folder to the replica, then its manifest: not the compressed
 * variants the CDN makes on first request from them, nor dotfiles (temporary files, and the
 * folder's marker, which the restore's staging folder writes again), nor app builds' files.
 */
export async function copyRelease(replica: ObjectStore, releasePublicId: string, dir: string): Promise<{ files: number; bytes: number }> {
  const manifest: Manifest = { files: [] };
  let bytes = 0;
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const name = entry.name;
    // Folders are app builds' files (b/), made again on request (docs/delivery.md "App builds").
    if (!entry.isFile() || name.startsWith(".") || name.endsWith(".gz") || name.endsWith(".br")) continue;
    const data = await readFile(join(dir, name));
    await replica.put(`${releasePrefix(releasePublicId)}/${name}`, data);
    manifest.files.push({ name, size: data.length, sha256: sha256Hex(data) });
    bytes += data.length;
  }
  await replica.put(`${releasePrefix(releasePublicId)}/${MANIFEST}`, new TextEncoder().encode(JSON.stringify(manifest)));
  return { files: manifest.files.length, bytes };
}

/** Whether the replica holds a complete copy of the release. */
export async function hasCopy(replica: ObjectStore, releasePublicId: string): Promise<boolean> {
  return (await replica.get(`${releasePrefix(releasePublicId)}/${MANIFEST}`)) !== null;
}

/** Ids of the releases the replica holds files of, complete or not. */
export async function copiedReleaseIds(replica: ObjectStore): Promise<string[]> {
  return (await replica.children(RELEASES_DIR)).filter(isPublicIdShape);
}

export function removeCopy(replica: ObjectStore, releasePublicId: string): Promise<void> {
  return replica.removeAll(releasePrefix(releasePublicId));
}

export class MissingCopyError extends Error {}

/**
 * Brings a release's files back into a data dir: each checked against the manifest, written and
 * flushed in a staging folder and renamed into place, as a publish writes them.
 */
export async function restoreRelease(replica: ObjectStore, dataDir: string, releasePublicId: string): Promise<{ files: number; bytes: number }> {
  const raw = await replica.get(`${releasePrefix(releasePublicId)}/${MANIFEST}`);
  if (raw === null) throw new MissingCopyError(`the replica holds no complete copy of release ${releasePublicId}`);
  const manifest = JSON.parse(new TextDecoder().decode(raw)) as Manifest;
  const staging = await ReleaseStaging.create(dataDir, releasePublicId);
  let bytes = 0;
  try {
    for (const file of manifest.files) {
      if (!BUNDLE_FILE.test(String(file.name))) throw new MissingCopyError(`the replica's manifest of ${releasePublicId} names a file that is no bundle`);
      const data = await replica.get(`${releasePrefix(releasePublicId)}/${file.name}`);
      if (data === null || data.length !== file.size || sha256Hex(data) !== file.sha256) {
        throw new MissingCopyError(`the replica's copy of ${releasePublicId}/${file.name} is missing or damaged`);
      }
      await staging.write(file.name, data);
      bytes += data.length;
    }
    await staging.commit();
  } catch (err) {
    await staging.discard();
    throw err;
  }
  return { files: manifest.files.length, bytes };
}
