import { HttpError } from "../common/errors.ts";
import { CHANNEL_SEGMENT, LATEST, surrogateKey } from "../bundles/urls.ts";
import { EncodingChooser, etagMatches, type Encoding } from "../common/http.ts";
import { pathPrefix } from "../config/settings.ts";
import type { AppDeps } from "../deps.ts";
import { CdnCache, type CachedFile, type Route, type Variant } from "./cache.ts";
import { CACHE_CONTROL_LATEST, CACHE_CONTROL_PINNED, fileHeaders, NOT_FOUND_HEADERS, PREFLIGHT_HEADERS } from "./headers.ts";
import type { Delivery } from "../delivery/objects.ts";
import { CONTENT_TYPES } from "../formats/registry.ts";
import { parseCdnPath, parseDeliveryPath } from "./paths.ts";
import { prepareCdnQueries } from "./queries.ts";
import { resolveFile } from "./resolve.ts";
import { loadEncoding, loadFile, loadFileAt, memoryFile } from "./store.ts";

const BYTES_PER_MB = 1024 * 1024;
const HIT = { result: "hit" };
const MISS = { result: "miss" };

export type CdnDeps = Pick<AppDeps, "db" | "settings" | "changes" | "observability">;

export interface Cdn {
  /**
   * A response for a request under the CDN path, or undefined to let the app handle it. `method`
   * and `path` (the raw path, without the query) are the request's, read once by the app.
   */
  handle(request: Request, method: string, path: string): Response | Promise<Response> | undefined;
  /** The file routes' patterns, for metric labels and logs (docs/deploy.md "Monitoring"). */
  routes: { method: string; path: string }[];
  cache: CdnCache;
}

const NOT_FOUND = new HttpError(404, "not found", NOT_FOUND_HEADERS);

function makeVariant(contentType: string, cacheControl: string, file: CachedFile, encoding: Encoding, surrogate: string | null): Variant | null | undefined {
  const body = encoding === "identity" ? file.identity : encoding === "gzip" ? file.gzip : file.br;
  if (body === null || body === undefined) return body;
  const etag = encoding === "identity" ? file.etag : `${file.etag.slice(0, -1)}-${encoding === "gzip" ? "gz" : "br"}"`;
  const headers = fileHeaders(contentType, cacheControl, etag, encoding, surrogate);
  return {
    etag,
    bytes: body.size,
    ok: new Response(body, { headers: headers.ok }),
    notModified: new Response(null, { status: 304, headers: headers.notModified }),
  };
}

function makeRoute(contentType: string, file: CachedFile, moving: boolean, surrogate: string | null): Route {
  // Pinned files never change; `latest` must be revalidated after 60 s (docs/interface.md §4.5 rule 3),
  // and so must a channel's, which moves like it (docs/releases.md "Channels").
  const cacheControl = moving ? CACHE_CONTROL_LATEST : CACHE_CONTROL_PINNED;
  return {
    file,
    contentType,
    cacheControl,
    surrogateKey: surrogate,
    identity: makeVariant(contentType, cacheControl, file, "identity", surrogate)!,
    gzip: makeVariant(contentType, cacheControl, file, "gzip", surrogate),
    br: makeVariant(contentType, cacheControl, file, "br", surrogate),
  };
}

/** The hot path: answer 304 on a matching tag, else a clone of a ready response. */
function respond(request: Request, method: string, route: Route, encoding: Encoding, sent: (bytes: number) => void): Response {
  const v = (encoding === "br" ? route.br : encoding === "gzip" ? route.gzip : null) ?? route.identity;
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch !== null && etagMatches(ifNoneMatch, v.etag)) return v.notModified.clone();
  if (method === "GET") sent(v.bytes);
  return v.ok.clone();
}

/**
 * The CDN file routes (docs/interface.md §4.5, docs/product.md §3), answered before the web
 * framework (docs/cdn.md "Speed"). A cache hit costs a prefix check, a Map lookup and a
 * Response around bytes already in memory; a miss resolves the path through the database, loads
 * the file (compressing it the first time) and caches it. Every project change purges that
 * project's entries, so publishing, rotating and deleting show at the origin at once.
 */
