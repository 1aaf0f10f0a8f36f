/**
 * 404 paths whose label kept a `:` once became new metric labels forever, without signing in: each random path added about 1.6 KB of memory and 19 lines to `/metrics`.
 * Metric labels must come from a fixed set (docs/decisions.md "Operations": routes are labelled
 * by pattern, never by slug or id; unknown paths are one label). Random paths of every shape and
 * status are sent in two waves; the second wave, with new random parts, may add nothing, and no
 * random part may show up in `/metrics`.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let cookie = "";
beforeAll(async () => {
  t = await testApp();
  cookie = (await t.login()).cookie;
});
afterAll(() => t.close());

const MARK = "zq"; // every random part starts with it, so a leak into a label is easy to find
const random = () => MARK + Math.random().toString(36).slice(2, 10);
const randomId = (kind: string) => `${kind}_${(MARK + Math.random().toString(36).slice(2) + "00000000000000000000").slice(0, 20)}`;

/** One request of each shape a scanner would send, with fresh random parts. */
function wave(): { method: string; path: string; headers?: Record<string, string> }[] {
  const shapes: (() => { method: string; path: string; headers?: Record<string, string> })[] = [
    () => ({ method: "GET", path: `/${random()}:${random()}` }),
    () => ({ method: "GET", path: `/${random()}/${random()}:x/${random()}` }),
    () => ({ method: "GET", path: `/dashboard/api/${random()}:${random()}` }),
    () => ({ method: "GET", path: `/dashboard/api/projects/${random()}/keys` }), // 401 without a session
    () => ({ method: "GET", path: `/dashboard/api/projects/${random()}:x/keys`, headers: { cookie } }), // 404
    () => ({ method: "GET", path: `/dashboard/api/projects/${randomId("prj")}`, headers: { cookie } }), // 404
    () => ({ method: "DELETE", path: `/dashboard/api/${random()}` }),
    () => ({ method: "POST", path: `/v1/${random()}:${random()}` }),
    () => ({ method: "GET", path: `/v1/releases/${random()}:${random()}` }), // 401 without a token
    () => ({ method: "GET", path: `/v1/${random()}`, headers: { authorization: `Bearer pb_${random()}` } }),
    () => ({ method: "GET", path: `/cdn/p/${random()}/r/${random()}/${random()}.json` }),
    () => ({ method: "GET", path: `/cdn/p/${random()}:x/r/latest/${random()}:y.json` }),
    () => ({ method: "GET", path: `/cdn/${random()}` }),
    () => ({ method: "GET", path: `/dashboard/${random()}:${random()}` }),
    () => ({ method: "PATCH", path: `/${random()}` }),
    () => ({ method: "GET", path: `/${"a".repeat(300)}${random()}` }),
    () => ({ method: "GET", path: `/%${random()}:%ZZ` }),
  ];
  return Array.from({ length: 200 }, (_, i) => shapes[i % shapes.length]!());
}

async function send(requests: ReturnType<typeof wave>): Promise<void> {
  for (const r of requests) {
    const res = await t.fetch(r.path, { method: r.method, headers: r.headers });
    expect(res.status, `${r.method} ${r.path}`).toBeLessThan(500);
    await res.arrayBuffer();
  }
}

async function metrics(): Promise<string> {
  const res = await t.fetch("/metrics");
  expect(res.status).toBe(200);
  return res.text();
}

const routeLabels = (text: string) => new Set([...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]!));

test("decisions.md Operations, metric labels: random paths of every shape add no metric label after the first wave, and none of their random parts appears (decisions.md Operations)", async () => {
  await send(wave());
  await metrics(); // a scrape is counted once answered: the next one shows /metrics's own series
  const first = await metrics();
  await send(wave());
  await send(wave());
  const later = await metrics();
  expect(later.includes(MARK), [...routeLabels(later)].filter((l) => l.includes(MARK)).join("\n")).toBe(false);
  expect([...routeLabels(later)].filter((l) => !routeLabels(first).has(l))).toEqual([]);
  // The same series, only their counts moved.
  const seriesOf = (text: string) => text.split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.slice(0, l.lastIndexOf(" ")));
  expect(seriesOf(later).length).toBe(seriesOf(first).length);
});
