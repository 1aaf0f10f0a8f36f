import { Elysia } from "elysia";
import type { Settings } from "./config/settings.ts";
import type { Clock } from "./common/clock.ts";
import { toErrorReply } from "./common/http-errors.ts";
import type { ProjectChanges } from "./common/project-changes.ts";
import type { Observability } from "./observability/index.ts";
import { metricsRoutes } from "./observability/routes.ts";
import type { Db } from "./storage/db.ts";
import { authoringRoutes } from "./authoring/routes.ts";
import { publicApiRoutes } from "./public-api/routes.ts";
import { publishRoutes } from "./publish/routes.ts";
import { dashboardRoutes } from "./dashboard/routes.ts";
import { webhookRoutes } from "./webhooks/routes.ts";

export interface AppDeps {
  settings: Settings;
  db: Db;
  clock: Clock;
  /** Caches subscribe; authoring and publishing notify after each committed change. */
  changes: ProjectChanges;
  /** Counters and the request log (issue 7); capabilities count what only they can see. */
  observability: Observability;
}

/**
 * The whole HTTP surface: one `.use()` per capability. Never listens, so tests and the server
 * share it (`app.handle(request)`).
 */
export function createApp(deps: AppDeps) {
  return new Elysia()
    .onError(({ code, error, request, set }) => {
      const reply = toErrorReply(code, error, new URL(request.url).pathname);
      set.status = reply.status;
      Object.assign(set.headers, reply.headers);
      set.headers["content-type"] = "application/json; charset=utf-8";
      return JSON.stringify({ error: reply.message });
    })
    .get("/healthz", ({ set }) => {
      try {
        deps.db.$client.query("SELECT 1").get();
        return { status: "ok" };
      } catch {
        set.status = 503;
        return { status: "unavailable" };
      }
    })
    .get("/", ({ redirect }) => redirect("/dashboard", 302))
    .use(authoringRoutes(deps))
    .use(publicApiRoutes(deps))
    .use(publishRoutes(deps))
    .use(webhookRoutes(deps))
    .use(dashboardRoutes(deps))
    .use(metricsRoutes(deps));
}

export type App = ReturnType<typeof createApp>;
