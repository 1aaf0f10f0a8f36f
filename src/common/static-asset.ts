import { brotli, BROTLI_ASSET_MAX_BYTES, gzip } from "./compress.ts";
import { sha256Hex } from "./hash.ts";
import { preferredEncoding } from "./http.ts";

/**
 * A file built into the executable (the dashboard's script and styles, the API reference's
 * script), served under a name that carries a hash of its content, so browsers keep it for a year
 * and a new build is never mixed with an old one. Compressed once, on first request, off the main
 * thread. The body is a Blob: a small text, or a file embedded in the executable, which is never
 * read into the heap as a string (a 4 MB string held by the process costs every request about 5%
 * of its CPU time in garbage collection; see bench/RESULTS.md).
 */
export interface StaticAsset {
  name: string;
  contentType: string;
  etag: string;
  body: Blob;
  /** The compressed bytes, or null when compressing does not make the file smaller. */
  encoded(encoding: "gzip" | "br"): Promise<Uint8Array | null>;
}

/** Hashed names never change content: browsers may keep them for a year without asking. */
export const STATIC_ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";

/**
 * An asset from a text; `sha256` is its hash when already known (computed at build time). A text's
 * Blob is made on first request, not at start: copying the dashboard's script into one takes some
 * milliseconds that starting the server does not need (bench/RESULTS.md "Start-up").
 */
export function makeStaticAsset(base: string, ext: string, contentType: string, body: string | Blob, sha256?: string): StaticAsset {
  const hash = (sha256 ?? sha256Hex(body as string)).slice(0, 12);
  let blob = typeof body === "string" ? undefined : body;
  const made = new Map<"gzip" | "br", Promise<Uint8Array | null>>();
  return {
    name: `${base}.${hash}.${ext}`,
    contentType,
    etag: `"${hash}"`,
    get body() {
      blob ??= new Blob([body]);
      return blob;
    },
    encoded(encoding) {
      let pending = made.get(encoding);
      if (!pending) {
        pending = this.body.bytes().then(async (raw) => {
          const bytes = encoding === "gzip" ? await gzip(raw) : await brotli(raw, BROTLI_ASSET_MAX_BYTES);
          return bytes.length < raw.length ? bytes : null;
        });
        made.set(encoding, pending);
      }
      return pending;
    },
  };
}

export async function staticAssetResponse(asset: StaticAsset, request: Request): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": asset.contentType,
    "cache-control": STATIC_ASSET_CACHE_CONTROL,
    etag: asset.etag,
    vary: "Accept-Encoding",
    "x-content-type-options": "nosniff",
  };
  if (request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
  const encoding = preferredEncoding(request.headers.get("accept-encoding"));
  const compressed = encoding === "identity" ? null : await asset.encoded(encoding);
  if (compressed) headers["content-encoding"] = encoding;
  if (request.method === "HEAD") return new Response(null, { headers });
  return new Response(compressed ? (compressed as Uint8Array<ArrayBuffer>) : asset.body, { headers });
}
