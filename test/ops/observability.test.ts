/**
 * The request log: one JSON line per request on the server's standard output (docs/deploy.md
 * "Monitoring"). Standard output is the process's, so this starts a server process; what
 * /metrics counts is checked in-process, in test/observability/requests.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startServer } from "../helpers/server.ts";
import { eventually } from "../helpers/wait.ts";

function requestLines(output: string): any[] {
  return output
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l))
    .filter((l) => l.msg === "request");
}

/** Waits for the batched request log to show at least `count` lines (it is flushed every 200 ms). */
function waitForLines(output: () => string, count: number): Promise<any[]> {
  return eventually(
    () => {
      const lines = requestLines(output());
      return lines.length >= count && lines;
    },
    { intervalMs: 50, what: () => `${requestLines(output()).length} of ${count} request lines` },
  );
}

describe("the request log", () => {
  test("one JSON line per request with route patterns and the client address, never slugs, tokens, cookies or passwords", async () => {
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
      expect((await fetch(`${server.url}/v1/releases`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200); // a cache hit
      expect((await fetch(`${server.url}/v1/releases`, { headers: { authorization: "Bearer pb_wrong" } })).status).toBe(401);
      expect((await fetch(`${server.url}/no/such/path/${"x".repeat(50)}`)).status).toBe(404);
      // login, project, key, translation, release, publish, 3 files, token, 3 API calls, 1 unknown path
      const sent = 14;
      const lines = await waitForLines(server.output, sent);
      expect(lines).toHaveLength(sent);
      for (const line of lines) {
        expect(Object.keys(line).sort()).toEqual(["client", "duration_ms", "level", "method", "msg", "route", "status", "time"]);
        expect(line.duration_ms).toBeNumber();
      }
      const seen = lines.map((l) => `${l.method} ${l.route} ${l.status}`);
      expect(seen.filter((s) => s === "GET /cdn/p/:projectSlug/r/:releaseSlug/:file 200")).toHaveLength(2);
      expect(seen).toContain("GET /cdn/p/:projectSlug/r/:releaseSlug/:file 404");
      expect(seen.filter((s) => s === "GET /v1/releases 200")).toHaveLength(2); // the fast path logs too
      expect(seen).toContain("GET /v1/releases 401");
      expect(seen).toContain("GET unmatched 404");
      expect(seen).toContain("POST /dashboard/api/projects/:pid/releases/:rid/publish 200"); // the declared route pattern (deploy.md Monitoring)
      const slug = new URL(url).pathname.split("/")[3]!;
      const all = server.output();
      for (const secret of [slug, token, admin.cookie.split("=")[1]!, admin.csrf, "correct horse battery", "x".repeat(50)]) expect(all).not.toContain(secret);
      expect(lines.every((l) => l.client === "127.0.0.1")).toBe(true);
    } finally {
      await server.stop();
    }
  }, 30_000);

  test("PHRASEBOOK_LOG_REQUESTS=false: no request lines", async () => {
    const server = await startServer({ env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${server.url}/no/such/path`)).status).toBe(404);
      await Bun.sleep(400); // longer than the log's flush interval
      expect(server.output()).toContain('"msg":"listening"'); // the log itself is on
      expect(requestLines(server.output())).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});
