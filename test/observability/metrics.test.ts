import { describe, expect, test } from "bun:test";
import { Counter, Histogram, Registry } from "../../src/observability/metrics.ts";
import { routeLabel } from "../../src/observability/route-label.ts";

describe("metrics registry", () => {
  test("counters and histograms render in Prometheus text format", () => {
    const registry = new Registry();
    const c = registry.register(new Counter("x_total", "things", ["route", "status"]));
    const h = registry.register(new Histogram("lat_seconds", "latency", ["route"], [0.01, 0.1]));
    c.inc({ route: "/v1/releases", status: "200" });
    c.inc({ route: "/v1/releases", status: "200" });
    c.inc({ route: 'we"ird\\', status: "404" });
    h.observe({ route: "/a" }, 0.005);
    h.observe({ route: "/a" }, 0.05);
    h.observe({ route: "/a" }, 3);
    expect(registry.render()).toBe(
      [
        "# HELP x_total things",
        "# TYPE x_total counter",
        'x_total{route="/v1/releases",status="200"} 2',
        'x_total{route="we\\"ird\\\\",status="404"} 1',
        "# HELP lat_seconds latency",
        "# TYPE lat_seconds histogram",
        'lat_seconds_bucket{route="/a",le="0.01"} 1',
        'lat_seconds_bucket{route="/a",le="0.1"} 2',
        'lat_seconds_bucket{route="/a",le="+Inf"} 3',
        'lat_seconds_sum{route="/a"} 3.055',
        'lat_seconds_count{route="/a"} 3',
        "",
      ].join("\n"),
    );
  });

  test("route labels never carry CDN slugs or ids", () => {
    expect(routeLabel("/cdn/p/AbCdEfGhIjKlMnOp/r/QrStUvWxYz012345/en.json", "/cdn")).toBe("/cdn/p/:projectSlug/r/:releaseSlug/:file");
    expect(routeLabel("/cdn/p/AbCdEfGhIjKlMnOp/r/latest/pt-BR.arb", "/cdn")).toBe("/cdn/p/:projectSlug/r/latest/:file");
    expect(routeLabel("/p/AbCdEfGhIjKlMnOp/r/latest/en.yaml", "")).toBe("/p/:projectSlug/r/latest/:file");
    expect(routeLabel("/v1/releases/rel_0123456789abcdefghij", "/cdn")).toBe("/v1/releases/:id");
    expect(routeLabel("/v1/releases/anything-at-all", "/cdn")).toBe("/v1/releases/:id");
    expect(routeLabel("/dashboard/api/projects/prj_0123456789abcdefghij/keys/key_0123456789abcdefghij/translations/pt-BR", "/cdn")).toBe(
      "/dashboard/api/projects/:id/keys/:id/translations/:code",
    );
    expect(routeLabel("/dashboard/projects/prj_0123456789abcdefghij", "/cdn")).toBe("/dashboard/*");
    expect(routeLabel("/v1/releases", "/cdn")).toBe("/v1/releases");
  });
});
