import type { AppDeps } from "../app.ts";
import { clientAddress } from "../common/client-address.ts";
import { errorBody, errorResponse, HttpError } from "../common/errors.ts";
import { parseListQuery } from "./query.ts";
import { FixedWindowLimiter, quotaHeaders, type Quota } from "./rate-limit.ts";
import { renderReleaseList } from "./release-index.ts";
import { ResponseCache } from "./response-cache.ts";
import { prepareQueries, ProjectStates, type ProjectState } from "./project-state.ts";
import { TokenAuth, type AuthOutcome, type Caller } from "./token-auth.ts";

export const API_PREFIX = "/v1/";
/** Documents under /v1 that need no token (CONTRACTS 2). */
const OPEN_PREFIX_SPEC = "/v1/openapi.json";
const OPEN_PREFIX_DOCS = "/v1/docs";

const JSON_TYPE = "application/json; charset=utf-8";
// spec 7 table: the 429 body, byte for byte as the spec writes it.
export const RATE_LIMITED_BODY = '{"error": "rate limit exceeded"}';
const NOT_FOUND_RELEASE = "release not found"; // spec 4.3: the same for a draft and a missing id

export interface Admitted {
  caller: Caller;
  state: ProjectState;
  headers: Record<string, string>;
}

const instances = new WeakMap<AppDeps, PublicApi>();

/**
 * The one PublicApi of an app: the routes (via createApp) and the server's fetch handler (which
 * answers cache hits before the framework) must share its cache, quotas and tokens.
 */
export function publicApiFor(deps: AppDeps): PublicApi {
  let api = instances.get(deps);
  if (!api) instances.set(deps, (api = new PublicApi(deps)));
  return api;
}

/** "/v1/releases?page=2" from "http://host:port/v1/releases?page=2": the literal cache key. */
export function pathAndQuery(url: string): string {
  return url.slice(url.indexOf("/", url.indexOf("//") + 2));
}

/**
 * The public API's state and rules, shared by the routes and the pre-routing fast path: token
 * auth, the fixed-window quotas (per token; failed tokens per address), the response cache, and
 * the per-project derived data, all dropped when a project changes.
 */
export class PublicApi {
  readonly cache: ResponseCache;
  private readonly auth: TokenAuth;
  private readonly tokenQuota: FixedWindowLimiter<number>;
  private readonly failedAuthQuota: FixedWindowLimiter<string>;
  private readonly states: ProjectStates;
  /** The auth outcome the fast path already computed for a request that then missed the cache. */
  private readonly outcomes = new WeakMap<Request, AuthOutcome>();
  private readonly hitHeaderCache = new Map<number, { remaining: number; reset: number; headers: Headers }>();

  constructor(private readonly deps: AppDeps) {
    const { settings, db, changes } = deps;
    const windowMs = settings.rateWindowSeconds * 1000;
    this.auth = new TokenAuth(db);
    this.tokenQuota = new FixedWindowLimiter(settings.rateLimit, windowMs);
    // CONTRACTS 2: repeated invalid tokens from one address are limited too, by the same numbers.
    this.failedAuthQuota = new FixedWindowLimiter(settings.rateLimit, windowMs);
    this.cache = new ResponseCache(settings.apiCacheTtlSeconds * 1000);
    this.states = new ProjectStates(prepareQueries(db), settings.cdnUrl);
    changes.subscribe((projectId) => {
      this.cache.dropProject(projectId);
      this.states.drop(projectId);
      this.auth.forgetProject(projectId);
    });
  }

