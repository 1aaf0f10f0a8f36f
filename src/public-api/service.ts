import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { errorBody, HttpError } from "../common/errors.ts";
import { pathAndQueryOf, pathStart } from "../common/http.ts";
import type { AppDeps } from "../deps.ts";
import { TokenAuth, type AuthOutcome, type Caller } from "../tokens/token-auth.ts";
import { ProjectStates, type ProjectState } from "./project-state.ts";
import { preparePublicApiQueries } from "./queries.ts";
import { ReleaseIdParams, ReleasesQueryWire } from "./model.ts";
import { parseListParams, readParams, routeQueryObject } from "./query.ts";
import { FixedWindowLimiter, quotaHeaders, type Quota } from "./rate-limit.ts";
import { renderReleaseList } from "./release-index.ts";
import { ResponseCache } from "./response-cache.ts";

export const PUBLIC_API_PREFIX = "/v1/";

const JSON_TYPE = "application/json; charset=utf-8";
// The 429 body, byte for byte as docs/interface.md §7 writes it.
export const RATE_LIMITED_BODY = '{"error": "rate limit exceeded"}';
// docs/interface.md §4.3: the same for a draft and a missing id.
const NOT_FOUND_RELEASE = "release not found";

/** The caller of a request with a valid read token, as the app's fast paths hand it on. */
export type ApiCaller = Caller;

export interface Admitted {
  caller: Caller;
  state: ProjectState;
  headers: Record<string, string>;
}

export type PublicApiDeps = Pick<AppDeps, "settings" | "db" | "clock" | "changes" | "observability">;

/** `decoded`: whether the id's escapes decode (the router then gives the route a string, else null). */
type Endpoint = { kind: "projects" | "releases" | "languages" } | { kind: "release"; releaseId: string; decoded: boolean };

const RELEASE_PREFIX = "/v1/releases/";

/** The query of a literal path and query, without its "?" ("" when there is none). */
function queryOf(key: string): string {
  const q = key.indexOf("?");
  return q < 0 ? "" : key.slice(q + 1);
}

/**
 * Which endpoint a literal path and query ("/v1/releases?page=2", the cache key) names, if any.
 * A release id is percent-decoded like any path segment; one that cannot be decoded names no
 * release (the same 404 as an unknown id). An id containing "/" is another path altogether.
 */
export function endpointOf(key: string): Endpoint | undefined {
  const q = key.indexOf("?");
  const path = q < 0 ? key : key.slice(0, q);
  if (path === "/v1/releases") return { kind: "releases" };
  if (path === "/v1/projects") return { kind: "projects" };
  if (path === "/v1/project-languages") return { kind: "languages" };
  if (!path.startsWith(RELEASE_PREFIX) || path.length === RELEASE_PREFIX.length) return undefined;
  const raw = path.slice(RELEASE_PREFIX.length);
  if (raw.includes("/")) return undefined;
  try {
    return { kind: "release", releaseId: decodeURIComponent(raw), decoded: true };
  } catch {
    return { kind: "release", releaseId: "", decoded: false }; // malformed escape: names no release
  }
}

/**
 * The public API's state and rules (docs/interface.md §4-5, §7-8, docs/product.md §2): token auth,
 * the fixed-window quotas (per token; failed tokens per address), the response cache, and the
 * per-project derived data, all dropped when a project changes. The app makes one and shares it
 * between its fast path (`hit`) and its routes (`answer`).
 */
export class PublicApi {
  readonly cache: ResponseCache;
  private readonly auth: TokenAuth;
  private readonly tokenQuota: FixedWindowLimiter<number>;
  private readonly failedAuthQuota: FixedWindowLimiter<string>;
  private readonly states: ProjectStates;
  private readonly hitHeaderCache = new Map<number, { remaining: number; reset: number; headers: Headers }>();
  // The routes' own input schemas (routes.ts declares these very objects), compiled by TypeBox, so
  // a miss answered before the router is validated by `t` like one answered through it.
  private readonly releasesQuery: TypeCheck<typeof ReleasesQueryWire>;
  private readonly releaseIdParams: TypeCheck<typeof ReleaseIdParams>;

  constructor(private readonly deps: PublicApiDeps) {
    const { settings, db, changes } = deps;
    const windowMs = settings.rateWindowSeconds * 1000;
    // Only tokens with the read scope read the API (docs/product.md §6); a write- or publish-only token is a 403.
    this.auth = new TokenAuth(db, "read");
    this.tokenQuota = new FixedWindowLimiter(settings.rateLimit, windowMs);
    // Repeated invalid tokens from one address are limited too, by the same numbers (docs/product.md §2).
    this.failedAuthQuota = new FixedWindowLimiter(settings.rateLimit, windowMs);
    this.cache = new ResponseCache(settings.apiCacheTtlSeconds * 1000);
    this.states = new ProjectStates(preparePublicApiQueries(db), settings.cdnUrl);
    this.releasesQuery = TypeCompiler.Compile(ReleasesQueryWire);
    this.releaseIdParams = TypeCompiler.Compile(ReleaseIdParams);
    changes.subscribe((projectId) => {
      this.cache.dropProject(projectId);
      this.states.drop(projectId);
      this.auth.forgetProject(projectId);
    });
  }

