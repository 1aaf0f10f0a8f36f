import { Elysia } from "elysia";
import type { AppDeps } from "../app.ts";

/** `GET /metrics` in the Prometheus text format (issue 7); 404 when PHRASEBOOK_METRICS is off. */
export function metricsRoutes(deps: AppDeps) {
  return new Elysia().get("/metrics", ({ set }) => {
    if (!deps.settings.metrics) {
      set.status = 404;
      return { error: "metrics are turned off (PHRASEBOOK_METRICS=false)" };
    }
    set.headers["content-type"] = "text/plain; version=0.0.4; charset=utf-8";
    set.headers["cache-control"] = "no-store";
    return deps.observability.registry.render();
  });
}
