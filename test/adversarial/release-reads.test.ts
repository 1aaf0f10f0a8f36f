/**
 * Exports and diffs of a large release, asked by anyone who may read the project: an export read
 * the release's files and built the whole file (every language of an XLIFF, an `.xcstrings`) on the
 * server's thread in one synchronous call, and a diff of a draft took the whole project's snapshot
 * there too, so a few readers looping them held every other request, CDN files included, for as
 * long as each took, and each held its file in memory. Both now run on a worker thread, a few at
 * a time (RELEASE_READS_MAX; more waiting are a 429), docs/releases.md "Diff", docs/formats.md
 * "Export".
 *
 * No timed bound (the figures are in bench/RESULTS.md): on the server's thread each export held
 * every other request from its start to its end, so `/healthz` was answered only between them.
 * Now it keeps answering while they run.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { RELEASE_READS_MAX, RELEASE_READS_WAITING_MAX } from "../../src/releases/limits.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

let t: TestApp;
let admin: DashboardClient;
let member: DashboardClient;
let pid: string;
let rid: string;
let draft: string;
const KEYS = 10_000;

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Big", "en", ["de", "fr"]);
  for (const code of ["en", "de", "fr"]) {
    const content = JSON.stringify(Object.fromEntries(Array.from({ length: KEYS }, (_, i) => [`screen_${i % 50}.key_${i}`, `${code} value number ${i} with some words`])));
    const r = await admin.post(`/projects/${pid}/import`, { language_code: code, format: "json", content });
    expect(r.status).toBe(200);
  }
  rid = (await admin.post(`/projects/${pid}/releases`, { name: "Launch", tag: "v1" })).body.id;
  expect((await admin.post(`/projects/${pid}/releases/${rid}/publish`)).status).toBe(200);
  draft = (await admin.post(`/projects/${pid}/releases`, { name: "Next", tag: "v2" })).body.id;
  const reader = await admin.post("/users", { email: "reader@example.test", name: "Reader", password: "reader-password", role: "member" });
  // The least role that reads the project (docs/dashboard-api.md "Project roles").
  expect((await admin.put(`/projects/${pid}/members/${reader.body.id}`, { role: "viewer" })).status).toBe(200);
  member = await t.login("reader@example.test", "reader-password");
}, 300_000);
afterAll(() => t.close());

/** Four readers each asking `paths` in turn while `/healthz` is asked again as soon as it answers. */
async function healthzDuring(paths: string[]): Promise<{ statuses: number[]; healthz: number }> {
  let running = true;
  let healthz = 0;
  const statuses: number[] = [];
  const pinging = (async () => {
    while (running) {
      const r = await t.fetch("/healthz");
      expect(r.status).toBe(200);
      await r.arrayBuffer();
      healthz++;
      await Bun.sleep(2); // a client's pace, not a busy loop that would starve the other threads' answers
    }
  })();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (const path of paths) {
        const r = await member.get(path);
        statuses.push(r.status);
      }
    }),
  );
  running = false;
  await pinging;
  return { statuses, healthz };
}

test("four readers looping exports and diffs of a 10,000-key release: /healthz keeps answering while they run", async () => {
  const paths = [
    `/projects/${pid}/releases/${rid}/export?format=xliff`,
    `/projects/${pid}/releases/${rid}/export?format=xcstrings`,
    `/projects/${pid}/releases/${draft}/diff`,
  ];
  const { statuses, healthz } = await healthzDuring(paths);
  expect(statuses).toEqual(Array(12).fill(200));
  // On the server's thread, /healthz got in only between two of the 12 reads (and between the
  // languages a diff reads): a few dozen answers at most.
  expect(healthz).toBeGreaterThan(100);
}, 300_000);

test("an export's answer is the same file off the server's thread", async () => {
  const r = await member.request("GET", `/projects/${pid}/releases/${rid}/export?format=json&language=de`);
  expect(r.status).toBe(200);
  expect(Object.keys(r.body)).toHaveLength(KEYS);
  const missing = await member.get(`/projects/${pid}/releases/${rid}/export?format=json&language=xx`);
  expect(missing.status).toBe(400);
  expect(missing.body.error).toContain('invalid field "language"');
});

test("more reads at once than run and wait are refused with a 429, none with a 500", async () => {
  const n = RELEASE_READS_MAX + RELEASE_READS_WAITING_MAX + 8;
  const replies = await Promise.all(Array.from({ length: n }, () => member.get(`/projects/${pid}/releases/${rid}/export?format=xliff`)));
  const counts = new Map<number, number>();
  for (const r of replies) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  expect([...counts.keys()].sort()).toEqual([200, 429]);
  expect(counts.get(200)).toBeGreaterThanOrEqual(RELEASE_READS_MAX + RELEASE_READS_WAITING_MAX);
  expect(replies.find((r) => r.status === 429)!.body.error).toMatch(/^\d+ exports and diffs are already running or waiting; try again shortly$/);
}, 300_000);
