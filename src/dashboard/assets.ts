import { readText } from "../common/embed.ts" with { type: "macro" };
import { makeStaticAsset, type StaticAsset } from "../common/static-asset.ts";
import { bundleScript, bundleStyle } from "./bundle.ts" with { type: "macro" };

/**
 * The dashboard's static files, embedded at build time (see bundle.ts) and served as static assets
 * (src/common/static-asset.ts): hashed names, a year of caching, compressed once.
 */
export const ASSET_PREFIX = "/dashboard/assets/";

const SOURCES = [
  { base: "app", ext: "js", contentType: "text/javascript; charset=utf-8", text: bundleScript("src/dashboard/client/main.ts") },
  { base: "app", ext: "css", contentType: "text/css; charset=utf-8", text: bundleStyle("public/css/dashboard.css") },
  { base: "logo", ext: "svg", contentType: "image/svg+xml", text: readText("public/images/logo.svg") },
];

let table: Map<string, StaticAsset> | undefined;

/** name -> asset, built on first use (the content is a constant of the build). */
export function assets(): Map<string, StaticAsset> {
  table ??= new Map(SOURCES.map((s) => makeStaticAsset(s.base, s.ext, s.contentType, s.text)).map((a) => [a.name, a]));
  return table;
}

export function assetNamed(base: string, ext: string): StaticAsset {
  for (const a of assets().values()) if (a.name.startsWith(`${base}.`) && a.name.endsWith(`.${ext}`)) return a;
  throw new Error(`no embedded asset ${base}.${ext}`);
}
