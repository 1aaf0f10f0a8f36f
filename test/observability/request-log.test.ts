/**
 * The request log and the metrics under load (docs/deploy.md "Monitoring", docs/cdn.md "Speed"):
 * the hot paths count and log in batches, so this checks that batching changes no number. With
 * the request log on (the default), a burst of parallel requests on every path (CDN hits in each
 * encoding and 304s, API cache hits, unknown paths) gives exactly one line per request, and /metrics
 * moves by exactly as many; lines still in the buffer when the server is told to stop are written
 * before it exits. Standard output is the process's, so this starts a server process.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startServer, type TestServer } from "../helpers/server.ts";
import { eventually } from "../helpers/wait.ts";

let server: TestServer;
let fileUrl = "";
let etag = "";
let token = "";

beforeAll(async () => {
  server = await startServer();
  const admin = await DashboardClient.loggedIn(server.url);
  const pid = await admin.project("Logged", "en");
  await admin.key(pid, "hello", { en: "Hello" });
  const rel = await admin.post(`/projects/${pid}/releases`, { name: "R", tag: "r1" });
  fileUrl = (await admin.post(`/projects/${pid}/releases/${rel.body.id}/publish`)).body.languages[0].download_urls.json;
  etag = (await fetch(fileUrl)).headers.get("etag")!;
  token = (await admin.post(`/projects/${pid}/tokens`, { name: "t" })).body.token;
  expect((await fetch(`${server.url}/v1/releases`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200); // fills the API cache
}, 30_000);
afterAll(async () => {
  await server?.stop();
});

function requestLines(): { method: string; route: string; status: number }[] {
  return server
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{") && l.includes('"msg":"request"'))
    .map((l) => JSON.parse(l));
}

const key = (method: string, route: string, status: number) => `${method} ${route} ${status}`;
const CDN = "/cdn/p/:projectSlug/r/:releaseSlug/:file";

/** How many lines, and how many /metrics requests, per method, route and status. */
function tally(lines: { method: string; route: string; status: number }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const l of lines) out.set(key(l.method, l.route, l.status), (out.get(key(l.method, l.route, l.status)) ?? 0) + 1);
  return out;
}

async function counted(): Promise<Map<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^phrasebook_http_requests_total\{method="([^"]+)",route="([^"]+)",status="(\d+)"\} (\d+)$/gm)) {
    out.set(key(m[1]!, m[2]!, Number(m[3])), Number(m[4]));
  }
  return out;
}

/** The burst: `rounds` times one request of each kind, 64 at a time. */
async function burst(rounds: number): Promise<Map<string, number>> {
  const kinds: [string, () => Promise<Response>][] = [
    [key("GET", CDN, 200), () => fetch(fileUrl, { headers: { "accept-encoding": "identity" } })],
    [key("GET", CDN, 200), () => fetch(fileUrl, { headers: { "accept-encoding": "gzip" }, decompress: false } as RequestInit)],
    [key("GET", CDN, 304), () => fetch(fileUrl, { headers: { "if-none-match": etag } })],
    [key("HEAD", CDN, 200), () => fetch(fileUrl, { method: "HEAD" })],
    [key("GET", "/v1/releases", 200), () => fetch(`${server.url}/v1/releases`, { headers: { authorization: `Bearer ${token}` } })],
    [key("GET", "unmatched", 404), () => fetch(`${server.url}/no/such/${Math.random()}`)],
  ];
  const expected = new Map<string, number>();
  const jobs: (() => Promise<void>)[] = [];
  for (let i = 0; i < rounds; i++) {
    for (const [k, send] of kinds) {
      expected.set(k, (expected.get(k) ?? 0) + 1);
      jobs.push(async () => {
        const res = await send();
        await res.arrayBuffer();
        expect(key(k.split(" ")[0]!, k.split(" ")[1]!, res.status)).toBe(k);
      });
    }
  }
  for (let i = 0; i < jobs.length; i += 64) await Promise.all(jobs.slice(i, i + 64).map((job) => job()));
  return expected;
}

async function linesAfter(before: number, count: number): Promise<{ method: string; route: string; status: number }[]> {
  await eventually(() => requestLines().length >= before + count, { intervalMs: 50, what: () => `${requestLines().length - before} of ${count} request lines` });
  await Bun.sleep(300); // longer than the flush interval: a line too many would show now
  return requestLines().slice(before);
}

describe("deploy.md Monitoring: batching changes no count", () => {
  test("deploy.md Monitoring: 3,000 parallel requests on the fast paths and the router give exactly 3,000 log lines and move /metrics by exactly as many", async () => {
    await linesAfter(0, 0);
    const before = requestLines().length;
    const metricsBefore = await counted(); // this scrape is counted once answered: one line, one count
    const expected = await burst(500);
    const lines = await linesAfter(before, 3_001);
    const metricsAfter = await counted();

    expect(lines).toHaveLength(3_001);
    const logged = tally(lines);
    expect(logged.get(key("GET", "/metrics", 200))).toBe(1);
    logged.delete(key("GET", "/metrics", 200));
    expect(Object.fromEntries(logged)).toEqual(Object.fromEntries(expected));
    const moved = new Map([...metricsAfter].map(([k, v]) => [k, v - (metricsBefore.get(k) ?? 0)] as const).filter(([, v]) => v !== 0));
    expect(moved.get(key("GET", "/metrics", 200))).toBe(1);
    moved.delete(key("GET", "/metrics", 200));
    expect(Object.fromEntries(moved)).toEqual(Object.fromEntries(expected));
  }, 60_000);

  test("deploy.md Monitoring: a line from the fast path has the fields log.info writes, in its order, with their values", async () => {
    await linesAfter(0, 0);
    const before = server.output().split("\n").length;
    const sent = Date.now();
    for (const [method, headers] of [["GET", { "if-none-match": etag }], ["HEAD", {}], ["GET", {}]] as const) {
      await (await fetch(fileUrl, { method, headers })).arrayBuffer();
    }
    await linesAfter(0, 0);
    const raw = server.output().split("\n").slice(before - 1).filter((l) => l.includes('"msg":"request"') && l.includes(CDN));
    expect(raw).toHaveLength(3);
    const lines = raw.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(["time", "level", "msg", "method", "route", "status", "duration_ms", "client"]);
      expect(new Date(line.time as string).toISOString()).toBe(line.time as string);
      expect(Date.parse(line.time as string)).toBeGreaterThanOrEqual(sent - 1);
      expect(line.level).toBe("info");
      expect(line.route).toBe(CDN);
      expect(typeof line.duration_ms).toBe("number");
      expect(line.duration_ms as number).toBeGreaterThanOrEqual(0);
      expect(line.client).toBe("127.0.0.1");
    }
    expect(lines.map((l) => `${l.method} ${l.status}`)).toEqual(["GET 304", "HEAD 200", "GET 200"]);
  }, 30_000);

  test("deploy.md Monitoring: lines still in the buffer when the server is told to stop are written before it exits", async () => {
    await linesAfter(0, 0); // the last scrape's line is written
    const before = requestLines().length;
    const expected = await burst(20); // 120 lines, fewer than a batch: they wait for the timer
    await server.stop();
    // The last chunks of its output may still be on their way through the pipe.
    const total = [...expected.values()].reduce((a, b) => a + b, 0);
    await eventually(() => requestLines().length - before >= total, { what: () => `${requestLines().length - before} of ${total} lines after the stop` });
    const lines = requestLines().slice(before);
    expect(Object.fromEntries(tally(lines))).toEqual(Object.fromEntries(expected));
  }, 30_000);
});
