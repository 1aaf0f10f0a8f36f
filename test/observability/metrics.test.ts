import { describe, expect, test } from "bun:test";
import { Counter, Histogram, Registry } from "../../src/observability/metrics.ts";
import { RouteLabels, UNMATCHED } from "../../src/observability/route-labels.ts";

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
});

describe("route labels come from the routes declared, never from the path (deploy.md Monitoring)", () => {
  const labels = new RouteLabels([
    { method: "ALL", path: "/cdn/p/:projectSlug/r/latest/:file" },
    { method: "ALL", path: "/cdn/p/:projectSlug/r/:releaseSlug/:file" },
    { method: "GET", path: "/v1/releases" },
    { method: "GET", path: "/v1/releases/:release_id" },
    { method: "ALL", path: "/v1/*" },
    { method: "PUT", path: "/dashboard/api/projects/:pid/keys/:keyId/translations/:code" },
    { method: "GET", path: "/dashboard" },
    { method: "GET", path: "/dashboard/*" },
  ]);

  test("a path gets the pattern of the route that takes it: static before parameter, parameter before wildcard", () => {
    expect(labels.of("GET", "/cdn/p/AbCdEfGhIjKlMnOp/r/QrStUvWxYz012345/en.json")).toBe("/cdn/p/:projectSlug/r/:releaseSlug/:file");
    expect(labels.of("GET", "/cdn/p/AbCdEfGhIjKlMnOp/r/latest/pt-BR.arb")).toBe("/cdn/p/:projectSlug/r/latest/:file");
    expect(labels.of("POST", "/cdn/p/AbCdEfGhIjKlMnOp/r/latest/en.json")).toBe("/cdn/p/:projectSlug/r/latest/:file"); // the CDN answers every method
    expect(labels.of("GET", "/v1/releases")).toBe("/v1/releases");
    expect(labels.of("GET", "/v1/releases/anything-at-all")).toBe("/v1/releases/:release_id");
    expect(labels.of("GET", "/v1/releases/a/b")).toBe("/v1/*");
    expect(labels.of("DELETE", "/v1/releases")).toBe("/v1/*");
    expect(labels.of("PUT", "/dashboard/api/projects/prj_0123456789abcdefghij/keys/key_0123456789abcdefghij/translations/pt-BR")).toBe(
      "/dashboard/api/projects/:pid/keys/:keyId/translations/:code",
    );
    expect(labels.of("GET", "/dashboard/projects/prj_0123456789abcdefghij")).toBe("/dashboard/*");
    expect(labels.of("HEAD", "/dashboard")).toBe("/dashboard"); // HEAD is answered by GET routes
  });

  test("anything no route takes is `unmatched`: other methods, other paths, colons, escapes, length", () => {
    for (const [method, path] of [
      ["GET", "/"],
      ["GET", "/no/such/path"],
      ["GET", "/prj_0123456789abcdefghij/languages/xx:yy"],
      ["POST", "/dashboard/api/projects/prj_0123456789abcdefghij/keys/k/translations/de"],
      ["DELETE", "/dashboard/api/projects/x/keys/y/translations/z"], // only PUT is declared there
      ["PROPFIND", "/dashboard"],
      ["GET", "/%ZZ:%00"],
      ["GET", "/" + "a".repeat(5000)],
      ["GET", "/cdn/p/x"],
    ] as const) {
      expect(labels.of(method, path), `${method} ${path}`).toBe(UNMATCHED);
    }
  });

  test("the set of labels is the declared patterns and `unmatched`, nothing more", () => {
    for (let i = 0; i < 100; i++) labels.of("GET", `/random/${i}:${Math.random()}`);
    expect([...labels.labels].sort()).toEqual(
      [
        UNMATCHED,
        "/cdn/p/:projectSlug/r/latest/:file",
        "/cdn/p/:projectSlug/r/:releaseSlug/:file",
        "/v1/releases",
        "/v1/releases/:release_id",
        "/v1/*",
        "/dashboard/api/projects/:pid/keys/:keyId/translations/:code",
        "/dashboard",
        "/dashboard/*",
      ].sort(),
    );
  });
});
