import { HttpError, notFound } from "../common/errors.ts";
import { pathAndQueryOf } from "../common/http.ts";
import type { AppDeps } from "../deps.ts";
import { TokenAuth, type AuthOutcome, type Caller } from "../tokens/token-auth.ts";
import { EndpointRouter } from "./endpoint-router.ts";
import { ENDPOINTS, type AnyEndpointInput, type Endpoint } from "./endpoints.ts";
import { ProjectStates, type ProjectState } from "./project-state.ts";
import { preparePublicApiQueries } from "./queries.ts";
import { readParams } from "./query.ts";
import { FixedWindowLimiter, quotaHeaders, type Quota } from "./rate-limit.ts";
import { ResponseCache } from "./response-cache.ts";

export const PUBLIC_API_PREFIX = "/v1/";

const JSON_TYPE = "application/json; charset=utf-8";
// The 429 body, byte for byte as docs/interface.md §7 writes it.
export const RATE_LIMITED_BODY = '{"error": "rate limit exceeded"}';
// docs/public-api.md "Response cache": the answers of the endpoint itself are kept; a 400 is the
// request's own fault.
const CACHED_STATUSES = new Set([200, 404]);

/** The caller of a request with a valid read token, as the app's fast paths hand it on. */
export type ApiCaller = Caller;

export interface Admitted {
  caller: Caller;
  state: ProjectState;
  headers: Record<string, string>;
}

export type PublicApiDeps = Pick<AppDeps, "settings" | "db" | "clock" | "changes" | "observability">;

/** The query of a literal path and query, without its "?" ("" when there is none). */
function queryOf(key: string): string {
  const q = key.indexOf("?");
  return q < 0 ? "" : key.slice(q + 1);
}

/** Any method but GET under /v1 (docs/interface.md §4), with the X-RateLimit-* headers of every answer there. */
export function methodNotAllowed(quota: Record<string, string>): HttpError {
  return new HttpError(405, "method not allowed: the API is read-only", { ...quota, allow: "GET" });
}

/**
 * The public API's state and rules (docs/interface.md §4-5, §7-8, docs/product.md §2): token auth,
 * the fixed-window quotas (per token; failed tokens per address), the response cache, and the
 * per-project derived data, all dropped when a project changes. The endpoints themselves are the
 * rows of `ENDPOINTS` (endpoints.ts): the app makes one PublicApi and shares it between its fast
 * path (`caller`, `hit`, `miss`) and the routes made from those rows (`answer`).
 */
export class PublicApi {
  readonly cache: ResponseCache;
  /** The endpoints' paths and input schemas, for the fast path and for the 405s under /v1. */
  private readonly endpoints = new EndpointRouter(ENDPOINTS);
  private readonly auth: TokenAuth;
  private readonly tokenQuota: FixedWindowLimiter<number>;
  private readonly failedAuthQuota: FixedWindowLimiter<string>;
  private readonly states: ProjectStates;
  private readonly hitHeaderCache = new Map<number, { remaining: number; reset: number; headers: Headers }>();

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
   * undefined. Only the answers of `ENDPOINTS` are ever stored, so a stored entry is proof its key
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
   * A cache miss of an endpoint for a valid caller, answered before the framework exactly as its
   * route would answer it (docs/public-api.md "Speed"), but only when `path` is a row's and the
   * request's input passes the `t` schemas the row declares (`EndpointRouter.passes`). Anything
   * else returns undefined and goes through the routes unchanged, so every answer the router would
   * judge stays the router's own. A refusal (429, 400, 404) is thrown as an HttpError, which the
   * app answers as the router's error handler does (docs/architecture.md "Errors").
   */
  miss(caller: Caller, target: string, path: string): Response | undefined {
    const found = this.endpoints.match(path);
    if (found === null) return undefined;
    // The query is read once, for the check and for the answer.
    const query = readParams(queryOf(target));
    if (!this.endpoints.passes(found.store, found.params, query)) return undefined;
    return this.run(found.store, this.admitted(caller, this.deps.clock.now()), target, { params: found.params, query });
  }

