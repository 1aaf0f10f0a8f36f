/**
 * The hot paths in-process, for instruction counts (docs/cdn.md "Speed"): `app.handle` answering
 * the same CDN file or cached API page N times, and a floor handler doing what the bare Bun.serve
 * of bench/lib/bare-server.ts does (read Accept-Encoding, one Map lookup, clone a ready Response).
 * Under callgrind (bench/hot-path.sh), the instructions counted between the `measure` marker files
 * over the number of requests is the cost of one request, the same whatever else the machine runs.
 * Modes: floor, cdn, cdn-log (request log on, its lines discarded), cdn-gzip, cdn-latest, api,
 * api-log (a cached page of GET /v1/releases), and the cache misses of bench/api.bench.sh on its
 * project of 10,000 published releases (bench/api/seed.ts; response cache off): api-miss (the
 * default page), api-miss-name (sort=name), api-miss-pages (every page of sort=name in turn),
 * api-miss-search (a new search each request), api-miss-invalid (page=0: the service's 400),
 * api-miss-routed (the default page through the router, which a repeated `sort` goes to).
 * Usage: bun bench/lib/hot-path.ts <mode> <requests> [marker prefix]
 *   with a marker prefix, it writes <prefix>.ready before the measured loop and waits for
 *   <prefix>.go, then writes <prefix>.done after it and waits for <prefix>.exit.
 */
import { ORIGIN, testApp, testDir } from "../../test/helpers/app.ts";

import { existsSync, rmSync, writeFileSync } from "node:fs";

const [mode = "cdn", countText = "1000", marker] = process.argv.slice(2);
const count = Number(countText);
const log = mode.endsWith("-log");
// Log lines are written by the app through process.stdout: keep them off the terminal.
if (log) process.stdout.write = (() => true) as typeof process.stdout.write;

const miss = mode.startsWith("api-miss");
const MISS_TARGETS: Record<string, (i: number) => string> = {
  "api-miss": () => "/v1/releases",
  "api-miss-name": () => "/v1/releases?sort=name",
  "api-miss-pages": (i) => `/v1/releases?sort=name&page=${(i % 500) + 1}`,
  "api-miss-search": (i) => `/v1/releases?search=${((i * 7) % 9973) + 1}`,
  "api-miss-invalid": () => "/v1/releases?page=0",
  // The default page again, through the router: a repeated sort is left to it (docs/public-api.md "Speed").
  "api-miss-routed": () => "/v1/releases?sort=created_at&sort=created_at",
};
if (miss) await missMode(MISS_TARGETS[mode]!);

const t = await testApp({ env: { PHRASEBOOK_LOG_REQUESTS: String(log), PHRASEBOOK_RATE_LIMIT: "10000000" } });
const admin = await t.login();
const pid = (await admin.post("/projects", { name: "Hot path", base_language_code: "en" })).body.id;
const content: Record<string, string> = {};
for (let i = 0; i < 60; i++) content[`screen.item_${i}`] = `Item ${i}: your order was shipped`;
await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: JSON.stringify(content) });
const draft = await admin.post(`/projects/${pid}/releases`, { name: "Hot", tag: "hot" });
const release = (await admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`)).body;
const pinned = release.languages[0].download_urls.json as string;
const token = (await admin.post(`/projects/${pid}/tokens`, { name: "hot" })).body.token as string;

const headers: Record<string, string> = { "accept-encoding": mode === "cdn-gzip" ? "gzip" : "identity", "user-agent": "wrk", host: "127.0.0.1:8080" };
let url = pinned;
if (mode === "cdn-latest") url = pinned.replace(`/r/${release.slug}/`, "/r/latest/");
if (mode.startsWith("api")) {
  url = `${ORIGIN}/v1/releases`;
  headers.authorization = `Bearer ${token}`;
}
const peer = () => "127.0.0.1";

// The floor: what bench/lib/bare-server.ts does for a request.
const ready = new Map([[new URL(url).pathname, await (await t.app.handle(new Request(url, { headers }), peer)).blob()]].map(([p, b]) => [p, new Response(b as Blob)]));
function floor(request: Request): Response {
  const u = request.url;
  const path = u.slice(u.indexOf("/", u.indexOf("//") + 2));
  request.headers.get("accept-encoding");
  return ready.get(path)!.clone();
}

// Warm: the first answers fill the caches; the JIT settles.
for (let i = 0; i < 30000; i++) {
  const request = new Request(url, { headers });
  const res = mode === "floor" ? floor(request) : await t.app.handle(request, peer);
  if (res.status !== 200) throw new Error(`${mode}: ${res.status}`);
}
async function handshake(mine: string, theirs: string): Promise<void> {
  if (marker === undefined) return;
  writeFileSync(`${marker}.${mine}`, "");
  while (!existsSync(`${marker}.${theirs}`)) await Bun.sleep(50);
}
await handshake("ready", "go");
// Requests are made as Bun.serve would hand them over: a new Request each time.
for (let i = 0; i < count; i++) {
  const request = new Request(url, { headers });
  if (mode === "floor") floor(request);
  else t.app.handle(request, peer);
}
await handshake("done", "exit");
await t.close();

/** A cache miss each request on bench/api.bench.sh's project (seeded by a child process, not counted). */
async function missMode(target: (i: number) => string): Promise<never> {
  const dataDir = testDir("phrasebook-hot-miss-");
  const seeded = Bun.spawnSync([process.execPath, "bench/api/seed.ts", dataDir, "10000"], { stderr: "inherit" });
  if (seeded.exitCode !== 0) throw new Error("seed failed");
  const token = seeded.stdout.toString().trim();
  const app = await testApp({ dataDir, env: { PHRASEBOOK_LOG_REQUESTS: "false", PHRASEBOOK_RATE_LIMIT: "10000000", PHRASEBOOK_API_CACHE_TTL: "0" } });
  const missHeaders = { authorization: `Bearer ${token}`, "user-agent": "wrk", host: "127.0.0.1:8080" };
  const expected = mode === "api-miss-invalid" ? 400 : 200;
  const peer = () => "127.0.0.1";
  for (let i = 0; i < 30000; i++) {
    const res = await app.app.handle(new Request(ORIGIN + target(i), { headers: missHeaders }), peer);
    if (res.status !== expected || res.headers.get("x-cache") === "hit") throw new Error(`${mode}: ${res.status}`);
  }
  await handshake("ready", "go");
  for (let i = 0; i < count; i++) await app.app.handle(new Request(ORIGIN + target(i), { headers: missHeaders }), peer);
  await handshake("done", "exit");
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
