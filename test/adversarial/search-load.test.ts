/**
 * Searches and counts of the key grid once ran on the server's thread, as many as callers sent: at
 * 100,000 keys x 50 languages a viewer's four loops of `/key-counts?search=with` took a CDN
 * file's median from 3 ms to 2 s. They now run on a small pool of worker threads with read-only
 * connections of their own, a caller's one at a time, and a caller holds at most
 * KEY_READS_PER_CALLER_MAX places (running or waiting), past which a 429 with Retry-After
 * (docs/dashboard.md "Speed"). The CDN's figure while four viewers loop the heaviest search at
 * full size is bench/search-load.bench.sh's (bench/RESULTS.md "Searches at size"); here the rule
 * is held by counting and by order, on a project large enough that one search takes a while
 * (40,000 values, every one holding the term).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { KEY_READS_PER_CALLER_MAX } from "../../src/authoring/limits.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

let t: TestApp;
let admin: DashboardClient;
let pid: string;
let latestUrl: string;
const viewers: DashboardClient[] = [];
/** The heaviest search there is: a term every value holds, counted in one language. */
let heavy: string;

/** Yields to the event loop (a worker's answer is one of its tasks), then goes on at once. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Big", "en", ["de"]);
  for (const [i, code] of ["en", "de"].entries()) {
    const content = JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, k) => [`screen${k % 50}.item_${k}`, `Value ${k} of language ${i}, a sentence of several words to search through`])));
    expect((await admin.post(`/projects/${pid}/import`, { language_code: code, format: "json", content })).status).toBe(200);
  }
  heavy = `/projects/${pid}/key-counts?language=de&search=${encodeURIComponent("several words")}`;
  const small = await admin.project("Small", "en");
  await admin.key(small, "hello", { en: "Hello" });
  const release = await admin.post(`/projects/${small}/releases`, { name: "One", tag: "v1" });
  const published = await admin.post(`/projects/${small}/releases/${release.body.id}/publish`);
  latestUrl = published.body.languages[0].download_urls.json.replace(/\/r\/[^/]+\//, "/r/latest/");
  for (let i = 0; i < 6; i++) {
    const email = `viewer${i}@example.test`;
    const user = await admin.post("/users", { email, name: `Viewer ${i}`, password: "viewer-password", role: "member" });
    expect((await admin.put(`/projects/${pid}/members/${user.body.id}`, { role: "viewer" })).status).toBe(200);
    viewers.push(await t.login(email, "viewer-password"));
  }
  // Once, so the pool's threads are there.
  expect((await viewers[0]!.get(heavy)).body.total).toBe(20_000);
}, 120_000);
afterAll(() => t.close());

describe("dashboard.md Speed: one caller's searches cannot hold the server or another caller", () => {
  test("while one search runs, the CDN keeps answering: it runs off the server's thread", async () => {
    let done = false;
    const search = viewers[0]!.get(heavy).finally(() => (done = true));
    let during = 0;
    while (!done) {
      const res = await t.fetch(latestUrl);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      if (!done) during++;
      await turn();
    }
    expect((await search).body.total).toBe(20_000);
    // On the server's thread the search, once begun, held every other answer until it ended.
    expect(during).toBeGreaterThanOrEqual(20);
  });

  test(`a viewer sending 10 searches at once gets ${KEY_READS_PER_CALLER_MAX} of them; the rest are 429 with Retry-After; another viewer's search is answered`, async () => {
    const burst = await Promise.all(Array.from({ length: 10 }, () => viewers[1]!.get(heavy)));
    const answered = burst.filter((r) => r.status === 200);
    const refused = burst.filter((r) => r.status === 429);
    expect(answered).toHaveLength(KEY_READS_PER_CALLER_MAX);
    expect(refused).toHaveLength(10 - KEY_READS_PER_CALLER_MAX);
    for (const r of refused) {
      expect(r.headers.get("retry-after")).toBe("1");
      expect(r.body.error).toBe(`you already have ${KEY_READS_PER_CALLER_MAX} searches running or waiting; wait for one to finish`);
    }
    expect((await viewers[2]!.get(heavy)).status).toBe(200);
  });

  test("a caller runs one search at a time: another caller's search, sent after four of the first's, is answered before the first's last", async () => {
    const order: string[] = [];
    const first = Array.from({ length: 4 }, (_, i) => viewers[3]!.get(heavy).then((r) => (order.push(`first ${i}`), r.status)));
    const second = viewers[4]!.get(heavy).then((r) => (order.push("second"), r.status));
    expect(await Promise.all([...first, second])).toEqual([200, 200, 200, 200, 200]);
    expect(order.indexOf("second")).toBeLessThan(order.indexOf("first 3"));
  });

  test("four viewers looping the heaviest search: the CDN answers all along, not only between searches", async () => {
    let searchesDone = 0;
    let running = 0;
    // CDN answers per stretch between two searches ending: on the server's thread they came only
    // in the gaps between searches; off it, they keep coming while the searches run.
    const between: number[] = [0];
    const loops = viewers.slice(0, 4).map(async (viewer) => {
      for (let round = 0; round < 2; round++) {
        running++;
        const r = await viewer.get(heavy);
        running--;
        expect(r.status).toBe(200);
        searchesDone++;
        between.push(0);
      }
    });
    let finished = false;
    const all = Promise.all(loops).finally(() => (finished = true));
    while (!finished) {
      const before = searchesDone;
      const wasRunning = running > 0;
      const res = await t.fetch(latestUrl);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      if (wasRunning && running > 0 && searchesDone === before) between[before]!++;
      await turn();
    }
    await all;
    expect(Math.max(...between), `CDN answers between search ends: ${between.join(", ")}`).toBeGreaterThanOrEqual(20);
  });
});