export function createCdn(deps: CdnDeps): Cdn {
  const prefix = pathPrefix(deps.settings.cdnUrl);
  // With a root prefix (a separate CDN host) only /p/... is ours; other paths stay the app's.
  const claim = prefix === "" ? "/p/" : prefix;
  // With Fastly purging, answers carry the key it purges by (docs/deploy.md "Object storage and CDN purge").
  const surrogateKeys = deps.settings.purge === "fastly";
  const cache = new CdnCache(deps.settings.cdnCacheMb * BYTES_PER_MB);
  deps.changes.subscribe((projectId) => cache.purgeProject(projectId));
  const queries = prepareCdnQueries(deps.db);
  const loading = new Map<string, Promise<CachedFile | null>>();
  const metrics = deps.observability;
  metrics.gauge("phrasebook_cdn_cache_bytes", "Bytes the CDN cache holds", () => cache.usedBytes);
  metrics.gauge("phrasebook_cdn_cache_files", "Files the CDN cache holds", () => cache.fileCount);
  // Cells resolved once, so a hit costs one addition, no label lookup.
  const hitCell = metrics.cdnCache.cell(HIT);
  const missCell = metrics.cdnCache.cell(MISS);
  const bytesCell = metrics.cdnBytes.cell();
  const sent = (bytes: number) => void (bytesCell.value += bytes);
  const encodings = new EncodingChooser();

  const making = new Map<string, Promise<void>>();

  /**
   * Makes an encoding a cached file does not have yet (once, however many requests want it at
   * the same time) and gives it to every route of the file, and to `route` (which a purge may
   * have taken out of the cache meanwhile).
   */
  async function withEncoding(file: CachedFile, encoding: "gzip" | "br", route?: Route): Promise<void> {
    if (file[encoding] === undefined) {
      const key = `${file.key}#${encoding}`;
      let pending = making.get(key);
      if (!pending) {
        pending = loadEncoding(file, encoding)
          .then((blob) => {
            if (file[encoding] !== undefined) return;
            file[encoding] = blob;
            cache.grew(file, blob?.size ?? 0);
            for (const path of file.routes) {
              const r = cache.routes.get(path);
              if (r?.file === file) r[encoding] = makeVariant(r.contentType, r.cacheControl, file, encoding, r.surrogateKey ?? null);
            }
          })
          .finally(() => making.delete(key));
        making.set(key, pending);
      }
      await pending;
    }
    if (route && route[encoding] === undefined) route[encoding] = makeVariant(route.contentType, route.cacheControl, file, encoding, route.surrogateKey ?? null);
  }

  async function fill(request: Request, method: string, path: string): Promise<Response> {
    const parsed = parseCdnPath(path.slice(prefix.length));
    if (!parsed) return fillDelivery(request, method, path);
    const file = resolveFile(queries, parsed);
    if (!file) return NOT_FOUND.toResponse();
    const generation = cache.generation(file.projectId);
    const key = `${file.releasePublicId}/${file.code}.${parsed.ext}`;
    const encoding = encodings.choose(request.headers.get("accept-encoding"));
    let cached = cache.file(key);
    if (!cached) {
      let pending = loading.get(key);
      if (!pending) {
        pending = loadFile(deps.settings.dataDir, file.projectId, file.releasePublicId, file.code, parsed.ext, encoding).finally(() => loading.delete(key));
        loading.set(key, pending);
      }
      cached = (await pending) ?? undefined;
      if (!cached) return NOT_FOUND.toResponse();
    }
    if (encoding !== "identity") await withEncoding(cached, encoding);
    const route = makeRoute(CONTENT_TYPES[parsed.ext], cached, file.moving, surrogateKeys ? surrogateKey(path.slice(prefix.length + 1)) : null);
    cache.add(path, route, generation);
    return respond(request, method, route, encoding, sent);
  }

  let delivery: Promise<Delivery> | undefined;
  /**
   * Manifests, their signatures, key files and app builds' files (docs/delivery.md), made on a
   * miss by delivery/ (loaded on the first such path) and then cached and answered exactly as
   * files are: the same hot path, ETag and 304, compression and headers.
   */
  async function fillDelivery(request: Request, method: string, path: string): Promise<Response> {
    const parsed = parseDeliveryPath(path.slice(prefix.length));
    if (!parsed) return NOT_FOUND.toResponse();
    delivery ??= import("../delivery/objects.ts").then(({ deliveryOf }) => deliveryOf(deps));
    const project = queries.projectBySlug.get(parsed.projectSlug);
    if (!project) return NOT_FOUND.toResponse();
    const generation = cache.generation(project.id);
    const object = await (await delivery).resolve(parsed);
    if (!object) return NOT_FOUND.toResponse();
    const encoding = encodings.choose(request.headers.get("accept-encoding"));
    let cached = cache.file(object.key);
    if (!cached) {
      if ("bytes" in object) cached = await memoryFile(object.key, object.projectId, object.bytes, encoding);
      else {
        const made = await loadFileAt(object.diskPath, object.key, object.projectId, encoding);
        if (!made) return NOT_FOUND.toResponse();
        cached = made;
      }
    }
    if (encoding !== "identity") await withEncoding(cached, encoding);
    const route = makeRoute(object.contentType, cached, object.moving, surrogateKeys ? surrogateKey(path.slice(prefix.length + 1)) : null);
    cache.add(path, route, generation);
    return respond(request, method, route, encoding, sent);
  }

  /** A cached route whose file lacks the encoding this request wants: made, then answered. */
  async function encodeAndRespond(request: Request, method: string, route: Route, encoding: "gzip" | "br"): Promise<Response> {
    await withEncoding(route.file, encoding, route);
    return respond(request, method, route, encoding, sent);
  }

  function handle(request: Request, method: string, path: string): Response | Promise<Response> | undefined {
    if (!path.startsWith(claim)) return undefined;
    if (prefix !== "" && path.length > prefix.length && path.charCodeAt(prefix.length) !== 47) return undefined; // "/cdnx"
    if (method === "GET" || method === "HEAD") {
      const route = cache.route(path);
      if (route !== undefined) {
        const encoding = encodings.choose(request.headers.get("accept-encoding"));
        if (encoding !== "identity" && route[encoding] === undefined) {
          missCell.value++;
          return encodeAndRespond(request, method, route, encoding);
        }
        hitCell.value++;
        return respond(request, method, route, encoding, sent);
      }
      missCell.value++;
      return fill(request, method, path);
    }
    if (method === "OPTIONS") return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
    return new HttpError(405, `method ${method} is not allowed here`, { ...NOT_FOUND_HEADERS, allow: "GET, HEAD, OPTIONS" }).toResponse();
  }

  // Every method: the CDN answers them all under its prefix (405s included).
  const routes = [
    `${prefix}/p/:projectSlug/r/${LATEST}/:file`,
    `${prefix}/p/:projectSlug/r/:releaseSlug/:file`,
    `${prefix}/p/:projectSlug/${CHANNEL_SEGMENT}/:channelSlug/:file`,
    // docs/delivery.md: app builds' views, and the project's key files.
    `${prefix}/p/:projectSlug/r/${LATEST}/b/:buildId/:file`,
    `${prefix}/p/:projectSlug/r/:releaseSlug/b/:buildId/:file`,
    `${prefix}/p/:projectSlug/${CHANNEL_SEGMENT}/:channelSlug/b/:buildId/:file`,
    `${prefix}/p/:projectSlug/key.pub`,
    `${prefix}/p/:projectSlug/keys/:file`,
  ].map((path) => ({
    method: "ALL",
    path,
  }));
  return { handle, routes, cache };
}
