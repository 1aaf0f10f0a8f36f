import { brotliCompressSync, constants as zlib } from "node:zlib";
import { sha256Hex } from "../common/hash.ts";
import { preferredEncoding } from "../common/http.ts";
import { bundleScript, bundleStyle, readText } from "./bundle.ts" with { type: "macro" };

/**
 * The dashboard's static files, embedded at build time (see bundle.ts) and compressed once, on
 * first request. Names carry a content hash, so they are cached for a year and a new build is never mixed
 * with an old one.
 */
export interface Asset {
  name: string;
  contentType: string;
  etag: string;
  raw: Uint8Array;
  /** Compressed on first request, not at start (brotli at its best level takes ~0.1 s). */
  readonly gzip: Uint8Array;
  readonly brotli: Uint8Array;
}

export const ASSET_PREFIX = "/dashboard/assets/";
/** Hashed names never change content: browsers may keep them for a year without asking. */
export const ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";

const SOURCES = [
  { base: "app", ext: "js", contentType: "text/javascript; charset=utf-8", text: bundleScript("src/dashboard/client/main.ts") },
  { base: "app", ext: "css", contentType: "text/css; charset=utf-8", text: bundleStyle("public/css/dashboard.css") },
  { base: "logo", ext: "svg", contentType: "image/svg+xml", text: readText("public/images/logo.svg") },
];

export function makeAsset(base: string, ext: string, contentType: string, text: string): Asset {
  const raw = new TextEncoder().encode(text);
  const hash = sha256Hex(raw).slice(0, 12);
  let gzip: Uint8Array | undefined;
  let brotli: Uint8Array | undefined;
  return {
    name: `${base}.${hash}.${ext}`,
    contentType,
    etag: `"${hash}"`,
    raw,
    get gzip() {
      return (gzip ??= Bun.gzipSync(raw, { level: 9 }));
    },
    get brotli() {
      return (brotli ??= new Uint8Array(brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } })));
    },
  };
}

let table: Map<string, Asset> | undefined;

/** name -> asset, built on first use. */
export function assets(): Map<string, Asset> {
  table ??= new Map(SOURCES.map((s) => makeAsset(s.base, s.ext, s.contentType, s.text)).map((a) => [a.name, a]));
  return table;
}

export function assetNamed(base: string, ext: string): Asset {
  for (const a of assets().values()) if (a.name.startsWith(`${base}.`) && a.name.endsWith(`.${ext}`)) return a;
  throw new Error(`no embedded asset ${base}.${ext}`);
}

export function assetResponse(asset: Asset, request: Request): Response {
  const headers: Record<string, string> = {
    "content-type": asset.contentType,
    "cache-control": ASSET_CACHE_CONTROL,
    etag: asset.etag,
    vary: "Accept-Encoding",
    "x-content-type-options": "nosniff",
  };
  if (request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
  const encoding = preferredEncoding(request.headers.get("accept-encoding"));
  if (encoding !== "identity") headers["content-encoding"] = encoding;
  const body = encoding === "br" ? asset.brotli : encoding === "gzip" ? asset.gzip : asset.raw;
  return new Response(request.method === "HEAD" ? null : (body as Uint8Array<ArrayBuffer>), { headers });
}
