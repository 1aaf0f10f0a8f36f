/**
 * GET /metrics counts what the app answers (docs/deploy.md "Monitoring"), against the app
 * in-process: every answer goes through the same `handle` the server calls, CDN and API fast
 * paths included. The request log lines on stdout are checked with a server process, in
 * test/ops/observability.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

let t: TestApp;
let admin: DashboardClient;

beforeAll(async () => {
  t = await testApp({ webhooks: true }); // the webhook sender reports its backlog
  admin = await t.login();
});
afterAll(async () => {
  await t?.close();
});

async function metrics(): Promise<string> {
  const res = await t.fetch("/metrics");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
  expect(res.headers.get("cache-control")).toBe("no-store");
  return res.text();
}

/** The value of one series, 0 when it has not counted anything yet. */
function value(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe("/metrics counts every answer by route pattern and status", () => {
  test("CDN files, API answers, dashboard calls and unknown paths are counted under their route patterns, never slugs or ids", async () => {
    const pid = await admin.project("Observed", "en");
    await admin.key(pid, "hello", { en: "Hello" });
    const rel = await admin.post(`/projects/${pid}/releases`, { name: "R", tag: "r1" });
    const published = await admin.post(`/projects/${pid}/releases/${rel.body.id}/publish`);
    expect(published.status).toBe(200);
    const url: string = published.body.languages[0].download_urls.json;
    const token = (await admin.post(`/projects/${pid}/tokens`, { name: "t" })).body.token;

    const before = await metrics();
    const file = await t.fetch(url);
    expect(file.status).toBe(200);
    const size = (await file.arrayBuffer()).byteLength;
    expect((await t.fetch(url)).status).toBe(200);
    expect((await t.fetch(url.replace("/en.json", "/xx.json"))).status).toBe(404);
    expect((await t.fetch(url, { method: "HEAD" })).status).toBe(200);
    const auth = { authorization: `Bearer ${token}` };
    expect((await t.fetch("/v1/releases", { headers: auth })).status).toBe(200);
    expect((await t.fetch("/v1/releases", { headers: auth })).status).toBe(200); // a cache hit, answered before the framework
    expect((await t.fetch(`/v1/releases/${rel.body.id}`, { headers: auth })).status).toBe(200);
    expect((await t.fetch("/v1/releases", { headers: { authorization: "Bearer pb_wrong" } })).status).toBe(401);
    expect((await t.fetch(`/no/such/path/${"x".repeat(50)}`)).status).toBe(404);
    const text = await metrics();

    const delta = (series: string) => value(text, series) - value(before, series);
    const requests = (method: string, route: string, status: number) => delta(`phrasebook_http_requests_total{method="${method}",route="${route}",status="${status}"}`);
    expect(requests("GET", "/cdn/p/:projectSlug/r/:releaseSlug/:file", 200)).toBe(2);
    expect(requests("HEAD", "/cdn/p/:projectSlug/r/:releaseSlug/:file", 200)).toBe(1);
    expect(requests("GET", "/cdn/p/:projectSlug/r/:releaseSlug/:file", 404)).toBe(1);
    expect(requests("GET", "/v1/releases", 200)).toBe(2);
    expect(requests("GET", "/v1/releases/:release_id", 200)).toBe(1);
    expect(requests("GET", "/v1/releases", 401)).toBe(1);
    expect(requests("GET", "unmatched", 404)).toBe(1);
    expect(value(text, 'phrasebook_http_requests_total{method="POST",route="/dashboard/api/projects/:pid/releases/:rid/publish",status="200"}')).toBe(1);
    expect(value(text, 'phrasebook_http_requests_total{method="PUT",route="/dashboard/api/projects/:pid/keys/:keyId/translations/:code",status="200"}')).toBe(1);
    // The CDN cache: the first GET misses and fills it, the second GET and the HEAD hit, the unknown language misses.
    expect(delta('phrasebook_cdn_cache_total{result="miss"}')).toBe(2);
    expect(delta('phrasebook_cdn_cache_total{result="hit"}')).toBe(2);
    expect(delta("phrasebook_cdn_bytes_total")).toBe(2 * size); // bodies sent; HEAD sends none
    expect(value(text, "phrasebook_cdn_cache_files")).toBeGreaterThanOrEqual(1);
    expect(value(text, 'phrasebook_http_request_duration_seconds_count{route="/v1/releases"}') - value(before, 'phrasebook_http_request_duration_seconds_count{route="/v1/releases"}')).toBe(3);
    expect(text).toContain('phrasebook_http_request_duration_seconds_bucket{route="/cdn/p/:projectSlug/r/:releaseSlug/:file",le="+Inf"}');
    expect(text).toMatch(/^phrasebook_outbox_pending \d+$/m);
    // Route labels name patterns: no slug, id or token reaches the metrics.
    const [projectSlug, releaseSlug] = new URL(url).pathname.split("/").filter((s) => s.length === 16);
    for (const secret of [projectSlug!, releaseSlug!, token, pid, rel.body.id, "x".repeat(50)]) expect(text).not.toContain(secret);
  });

  test("PHRASEBOOK_METRICS=false: /metrics is a 404 that names the setting", async () => {
    const off = await testApp({ env: { PHRASEBOOK_METRICS: "false" } });
    try {
      const r = await off.fetch("/metrics");
      expect(r.status).toBe(404);
      expect((await r.json()).error).toContain("PHRASEBOOK_METRICS");
    } finally {
      await off.close();
    }
  });
});
