import { Elysia } from "elysia";
import { createCdn } from "./cdn/handler.ts";
import { ClientAddresses, TrustedProxies } from "./common/client-address.ts";
import { HttpError } from "./common/errors.ts";
import { toHttpError } from "./common/error-reply.ts";
import { pathAndQueryOf, pathOf } from "./common/http.ts";
import { DASHBOARD_API_PREFIX } from "./dashboard-api/guards.ts";
import { dashboardPages } from "./dashboard/routes.ts";
import type { AppDeps } from "./deps.ts";
import { metricsRoutes } from "./observability/routes.ts";
import { publicApiRoutes } from "./public-api/routes.ts";
import { PublicApi, type ApiCaller } from "./public-api/service.ts";
import { isReachable } from "./storage/db.ts";

/**
 * The TCP peer of a request, asked only when needed (logs, per-address limits). One function for
 * every request, not a closure per request: a hit allocates nothing the floor does not (docs/cdn.md "Speed").
 */
export type PeerAddress = (request: Request) => string | undefined;
const NO_PEER: PeerAddress = () => undefined;
/** At most 1,024 peer and X-Forwarded-For pairs of up to 256 characters: well under 1 MB. */
const RESOLVED_ADDRESSES_REMEMBERED = 1024;
const REMEMBERED_KEY_MAX_LENGTH = 256;

export interface App {
  /** Answers one request; every path the server answers starts here. */
  handle(request: Request, peer?: PeerAddress): Response | Promise<Response>;
  /** The routes alone (for tests that want Elysia itself), but for the dashboard API's. */
  readonly routes: Elysia;
  /** The dashboard API's routes, built on its first request or here, whichever comes first. */
  dashboardApi(): Promise<Elysia>;
}

/** Requests under this path go to the dashboard API; `/dashboard/api` itself is a page, as before. */
const DASHBOARD_API_PATH = DASHBOARD_API_PREFIX + "/";

/**
 * The composition root: every path that answers a request is visible here (docs/architecture.md
 * "Requests"). Never listens, so the server and in-process tests share it.
 *
 * 1. CDN files, answered before the framework from the in-memory cache (docs/cdn.md "Speed").
 * 2. Public API GETs of the endpoints (the rows of public-api/endpoints.ts) with a valid token,
 *    likewise (docs/public-api.md "Speed"): a cached answer, or a miss whose input passes the `t`
 *    schemas its row declares.
 * 3. Everything else through Elysia: the dashboard API, the public API, the dashboard pages,
 *    /healthz and /metrics, with one error handler that turns every failure into `{"error"}`.
 *    The dashboard API is an Elysia instance of its own, loaded and built on its first request:
 *    nothing at start needs it, and it is the largest part of the app to load and build
 *    (docs/architecture.md "Start-up").
 *
 * Every answer is counted and, when logging is on, logged with its client address.
 */
