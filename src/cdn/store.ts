import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { writeAtomic } from "../bundles/files.ts";
import { bundleFileName, bundlePath } from "../bundles/layout.ts";
import { sha256Base64Url } from "../common/hash.ts";
import { log } from "../common/log.ts";
import type { BundleFormat } from "../formats/registry.ts";
import { cachedSize, type CachedFile } from "./cache.ts";
import { brotli, gzip } from "../common/compress.ts";

const COMPRESSED_SUFFIX = { gzip: ".gz", br: ".br" } as const;

function readIfPresent(path: string): Uint8Array | null {
  try {
    return readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** Strong ETag from the content, so the same bytes under any URL revalidate alike. */
function contentTag(bytes: Uint8Array): string {
  return `"${sha256Base64Url(bytes).slice(0, 22)}"`;
}

/**
 * A compressed variant: read from beside the file, or made now and stored there atomically, so
 * each file is compressed once. An empty file on disk means "compression does not help".
 */
async function variant(path: string, name: string, identity: Uint8Array, encoding: "gzip" | "br"): Promise<Uint8Array | null> {
  const stored = readIfPresent(path + COMPRESSED_SUFFIX[encoding]);
  if (stored !== null) return stored.length > 0 ? stored : null;
  const made = encoding === "gzip" ? await gzip(identity) : await brotli(identity);
  const useful = made.length < identity.length ? made : new Uint8Array(0);
  try {
    await writeAtomic(path + COMPRESSED_SUFFIX[encoding], dirname(path), name + COMPRESSED_SUFFIX[encoding], useful);
  } catch (err) {
    // The release was deleted meanwhile (its folder is gone): serve what we made, keep nothing.
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") log.warn("could not store compressed bundle", { file: name, error: String(err) });
  }
  return useful.length > 0 ? useful : null;
}

/** Loads one published file in every encoding, or null when it is missing from the disk. */
export async function loadFile(dataDir: string, projectId: number, releasePublicId: string, code: string, ext: BundleFormat): Promise<CachedFile | null> {
  const path = bundlePath(dataDir, releasePublicId, code, ext);
  const identity = readIfPresent(path);
  if (identity === null) {
    log.error("published bundle missing from the data dir", { release_id: releasePublicId, file: bundleFileName(code, ext) });
    return null;
  }
  const name = bundleFileName(code, ext);
  const [gz, br] = await Promise.all([variant(path, name, identity, "gzip"), variant(path, name, identity, "br")]);
  return {
    key: `${releasePublicId}/${name}`,
    projectId,
    identity: new Blob([identity as Uint8Array<ArrayBuffer>]),
    gzip: gz && new Blob([gz as Uint8Array<ArrayBuffer>]),
    br: br && new Blob([br as Uint8Array<ArrayBuffer>]),
    etag: contentTag(identity),
    size: cachedSize(identity.length, gz?.length ?? 0, br?.length ?? 0),
    hot: false,
    routes: new Set(),
  };
}