  /**
   * The first step of the fast paths, taken by the app before the framework (like CDN files,
   * docs/public-api.md "Speed"): the caller of a GET under /v1/ with a valid read token, or
   * undefined (no token, a bad one, another method, another path), which the routes answer.
   * `method` and `target` (the path and query as sent, the cache key) are the request's, read once
   * by the app; the token is hashed once for both fast paths.
   */
  caller(request: Request, method: string, target: string): Caller | undefined {
    if (method !== "GET" || !target.startsWith(PUBLIC_API_PREFIX)) return undefined;
    const outcome = this.auth.authenticate(request.headers.get("authorization"), this.deps.clock.now());
    return outcome.kind === "ok" ? outcome.caller : undefined;
  }

  /**
   * A cached answer for a valid caller (a hit costs no quota, docs/interface.md §4.2 rule 7), or
   * undefined. Only the four endpoints' answers are ever stored, so a stored entry is proof the key
   * names one of them.
   */
  hit(caller: Caller, target: string): Response | undefined {
    if (!this.cache.enabled) return undefined;
    const now = this.deps.clock.now();
    const hit = this.cache.get(caller.projectId, target, now);
    if (hit === undefined) return undefined;
    return hit.respond(this.hitHeaders(caller.tokenId, this.tokenQuota.peek(caller.tokenId, now)));
  }

  /**
   * A cache miss of one of the four endpoints for a valid caller, answered before the framework
   * exactly as the route would answer it (docs/public-api.md "Speed"), but only when the request's
   * input passes the `t` schema its route declares, checked with TypeBox's compiled checker on the
   * input as the router hands it over (every parameter a string, a repeated one an array). Anything
   * else returns undefined and goes through the routes unchanged, so every error answer (and
   * anything the router would judge) stays the router's own. The check is never looser than the
   * router's: the router also coerces, which only lets more through, to the routes.
   */
  miss(caller: Caller, target: string): Response | undefined {
    const endpoint = endpointOf(target);
    if (endpoint === undefined) return undefined;
    // The query is read once, for the check and for the answer.
    const params = endpoint.kind === "releases" ? readParams(queryOf(target)) : undefined;
    if (!this.inputPasses(endpoint, params)) return undefined;
    return this.respond(this.admitted(caller, this.deps.clock.now()), endpoint, target, params);
  }

  /** Whether the input of a request for `endpoint` passes its route's schema (routes.ts). */
  private inputPasses(endpoint: Endpoint, params: Map<string, string[]> | undefined): boolean {
    switch (endpoint.kind) {
      case "releases":
        return this.releasesQuery.Check(routeQueryObject(params!));
      case "release":
        return this.releaseIdParams.Check({ release_id: endpoint.decoded ? endpoint.releaseId : null });
      case "projects":
      case "languages":
        return true; // their routes declare no input
    }
  }

  /**
   * Answers one of the four endpoints completely (docs/interface.md §4.1-4.4), for the routes.
   * Order of the rules: token (401), then the response cache (a hit costs no quota), then quota
   * (429), then the answer. The endpoint is read from the literal path and query (the cache key),
   * so a repeated parameter or a malformed escape is judged exactly as written. `client` is the
   * caller's address, which failed token attempts are counted against.
   */
  answer(request: Request, client: string): Response {
    const key = this.keyOf(request) ?? "";
    const endpoint = endpointOf(key);
    if (endpoint === undefined) return new HttpError(404, "not found", this.addressHeaders(client)).toResponse();
    // The router answers HEAD with the GET route; the API is GET only (docs/interface.md §7 rule 5),
    // so a HEAD must neither spend quota nor fill the cache.
    if (request.method !== "GET") {
      return new HttpError(405, "method not allowed: the API is read-only", { ...this.addressHeaders(client), allow: "GET" }).toResponse();
    }
    const now = this.deps.clock.now();
    const outcome = this.auth.authenticate(request.headers.get("authorization"), now);
    if (outcome.kind === "ok") {
      const hit = this.cache.get(outcome.caller.projectId, key, now);
      if (hit) return hit.respond(this.hitHeaders(outcome.caller.tokenId, this.tokenQuota.peek(outcome.caller.tokenId, now)));
    }
    return this.respond(this.admit(client, outcome, now), endpoint, key);
  }