export function createApp(deps: AppDeps): App {
  const { settings, observability } = deps;
  const proxies = new TrustedProxies(settings.trustedProxies);
  const clients = new ClientAddresses();
  const clientOf = (request: Request) => clients.of(request);
  const cdn = createCdn(deps);
  const publicApi = new PublicApi(deps);

  // Errors are logged under the route's label, never the raw path (docs/deploy.md "Monitoring").
  const answerError = ({ code, error, request }: { code: string | number; error: unknown; request: Request }) =>
    toHttpError(code, error, observability.routeOf(request.method, pathOf(request.url))).toResponse();
  const routes = new Elysia()
    .onError(answerError)
    .get("/healthz", () => {
      if (!isReachable(deps.db)) throw new HttpError(503, "the database does not answer");
      return { status: "ok" };
    })
    .get("/", ({ redirect }) => redirect("/dashboard", 302))
    // The Node client, no token (docs/automation.md "The Node client"); built in, loaded on first request.
    .get("/client/phrasebook.mjs", async () => (await import("./cli/client/script.ts")).nodeClientResponse())
    // The web loader for apps, no token (docs/delivery.md "The loader"); built in, loaded on first request.
    .get("/client/ota.mjs", async ({ request }) => (await import("./delivery/loader/script.ts")).loaderResponse(request))
    .use(publicApiRoutes(settings, publicApi, clientOf))
    .use(dashboardPages(settings))
    .use(metricsRoutes(settings.metrics, observability));

  // Metric labels and log routes come from what is declared here, never from a request's path.
  const declared = [...cdn.routes, ...routes.routes.map(({ method, path }) => ({ method, path }))];
  observability.declareRoutes(declared);

  let dashboardApiBuilt: Promise<Elysia> | undefined;
  /** The dashboard API, with the same error handler; its routes are declared once it is built. */
  function dashboardApi(): Promise<Elysia> {
    dashboardApiBuilt ??= import("./dashboard-api/index.ts").then(({ dashboardApi: build }) => {
      const api = new Elysia().onError(answerError).use(build(deps, clientOf));
      observability.declareRoutes([...declared, ...api.routes.map(({ method, path }) => ({ method, path }))]);
      return api as unknown as Elysia;
    });
    return dashboardApiBuilt;
  }

  // Resolving an address behind a trusted proxy parses every hop (~3 µs, as much as a whole CDN
  // hit); the answer depends only on the peer and the header, which repeat, so it is remembered
  // (bounded, forgotten all at once when full; docs/cdn.md "Speed").
  const resolved = new Map<string, string>();
  /** The client's address: the peer, or the one a trusted proxy names (docs/deploy.md "Monitoring"). */
  function clientAddress(request: Request, peer: PeerAddress): string {
    const address = peer(request);
    if (address === undefined) return "unknown";
    if (!proxies.enabled) return address;
    const forwardedFor = request.headers.get("x-forwarded-for");
    const key = forwardedFor === null ? address : `${address}\n${forwardedFor}`;
    let client = resolved.get(key);
    if (client === undefined) {
      client = proxies.resolve(address, forwardedFor);
      if (key.length <= REMEMBERED_KEY_MAX_LENGTH) {
        if (resolved.size >= RESOLVED_ADDRESSES_REMEMBERED) resolved.clear();
        resolved.set(key, client);
      }
    }
    return client;
  }
  const logs = observability.logsRequests;

  /**
   * A public API miss before the router (`PublicApi.miss`: only for a path of its endpoint table
   * whose input passes the row's `t` schemas), with the router's answer to anything it throws, a
   * refusal included: the same `toHttpError` as `onError` (docs/architecture.md "Errors").
   */
  function answerMiss(caller: ApiCaller, target: string, method: string, path: string): Response | undefined {
    try {
      return publicApi.miss(caller, target, path);
    } catch (error) {
      // A refusal is answered as it is (toHttpError's first step); only an unexpected error needs the route's label for its log line.
      return (error instanceof HttpError ? error : toHttpError("UNKNOWN", error, observability.routeOf(method, path))).toResponse();
    }
  }

  /**
   * The public API caller of a fast-path request. A token seen for the first time is read from
   * SQLite; should that fail (a busy database), the request goes on to the router, whose error
   * handler answers it like any other failure.
   */
  function apiCaller(request: Request, method: string, target: string): ApiCaller | undefined {
    try {
      return publicApi.caller(request, method, target);
    } catch {
      return undefined;
    }
  }

  function handle(request: Request, peer: PeerAddress = NO_PEER): Response | Promise<Response> {
    const started = performance.now();
    const method = request.method;
    // The URL is read once: its path and query as sent, and the path alone (usually the same string).
    const target = pathAndQueryOf(request.url);
    const query = target.indexOf("?");
    const path = query < 0 ? target : target.slice(0, query);
    const file = cdn.handle(request, method, path);
    if (file !== undefined) {
      if (file instanceof Response) return observability.answered(method, path, file, started, logs ? clientAddress(request, peer) : "");
      return file.then((res) => observability.answered(method, path, res, started, logs ? clientAddress(request, peer) : ""));
    }
    const caller = apiCaller(request, method, target);
    if (caller !== undefined) {
      const hit = publicApi.hit(caller, target);
      if (hit !== undefined) return observability.answered(method, path, hit, started, logs ? clientAddress(request, peer) : "");
      const miss = answerMiss(caller, target, method, path);
      if (miss !== undefined) return observability.answered(method, path, miss, started, logs ? clientAddress(request, peer) : "");
    }
    const client = clientAddress(request, peer);
    clients.note(request, client);
    const router = path.startsWith(DASHBOARD_API_PATH) ? dashboardApi().then((api) => api.handle(request)) : routes.handle(request);
    return router.then((res) => observability.answered(method, path, res, started, client));
  }

  return { handle, routes: routes as unknown as Elysia, dashboardApi };
}