  /**
   * Answers one endpoint completely, for its route (docs/interface.md §4.1-4.4), with the path
   * parameters the route validated. Order of the rules: token (401), then the response cache (a hit
   * costs no quota), then quota (429), then the answer. The query is read from the literal path and
   * query (the cache key), so a repeated parameter is judged exactly as written. `client` is the
   * caller's address, which failed token attempts are counted against. Every refusal is thrown as
   * an HttpError.
   */
  answer(endpoint: Endpoint, request: Request, params: AnyEndpointInput["params"], client: string): Response {
    const key = pathAndQueryOf(request.url);
    const query = key.indexOf("?");
    // The router also sends a path with a trailing slash here; the API's paths are exact, as the
    // fast path reads them (docs/public-api.md "Other answers").
    if (this.endpoints.match(query < 0 ? key : key.slice(0, query))?.store !== endpoint) throw notFound("not found", this.addressHeaders(client));
    // The router answers HEAD with the GET route; the API is GET only (docs/interface.md §7 rule 5),
    // so a HEAD must neither spend quota nor fill the cache.
    if (request.method !== "GET") throw methodNotAllowed(this.addressHeaders(client));
    const now = this.deps.clock.now();
    const outcome = this.auth.authenticate(request.headers.get("authorization"), now);
    if (outcome.kind === "ok") {
      const hit = this.cache.get(outcome.caller.projectId, key, now);
      if (hit) return hit.respond(this.hitHeaders(outcome.caller.tokenId, this.tokenQuota.peek(outcome.caller.tokenId, now)));
    }
    return this.run(endpoint, this.admit(client, outcome, now), key, { params, query: readParams(queryOf(key)) });
  }

  /** Whether a path under /v1 is an endpoint's: another method there is a 405, not a 404. */
  isEndpoint(path: string): boolean {
    return this.endpoints.match(path) !== null;
  }

  /**
   * An endpoint's answer for an admitted caller, cached under its literal path and query (200s and
   * 404s, `CACHED_STATUSES`). A refusal comes back thrown, with the caller's quota headers.
   */
  private run(endpoint: Endpoint, admitted: Admitted, key: string, input: AnyEndpointInput): Response {
    const { caller, state, headers } = admitted;
    let body: string | Uint8Array<ArrayBuffer>;
    try {
      body = endpoint.answer(state, input);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      if (!CACHED_STATUSES.has(error.status)) throw error.withHeaders(headers);
      this.cache.set(caller.projectId, key, error.status, error.body, this.deps.clock.now());
      throw error.withHeaders({ ...headers, "x-cache": "miss" });
    }
    this.cache.set(caller.projectId, key, 200, body, this.deps.clock.now());
    return new Response(body, { headers: { ...headers, "content-type": JSON_TYPE, "x-cache": "miss" } });
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
   * token is a 401 before any quota is counted). A refusal is thrown as the 401, 403 or 429, with
   * the X-RateLimit-* headers like every API answer.
   */
  private admit(client: string, outcome: AuthOutcome, now: number): Admitted {
    if (outcome.kind === "missing") {
      const q = this.failedAuthQuota.peek(client, now);
      throw new HttpError(401, "missing token", { ...quotaHeaders(q), "www-authenticate": 'Bearer realm="phrasebook"' });
    }
    if (outcome.kind === "invalid") {
      const q = this.failedAuthQuota.take(client, now);
      if (!q.allowed) throw this.rateLimited(q);
      throw new HttpError(401, "invalid token", { ...quotaHeaders(q), "www-authenticate": 'Bearer realm="phrasebook", error="invalid_token"' });
    }
    if (outcome.kind === "lacks-scope") {
      // A live token, so no failed guess to count; it spends nothing (docs/product.md §6).
      const headers = { ...quotaHeaders(this.failedAuthQuota.peek(client, now)), "www-authenticate": `Bearer realm="phrasebook", error="insufficient_scope", scope="${outcome.scope}"` };
      throw new HttpError(403, `token lacks scope ${outcome.scope}`, headers);
    }
    return this.admitted(outcome.caller, now);
  }

  /** Spends one request of a valid caller's quota (429 when it is used up). */
  private admitted(caller: Caller, now: number): Admitted {
    const q = this.tokenQuota.take(caller.tokenId, now);
    if (!q.allowed) throw this.rateLimited(q);
    const state = this.states.get(caller.projectId);
    if (!state) throw new HttpError(401, "invalid token", quotaHeaders(q)); // the project vanished under the token
    return { caller, state, headers: quotaHeaders(q) };
  }

  /** The X-RateLimit-* headers for a response that spends nothing (documents, unknown paths). */
  addressHeaders(client: string): Record<string, string> {
    return quotaHeaders(this.failedAuthQuota.peek(client, this.deps.clock.now()));
  }

  private rateLimited(q: Quota): HttpError {
    this.deps.observability.rateLimited.inc();
    const headers = { ...quotaHeaders(q), "retry-after": String(q.retryAfterSeconds) };
    return new HttpError(429, "rate limit exceeded", headers, RATE_LIMITED_BODY);
  }
}
