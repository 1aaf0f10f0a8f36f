import { Elysia } from "elysia";
import { HttpError } from "../common/errors.ts";
import type { Observability } from "./index.ts";

/**
 * `GET /metrics` in the Prometheus text format (docs/deploy.md "Monitoring"); 404 when
 * PHRASEBOOK_METRICS is off.
 */
export function metricsRoutes(enabled: boolean, observability: Observability) {
  return new Elysia().get("/metrics", ({ set }) => {
    if (!enabled) throw new HttpError(404, "metrics are turned off (PHRASEBOOK_METRICS=false)");
    set.headers["content-type"] = "text/plain; version=0.0.4; charset=utf-8";
    set.headers["cache-control"] = "no-store";
    return observability.registry.render();
  });
}
