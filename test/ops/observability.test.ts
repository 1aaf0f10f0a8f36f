import { describe, expect, test } from "bun:test";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startServer } from "../helpers/server.ts";

function requestLines(output: string): any[] {
  return output
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l))
    .filter((l) => l.msg === "request");
}

describe("issue 7: observability", () => {
  test("one JSON line per request with route patterns, never slugs, tokens, cookies or passwords; /metrics counts them", async () => {
    const server = await startServer();
    try {
      const admin = await DashboardClient.loggedIn(server.url);
      const pid = await admin.project("Observed", "en");
      await admin.key(pid, "hello", { en: "Hello" });
      const rel = await admin.post(`/projects/${pid}/releases`, { name: "R", tag: "r1" });
      const published = await admin.post(`/projects/${pid}/releases/${rel.body.id}/publish`);
      const url: string = published.body.languages[0].download_urls.json;
      expect((await fetch(url)).status).toBe(200);
      expect((await fetch(url)).status).toBe(200);
      expect((await fetch(url.replace("/en.json", "/xx.json"))).status).toBe(404);
      const token = (await admin.post(`/projects/${pid}/tokens`, { name: "t" })).body.token;
      expect((await fetch(`${server.url}/v1/releases`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      expect((await fetch(`${server.url}/v1/releases`, { headers: { authorization: "Bearer pb_wrong" } })).status).toBe(401);
      expect((await fetch(`${server.url}/no/such/path/${"x".repeat(50)}`)).status).toBe(404);

      const metrics = await fetch(`${server.url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
      const text = await metrics.text();
      expect(text).toContain('phrasebook_http_requests_total{method="GET",route="/cdn/p/:projectSlug/r/:releaseSlug/:file",status="200"} 2');
      expect(text).toContain('phrasebook_http_requests_total{method="GET",route="/v1/releases",status="401"} 1');
      expect(text).toContain('phrasebook_http_requests_total{method="GET",route="unmatched",status="404"} 1');
      expect(text).toMatch(/phrasebook_cdn_cache_total\{result="hit"\} [1-9]/);
      expect(text).toMatch(/phrasebook_cdn_cache_total\{result="miss"\} [1-9]/);
      expect(text).toMatch(/phrasebook_cdn_bytes_total [1-9]/);
      expect(text).toContain("phrasebook_http_request_duration_seconds_bucket");
      expect(text).toContain("phrasebook_outbox_pending");

      await Bun.sleep(400); // the request log is flushed in batches
      const lines = requestLines(server.output());
      expect(lines.length).toBeGreaterThanOrEqual(10);
      for (const line of lines) {
        expect(Object.keys(line).sort()).toEqual(["client", "duration_ms", "level", "method", "msg", "route", "status", "time"]);
      }
      const slug = new URL(url).pathname.split("/")[3]!;
      const all = server.output();
      for (const secret of [slug, token, admin.cookie.split("=")[1]!, admin.csrf, "correct horse battery"]) expect(all).not.toContain(secret);
      expect(lines.some((l) => l.route === "/dashboard/api/projects/:id/releases/:id/publish" && l.status === 200)).toBe(true);
      expect(lines.every((l) => l.client === "127.0.0.1")).toBe(true);
    } finally {
      await server.stop();
    }
  }, 30_000);

  test("both can be turned off", async () => {
    const server = await startServer({ env: { PHRASEBOOK_METRICS: "false", PHRASEBOOK_LOG_REQUESTS: "false" } });
    try {
      const r = await fetch(`${server.url}/metrics`);
      expect(r.status).toBe(404);
      expect((await r.json()).error).toContain("PHRASEBOOK_METRICS");
      await fetch(`${server.url}/healthz`);
      await Bun.sleep(400);
      expect(requestLines(server.output())).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});