  /**
   * Runs before Elysia routes anything: answers a cache hit for a valid token at once (spec 4.2
   * rule 7: it costs no quota). Anything else goes on to the routes, carrying the auth outcome.
   */
  fastPath(request: Request): Response | undefined {
    if (request.method !== "GET") return undefined;
    const url = request.url;
    const start = url.indexOf("/", url.indexOf("//") + 2);
    if (!url.startsWith(API_PREFIX, start) || url.startsWith(OPEN_PREFIX_DOCS, start) || url.startsWith(OPEN_PREFIX_SPEC, start)) return undefined;
    if (this.outcomes.has(request)) return undefined; // asked once per request
    const key = url.slice(start);
    const now = this.deps.clock.now();
    const outcome = this.auth.authenticate(request.headers.get("authorization"), now);
    const hit = outcome.kind === "ok" ? this.cache.get(outcome.caller.projectId, key, now) : undefined;
    if (!hit || outcome.kind !== "ok") {
      this.outcomes.set(request, outcome);
      return undefined;
    }
    const q = this.tokenQuota.peek(outcome.caller.tokenId, now);
    return new Response(hit.body, { status: hit.status, headers: this.hitHeaders(outcome.caller.tokenId, q) });
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
   * Authenticates and spends quota, in that order (CONTRACTS 2: a missing or invalid token is a 401
   * before any quota is counted). A refusal comes back as the finished 401 or 429 response, with
   * the X-RateLimit-* headers like every API response.
   */
  admit(request: Request): Admitted | Response {
    const now = this.deps.clock.now();
    const outcome = this.outcomes.get(request) ?? this.auth.authenticate(request.headers.get("authorization"), now);
    if (outcome.kind === "missing") {
      const q = this.failedAuthQuota.peek(clientAddress(request), now);
      return errorResponse(401, "missing token", { ...quotaHeaders(q), "www-authenticate": 'Bearer realm="phrasebook"' });
    }
    if (outcome.kind === "invalid") {
      const q = this.failedAuthQuota.take(clientAddress(request), now);
      if (!q.allowed) return this.rateLimited(q);
      return errorResponse(401, "invalid token", { ...quotaHeaders(q), "www-authenticate": 'Bearer realm="phrasebook", error="invalid_token"' });
    }
    const q = this.tokenQuota.take(outcome.caller.tokenId, now);
    if (!q.allowed) return this.rateLimited(q);
    const state = this.states.get(outcome.caller.projectId);
    if (!state) return errorResponse(401, "invalid token", quotaHeaders(q)); // the project vanished under the token
    return { caller: outcome.caller, state, headers: quotaHeaders(q) };
  }

  /** The X-RateLimit-* headers for a response that spends nothing (documents, unknown paths). */
  addressHeaders(request: Request): Record<string, string> {
    return quotaHeaders(this.failedAuthQuota.peek(clientAddress(request), this.deps.clock.now()));
  }

  projects(a: Admitted, request: Request): Response {
    return this.reply(a, request, 200, a.state.projects());
  }

  projectLanguages(a: Admitted, request: Request): Response {
    return this.reply(a, request, 200, a.state.languages());
  }

  releases(a: Admitted, request: Request): Response {
    const url = request.url;
    const q = url.indexOf("?");
    let query;
    try {
      query = parseListQuery(q < 0 ? "" : url.slice(q));
    } catch (err) {
      if (err instanceof HttpError) return errorResponse(err.status, err.message, a.headers);
      throw err;
    }
    const { items, total } = a.state.releases().page(query);
    return this.reply(a, request, 200, renderReleaseList(items, total, query));
  }

  release(a: Admitted, request: Request, releaseId: string): Response {
    const body = a.state.detail(releaseId);
    return body === undefined ? this.reply(a, request, 404, errorBody(NOT_FOUND_RELEASE)) : this.reply(a, request, 200, body);
  }

  private rateLimited(q: Quota): Response {
    this.deps.observability?.rateLimited.inc();
    return new Response(RATE_LIMITED_BODY, {
      status: 429,
      headers: { ...quotaHeaders(q), "retry-after": String(q.retryAfterSeconds), "content-type": JSON_TYPE },
    });
  }

  private reply(a: Admitted, request: Request, status: number, body: string | Uint8Array<ArrayBuffer>): Response {
    this.cache.set(a.caller.projectId, pathAndQuery(request.url), status, body, this.deps.clock.now());
    const headers = { ...a.headers, "content-type": JSON_TYPE, "x-cache": "miss" };
    return new Response(body, { status, headers });
  }
}
