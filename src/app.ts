import { Elysia } from "elysia";
import { createCdn } from "./cdn/handler.ts";
import { ClientAddresses, TrustedProxies } from "./common/client-address.ts";
import { HttpError } from "./common/errors.ts";
import { toHttpError } from "./common/error-reply.ts";
import { pathOf } from "./common/http.ts";
import { dashboardApi } from "./dashboard-api/index.ts";
import { dashboardPages } from "./dashboard/routes.ts";
import type { AppDeps } from "./deps.ts";
import { metricsRoutes } from "./observability/routes.ts";
import { publicApiRoutes } from "./public-api/routes.ts";
import { PublicApi } from "./public-api/service.ts";
import { isReachable } from "./storage/db.ts";

/** The TCP peer of a request, asked only when needed (logs, per-address limits). */
export type PeerAddress = () => string | undefined;

export interface App {
  /** Answers one request; every path the server answers starts here. */
  handle(request: Request, peer?: PeerAddress): Response | Promise<Response>;
  /** The routes alone (for the OpenAPI document and tests that want Elysia itself). */
  readonly routes: Elysia;
}

/**
 * The composition root: every path that answers a request is visible here (docs/architecture.md
 * "Requests"). Never listens, so the server and in-process tests share it.
 *
 * 1. CDN files, answered before the framework from the in-memory cache (docs/cdn.md "Speed").
 * 2. Public API answers already cached for a valid token, likewise (docs/public-api.md "Speed").
 * 3. Everything else through Elysia: the dashboard API, the public API, the dashboard pages,
 *    /healthz and /metrics, with one error handler that turns every failure into `{"error"}`.
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

  const routes = new Elysia()
    .onError(({ code, error, request }) => toHttpError(code, error, pathOf(request.url)).toResponse())
    .get("/healthz", () => {
      if (!isReachable(deps.db)) throw new HttpError(503, "the database does not answer");
      return { status: "ok" };
    })
    .get("/", ({ redirect }) => redirect("/dashboard", 302))
    .use(dashboardApi(deps, clientOf))
    .use(publicApiRoutes(settings, publicApi, clientOf))
    .use(dashboardPages(settings))
    .use(metricsRoutes(settings.metrics, observability));

  function handle(request: Request, peer: PeerAddress = () => undefined): Response | Promise<Response> {
    const started = performance.now();
    let client: string | undefined;
    const clientAddress = () => {
      if (client === undefined) {
        const address = peer();
        client = address === undefined ? "unknown" : proxies.enabled ? proxies.resolve(address, request.headers.get("x-forwarded-for")) : address;
      }
      return client;
    };
    const file = cdn.handle(request);
    if (file !== undefined) {
      if (file instanceof Response) return observability.request(request, file, started, clientAddress);
      return file.then((res) => observability.request(request, res, started, clientAddress));
    }
    const hit = publicApi.hit(request);
    if (hit !== undefined) return observability.request(request, hit, started, clientAddress);
    clients.note(request, clientAddress());
    return routes.handle(request).then((res) => observability.request(request, res, started, clientAddress));
  }

  return { handle, routes: routes as unknown as Elysia };
}