  /** The answer of an endpoint once admitted (or the refusal admission gave). */
  private respond(gate: Admitted | Response, endpoint: Endpoint, key: string, params?: Map<string, string[]>): Response {
    if (gate instanceof Response) return gate;
    switch (endpoint.kind) {
      case "projects":
        return this.reply(gate, key, 200, gate.state.projects());
      case "languages":
        return this.reply(gate, key, 200, gate.state.languages());
      case "releases":
        return this.releases(gate, key, params ?? readParams(queryOf(key)));
      case "release": {
        const body = gate.state.detail(endpoint.releaseId);
        return body === undefined ? this.reply(gate, key, 404, errorBody(NOT_FOUND_RELEASE)) : this.reply(gate, key, 200, body);
      }
    }
  }

  /** The literal path and query of a request under /v1/ (the cache key), or undefined. */
  private keyOf(request: Request): string | undefined {
    const url = request.url;
    return url.startsWith(PUBLIC_API_PREFIX, pathStart(url)) ? pathAndQueryOf(url) : undefined;
  }

  /**
   * The headers of a hit, built once per token and quota state: a hit spends nothing, so they stay
   * the same from hit to hit, and handing Response a ready Headers costs about as little as one
   * header (each Response copies it).
   */
  private hitHeaders(tokenId: number, q: Quota): Headers {
    const known = this.hitHeaderCache.get(tokenId);
    if (known && known.remaining === q.remaining && known.reset === q.resetEpochSeconds) return known.headers;
    const headers = new Headers({ ...quotaHeaders(q), "content-type": JSON_TYPE, "x-cache": "hit" });
    this.hitHeaderCache.set(tokenId, { remaining: q.remaining, reset: q.resetEpochSeconds, headers });
    return headers;
  }

  /**
   * Spends quota after authentication, in that order (docs/product.md §2: a missing or invalid
   * token is a 401 before any quota is counted). A refusal comes back as the finished 401 or 429
   * response, with the X-RateLimit-* headers like every API response.
   */
  private admit(client: string, outcome: AuthOutcome, now: number): Admitted | Response {
    if (outcome.kind === "missing") {
      const q = this.failedAuthQuota.peek(client, now);
      return new HttpError(401, "missing token", { ...quotaHeaders(q), "www-authenticate": 'Bearer realm="phrasebook"' }).toResponse();
    }
    if (outcome.kind === "invalid") {
      const q = this.failedAuthQuota.take(client, now);
      if (!q.allowed) return this.rateLimited(q);
      return new HttpError(401, "invalid token", { ...quotaHeaders(q), "www-authenticate": 'Bearer realm="phrasebook", error="invalid_token"' }).toResponse();
    }
    if (outcome.kind === "lacks-scope") {
      // A live token, so no failed guess to count; it spends nothing (docs/product.md §6).
      return new HttpError(403, `token lacks scope ${outcome.scope}`, { ...quotaHeaders(this.failedAuthQuota.peek(client, now)), "www-authenticate": `Bearer realm="phrasebook", error="insufficient_scope", scope="${outcome.scope}"` }).toResponse();
    }
    return this.admitted(outcome.caller, now);
  }

  /** Spends one request of a valid caller's quota (429 when it is used up). */
  private admitted(caller: Caller, now: number): Admitted | Response {
    const q = this.tokenQuota.take(caller.tokenId, now);
    if (!q.allowed) return this.rateLimited(q);
    const state = this.states.get(caller.projectId);
    if (!state) return new HttpError(401, "invalid token", quotaHeaders(q)).toResponse(); // the project vanished under the token
    return { caller, state, headers: quotaHeaders(q) };
  }

  /** The X-RateLimit-* headers for a response that spends nothing (documents, unknown paths). */
  addressHeaders(client: string): Record<string, string> {
    return quotaHeaders(this.failedAuthQuota.peek(client, this.deps.clock.now()));
  }

  private releases(a: Admitted, key: string, params: Map<string, string[]>): Response {
    let query;
    try {
      query = parseListParams(params);
    } catch (err) {
      if (err instanceof HttpError) return err.toResponse(a.headers);
      throw err;
    }
    const { items, total } = a.state.releases().page(query);
    return this.reply(a, key, 200, renderReleaseList(items, total, query));
  }

  private rateLimited(q: Quota): Response {
    this.deps.observability.rateLimited.inc();
    const headers = { ...quotaHeaders(q), "retry-after": String(q.retryAfterSeconds) };
    return new HttpError(429, "rate limit exceeded", headers, RATE_LIMITED_BODY).toResponse();
  }

  private reply(a: Admitted, key: string, status: number, body: string | Uint8Array<ArrayBuffer>): Response {
    this.cache.set(a.caller.projectId, key, status, body, this.deps.clock.now());
    const headers = { ...a.headers, "content-type": JSON_TYPE, "x-cache": "miss" };
    return new Response(body, { status, headers });
  }
}
