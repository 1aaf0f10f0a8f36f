import { brotli, gzip } from "./compress.ts";
import { sha256Hex } from "./hash.ts";
import { preferredEncoding } from "./http.ts";

/**
 * A file built into the executable (the dashboard's script and styles, the API reference's
 * script), served under a name that carries a hash of its content, so browsers keep it for a year
 * and a new build is never mixed with an old one. Compressed once, on first request, off the main
 * thread (a 4 MB script takes a noticeable moment to compress, and start-up should not pay it).
 */
export interface StaticAsset {
  name: string;
  contentType: string;
  etag: string;
  raw: Uint8Array;
  /** The compressed bytes, or null when compressing does not make the file smaller. */
  encoded(encoding: "gzip" | "br"): Promise<Uint8Array | null>;
}

/** Hashed names never change content: browsers may keep them for a year without asking. */
export const STATIC_ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";

export function makeStaticAsset(base: string, ext: string, contentType: string, content: string | Uint8Array): StaticAsset {
  const raw = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const hash = sha256Hex(raw).slice(0, 12);
  const made = new Map<"gzip" | "br", Promise<Uint8Array | null>>();
  return {
    name: `${base}.${hash}.${ext}`,
    contentType,
    etag: `"${hash}"`,
    raw,
    encoded(encoding) {
      let pending = made.get(encoding);
      if (!pending) {
        pending = (encoding === "gzip" ? gzip(raw) : brotli(raw)).then((bytes) => (bytes.length < raw.length ? bytes : null));
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
  const body = compressed ?? asset.raw;
  return new Response(request.method === "HEAD" ? null : (body as Uint8Array<ArrayBuffer>), { headers });
}
