import { readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { writeAtomic } from "../bundles/files.ts";
import { bundleFileName, bundlePath } from "../bundles/layout.ts";
import { sha256Base64Url } from "../common/hash.ts";
import { log } from "../common/log.ts";
import type { BundleFormat } from "../formats/registry.ts";
import { cachedSize, type CachedFile } from "./cache.ts";
import { brotli, gzip } from "../common/compress.ts";
import type { Encoding } from "../common/http.ts";

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

/**
 * Loads one published file: its bytes, and the encoding `wanted` (made now, unless already stored
 * beside the file). The other encoding is taken when stored, else left to the first request that
 * wants it (`loadEncoding`): a client asks for one, and making both doubled the work of every first
 * request (a `pull` of 50 large files waits for all of them, docs/cdn.md "Headers").
 * Null when the file is missing from the disk.
 */
export async function loadFile(dataDir: string, projectId: number, releasePublicId: string, code: string, ext: BundleFormat, wanted: Encoding): Promise<CachedFile | null> {
  const path = bundlePath(dataDir, releasePublicId, code, ext);
  const loaded = await loadFileAt(path, `${releasePublicId}/${bundleFileName(code, ext)}`, projectId, wanted);
  if (loaded === null) log.error("published bundle missing from the data dir", { release_id: releasePublicId, file: bundleFileName(code, ext) });
  return loaded;
}

/** Loads a file of the data dir (a release's, or an app build's made from it) under the cache key `key`. */
export async function loadFileAt(path: string, key: string, projectId: number, wanted: Encoding): Promise<CachedFile | null> {
  const identity = readIfPresent(path);
  if (identity === null) return null;
  const name = basename(path);
  const encoded = async (encoding: "gzip" | "br") => (encoding === wanted ? variant(path, name, identity, encoding) : stored(path, encoding));
  const [gz, br] = await Promise.all([encoded("gzip"), encoded("br")]);
  return {
    key,
    projectId,
    diskPath: path,
    identity: new Blob([identity as Uint8Array<ArrayBuffer>]),
    gzip: blobOf(gz),
    br: blobOf(br),
    etag: contentTag(identity),
    size: cachedSize(identity.length, gz?.length ?? 0, br?.length ?? 0),
    hot: false,
    routes: new Set(),
  };
}

/**
 * An object made in memory (a manifest, a key file: docs/delivery.md): its bytes, and the encoding
 * `wanted` made now; nothing is stored on the disk.
 */
export async function memoryFile(key: string, projectId: number, identity: Uint8Array, wanted: Encoding): Promise<CachedFile> {
  const made = wanted === "identity" ? undefined : await compressed(identity, wanted);
  return {
    key,
    projectId,
    diskPath: null,
    identity: new Blob([identity as Uint8Array<ArrayBuffer>]),
    gzip: wanted === "gzip" ? blobOf(made) : undefined,
    br: wanted === "br" ? blobOf(made) : undefined,
    etag: contentTag(identity),
    size: cachedSize(identity.length, wanted === "gzip" ? (made?.length ?? 0) : 0, wanted === "br" ? (made?.length ?? 0) : 0),
    hot: false,
    routes: new Set(),
  };
}

/** The compressed bytes, or null when compressing does not make them smaller. */
async function compressed(identity: Uint8Array, encoding: "gzip" | "br"): Promise<Uint8Array | null> {
  const made = encoding === "gzip" ? await gzip(identity) : await brotli(identity);
  return made.length < identity.length ? made : null;
}

/** An encoding of a cached file that was not made when it was loaded: made now (or read, if stored since). */
export async function loadEncoding(file: CachedFile, encoding: "gzip" | "br"): Promise<Blob | null> {
  const identity = await file.identity.bytes();
  if (file.diskPath === null) return blobOf(await compressed(identity, encoding)) ?? null;
  return blobOf(await variant(file.diskPath, basename(file.diskPath), identity, encoding)) ?? null;
}

/** A variant stored beside the file: its bytes, null for "does not help", undefined when not made yet. */
function stored(path: string, encoding: "gzip" | "br"): Uint8Array | null | undefined {
  const bytes = readIfPresent(path + COMPRESSED_SUFFIX[encoding]);
  return bytes === null ? undefined : bytes.length > 0 ? bytes : null;
}

function blobOf(bytes: Uint8Array | null | undefined): Blob | null | undefined {
  return bytes ? new Blob([bytes as Uint8Array<ArrayBuffer>]) : bytes;
}
