/**
 * Metric labels come from a fixed set (docs/deploy.md "Monitoring", docs/decisions.md
 * "Operations"): the routes the app declares, and `unmatched`. A burst of made-up paths, of every
 * shape and method and without signing in, must not add a series to /metrics nor memory to the
 * process; earlier, each such path kept ~1.6 KB and ~19 lines of /metrics forever.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { testApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let cookie = "";
beforeAll(async () => {
  // Quota high enough that the made-up tokens never reach a 429: a new status is a new series by right.
  t = await testApp({ env: { PHRASEBOOK_RATE_LIMIT: "1000000" } });
  cookie = (await t.login()).cookie;
});
afterAll(async () => {
  await t?.close();
});

const MARK = "qz"; // every made-up part starts with it, so a leak into /metrics is easy to see
let n = 0;
const made = () => `${MARK}${(n++).toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const slug = () => (made() + "0000000000000000").slice(0, 16);

/** One request of each shape a scanner would send, with new made-up parts each time. */
function burst(size: number): Request[] {
  const shapes: (() => [string, string, Record<string, string>?])[] = [
    () => ["GET", `/${made()}`],
    () => ["GET", `/${made()}:${made()}/${made()}`],
    () => ["POST", `/${made()}/prj_${made()}`],
    () => ["PROPFIND", `/dashboard/${made()}`],
    () => ["GET", `/dashboard/api/projects/${made()}/languages/${made()}:x`, { cookie }],
    () => ["DELETE", `/dashboard/api/projects/prj_${made()}/keys/${made()}`, { cookie }],
    () => ["GET", `/dashboard/api/${made()}`],
    () => ["GET", `/v1/releases/${made()}`, { authorization: `Bearer pb_${made()}` }],
    () => ["PUT", `/v1/${made()}:${made()}`],
    () => ["GET", `/cdn/p/${slug()}/r/${slug()}/${made()}.json`],
    () => ["HEAD", `/cdn/p/${slug()}/r/latest/de.yaml`],
    () => ["OPTIONS", `/cdn/${made()}`],
    () => ["GET", `/%${made()}%ZZ/${"a".repeat(200)}`],
  ];
  return Array.from({ length: size }, (_, i) => {
    const [method, path, headers] = shapes[i % shapes.length]!();
    return new Request(`http://localhost:8080${path}`, { method, headers });
  });
}

async function send(requests: Request[]): Promise<void> {
  for (const request of requests) {
    const res = await t.app.handle(request, () => "198.51.100.7");
    expect(res.status, `${request.method} ${request.url}`).toBeLessThan(500);
    await res.arrayBuffer();
  }
}

async function metrics(): Promise<string> {
  const res = await t.fetch("/metrics");
  expect(res.status).toBe(200);
  return res.text();
}

/** Every series of the scrape (name and labels, without the value). */
const series = (text: string) =>
  text
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => l.slice(0, l.lastIndexOf(" ")));

/**
 * Plain objects and arrays alive after a full collection: what a metric series, a label and a
 * memo entry are made of. (Strings and the requests themselves are left out: the test's own
 * requests and their URLs linger for a collection or two and would only add noise.)
 */
function retainedObjects(): number {
  Bun.gc(true);
  const counts = heapStats().objectTypeCounts;
  return (counts.Object ?? 0) + (counts.Array ?? 0);
}

describe("deploy.md Monitoring: route labels from a fixed set", () => {
  test("deploy.md Monitoring: a burst of made-up paths adds no series, no label and no memory, and none of its parts appears in /metrics", async () => {
    await send(burst(1_000)); // every shape once at least: the labels they get now exist
    await metrics(); // a scrape is counted once answered: the next one shows its own series
    const first = await metrics();
    const objectsBefore = retainedObjects();
    for (let i = 0; i < 4; i++) await send(burst(2_000));
    const objectsAdded = retainedObjects() - objectsBefore;
    const later = await metrics();

    expect(series(later)).toEqual(series(first)); // only the counts moved
    expect(later).not.toContain(MARK);
    const labels = new Set([...later.matchAll(/route="([^"]*)"/g)].map((m) => m[1]!));
    const routesOf = (router: unknown) => (router as { routes: { path: string }[] }).routes.map((r) => r.path);
    const declared = new Set(["unmatched", ...routesOf(t.app.routes), ...routesOf(await t.app.dashboardApi())]);
    expect([...labels].filter((l) => !declared.has(l) && !l.startsWith("/cdn/p/:projectSlug/r/"))).toEqual([]);
    // Before, these 8,000 requests left ~9,000 objects behind (a label's cells and memo entries).
    expect(objectsAdded).toBeLessThan(500);
  }, 60_000);
});
