/**
 * Soak benchmark driver (docs/deploy.md "Security notes", "Sizing"): a mixed load for DURATION
 * seconds against the compiled executable, sampled every SAMPLE seconds. It is a benchmark, not a
 * test: it prints a Markdown section (the script appends it to bench/RESULTS.md) and exits 0, with
 * a verdict line on the goals: zero 5xx, and RSS and open file descriptors flat after warm-up (no
 * growth over the last half of the run beyond 5%).
 *
 * The load, open-loop (requests go out on schedule whether or not earlier ones came back, so a
 * slow server shows up as latency, not as less load), per second:
 * - CDN_RATE file requests: `latest` and pinned files of every language and format, a mix of
 *   plain, gzip and brotli, a quarter of them revalidations with If-None-Match;
 * - API_RATE public API requests spread over TOKENS tokens: release lists with varied pages,
 *   sorts and searches, one release, the project, its languages;
 * - EDIT_RATE dashboard edits (translations set, now and then a key created), and a key list read
 *   for every two edits, by two signed-in users;
 * - a publish every PUBLISH_EVERY seconds;
 * - NOT_FOUND_RATE random paths of every shape (colons, ids, slugs, long, percent-escapes);
 * - a /metrics scrape every 15 s, as Prometheus would.
 * Every translation change and publish is delivered by the server to a local HTTPS webhook
 * receiver (signed, over TLS, through the address guard with 127.0.0.1 allowed).
 */
import { readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { DashboardClient } from "../../test/helpers/dashboard-client.ts";
import { startReceiver, testCa } from "../../test/helpers/https-receiver.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, freePort, tempDir } from "../../test/helpers/server.ts";

const BIN = process.env.BIN!;
const SERVER_CPU = process.env.SERVER_CPU ?? "0";
const DURATION = Number(process.env.DURATION ?? 600);
const SAMPLE = Number(process.env.SAMPLE ?? 30);
const CDN_RATE = Number(process.env.CDN_RATE ?? 200);
const API_RATE = Number(process.env.API_RATE ?? 60);
const EDIT_RATE = Number(process.env.EDIT_RATE ?? 8);
const NOT_FOUND_RATE = Number(process.env.NOT_FOUND_RATE ?? 20);
const PUBLISH_EVERY = Number(process.env.PUBLISH_EVERY ?? 30);
const TOKENS = Number(process.env.TOKENS ?? 50);
const KEYS = Number(process.env.KEYS ?? 2000);
const LANGUAGES = ["en", "de", "fr", "pt-BR", "ja"];
/** In-flight requests per kind past which a due request is counted as skipped instead of sent. */
const MAX_IN_FLIGHT = 256;

type Kind = "cdn" | "api" | "edit" | "read" | "publish" | "404" | "metrics";
const KINDS: Kind[] = ["cdn", "api", "edit", "read", "publish", "404", "metrics"];

interface Window {
  latencies: Record<Kind, number[]>;
  count: Record<Kind, number>;
  status5xx: number;
  status4xxUnexpected: number;
  networkErrors: number;
  skipped: number;
  errorsSeen: string[];
}

const newWindow = (): Window => ({
  latencies: Object.fromEntries(KINDS.map((k) => [k, []])) as unknown as Record<Kind, number[]>,
  count: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>,
  status5xx: 0,
  status4xxUnexpected: 0,
  networkErrors: 0,
  skipped: 0,
  errorsSeen: [],
});

let window = newWindow();
const inFlight: Record<Kind, number> = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;

/** Runs one request of a kind, timing it and sorting its outcome into the window. */
async function measured(kind: Kind, run: () => Promise<Response | { status: number }>, expected4xx = false): Promise<void> {
  if (inFlight[kind] >= MAX_IN_FLIGHT) {
    window.skipped++;
    return;
  }
  inFlight[kind]++;
  const started = performance.now();
  let w = window;
  try {
    const res = await run();
    if (res instanceof Response) await res.arrayBuffer();
    w = window; // counted in the window it finished in
    w.latencies[kind].push(performance.now() - started);
    w.count[kind]++;
    if (res.status >= 500) {
      w.status5xx++;
      if (w.errorsSeen.length < 5) w.errorsSeen.push(`${kind} ${res.status}`);
    } else if (res.status >= 400 && res.status !== 404 && res.status !== 304 && !expected4xx) {
      w.status4xxUnexpected++;
      if (w.errorsSeen.length < 5) w.errorsSeen.push(`${kind} ${res.status}`);
    }
  } catch (err) {
    w = window;
    w.networkErrors++;
    if (w.errorsSeen.length < 5) w.errorsSeen.push(`${kind} ${String(err).slice(0, 80)}`);
  } finally {
    inFlight[kind]--;
  }
}

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

// --- the server and what it talks to ---------------------------------------------------------

let deliveries = 0;
const receiver = await startReceiver({
  handler: () => {
    deliveries++;
    return new Response("ok");
  },
});

const dataDir = tempDir("phrasebook-soak-");
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = Bun.spawn(["taskset", "-c", SERVER_CPU, BIN, "serve"], {
  env: {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    PHRASEBOOK_HOST: "127.0.0.1",
    PHRASEBOOK_PORT: String(port),
    PHRASEBOOK_DATA_DIR: dataDir,
    PHRASEBOOK_PUBLIC_URL: url,
    PHRASEBOOK_ADMIN_EMAIL: ADMIN_EMAIL,
    PHRASEBOOK_ADMIN_PASSWORD: ADMIN_PASSWORD,
    PHRASEBOOK_WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
    PHRASEBOOK_WEBHOOK_RETRY_DELAYS: "1,2,4,8",
    NODE_EXTRA_CA_CERTS: testCa().caFile,
  },
  // Request logging stays on, as in production; its lines are read and dropped.
  stdout: "ignore",
  stderr: "inherit",
});
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${url}/healthz`)).ok) break;
  } catch {
    // not up yet
  }
  if (i > 200) throw new Error("server did not start");
  await Bun.sleep(50);
}

/** Resident memory, and open descriptors: sockets (they come and go with the load) and the rest. */
function usage(): { rssMb: number; fds: number; sockets: number } {
  const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  let fds = 0;
  let sockets = 0;
  for (const fd of readdirSync(`/proc/${server.pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${server.pid}/fd/${fd}`).startsWith("socket:")) sockets++;
      else fds++;
    } catch {
      // closed while we looked
    }
  }
  return { rssMb: rssKb / 1024, fds, sockets };
}

// --- the content -------------------------------------------------------------------------------

const admin = await DashboardClient.loggedIn(url);
const pid = await admin.project("Soak", "en", LANGUAGES.slice(1));
for (const code of LANGUAGES) {
  const content = JSON.stringify(Object.fromEntries(Array.from({ length: KEYS }, (_, i) => [`screen_${i % 40}.item_${i}`, `${code} text ${i} with {count} items`])));
  const r = await admin.post(`/projects/${pid}/import`, { language_code: code, format: "json", content });
  if (r.status !== 200) throw new Error(`import failed: ${r.status} ${JSON.stringify(r.body)}`);
}
await admin.post("/users", { email: "editor@example.test", name: "Editor", password: "editor-password", role: "member" });
const editors = [admin, await DashboardClient.loggedIn(url, "editor@example.test", "editor-password")];
const keyIds: string[] = [];
for (let page = 1; keyIds.length < KEYS; page++) {
  const list = await admin.get(`/projects/${pid}/keys?page=${page}&page_size=500`);
  keyIds.push(...list.body.items.map((k: { id: string }) => k.id));
  if (list.body.items.length === 0) break;
}
const tokens: string[] = [];
for (let i = 0; i < TOKENS; i++) tokens.push((await admin.post(`/projects/${pid}/tokens`, { name: `app ${i}` })).body.token);
await admin.post(`/projects/${pid}/webhooks`, {
  url: receiver.url(),
  events: ["translation_created", "translation_updated", "key_created", "release_published"],
  secret: "soak-secret",
});

let publishes = 0;
const fileUrls: string[] = [];
const etags = new Map<string, string>();
async function publish(): Promise<{ status: number }> {
  const draft = await admin.post(`/projects/${pid}/releases`, { name: `Soak ${publishes}`, tag: `soak-${publishes}-${Date.now()}` });
  if (draft.status !== 201) return draft;
  const done = await admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`);
  if (done.status === 200) {
    publishes++;
    const pinned = done.body.languages.flatMap((l: { download_urls: Record<string, string> }) => Object.values(l.download_urls));
    const latest = pinned.map((u: string) => u.replace(/\/r\/[^/]+\//, "/r/latest/"));
    // Apps fetch `latest` mostly, and the pinned files of the last few releases.
    fileUrls.splice(0, fileUrls.length, ...latest, ...latest, ...pinned, ...fileUrls.filter((u) => !u.includes("/r/latest/")).slice(0, pinned.length * 3));
  }
  return done;
}
await publish();
const releaseIds = () => ((lastReleaseList?.items ?? []) as { id: string }[]).map((r) => r.id);
let lastReleaseList: { items: unknown[] } | undefined;

// --- the load ------------------------------------------------------------------------------------

function cdnRequest(): Promise<void> {
  const fileUrl = pick(fileUrls);
  const headers: Record<string, string> = { "accept-encoding": pick(["gzip, deflate, br", "gzip", "identity", "br"]) };
  const etag = etags.get(fileUrl);
  if (etag && Math.random() < 0.25) headers["if-none-match"] = etag;
  return measured("cdn", async () => {
    const res = await fetch(fileUrl, { headers, decompress: false } as RequestInit);
    const tag = res.headers.get("etag");
    if (tag && headers["accept-encoding"] === "identity") etags.set(fileUrl, tag);
    return res;
  });
}

function apiRequest(): Promise<void> {
  const token = pick(tokens);
  const path = pick([
    `/v1/releases`,
    `/v1/releases?page=${1 + Math.floor(Math.random() * 3)}&page_size=${pick([5, 10, 20, 50])}`,
    `/v1/releases?sort=${pick(["name", "tag", "published_at"])}&order=${pick(["asc", "desc"])}`,
    `/v1/releases?search=${pick(["soak", "Soak 1", "soak-2", "nothing"])}`,
    `/v1/projects`,
    `/v1/project-languages`,
    ...(releaseIds().length ? [`/v1/releases/${pick(releaseIds())}`] : []),
  ]);
  // 429s are the quota doing its job with many requests on one token; they are not errors.
  return measured(
    "api",
    async () => {
      const res = await fetch(url + path, { headers: { authorization: `Bearer ${token}` } });
      if (path === "/v1/releases" && res.status === 200) lastReleaseList = (await res.clone().json()) as { items: unknown[] };
      return res;
    },
    true,
  );
}

let edits = 0;
function editRequest(): Promise<void> {
  const editor = pick(editors);
  edits++;
  if (edits % 20 === 0) return measured("edit", () => editor.post(`/projects/${pid}/keys`, { key: `soak.new.${edits}.${Math.random().toString(36).slice(2, 8)}` }));
  return measured("edit", () => editor.put(`/projects/${pid}/keys/${pick(keyIds)}/translations/${pick(LANGUAGES)}`, { value: `edited ${edits} at ${Date.now()} {count}` }));
}

function readRequest(): Promise<void> {
  const search = pick(["", "item_1", "screen_3", "edited", "text 42"]);
  return measured("read", () => pick(editors).get(`/projects/${pid}/keys?page=${1 + Math.floor(Math.random() * 5)}&page_size=50&search=${encodeURIComponent(search)}`));
}

const randomPart = () => Math.random().toString(36).slice(2, 10);
function notFoundRequest(): Promise<void> {
  const path = pick([
    () => `/${randomPart()}:${randomPart()}`,
    () => `/dashboard/api/${randomPart()}:${randomPart()}`,
    () => `/dashboard/api/projects/${randomPart()}/keys`,
    () => `/v1/${randomPart()}:${randomPart()}`,
    () => `/cdn/p/${randomPart()}/r/${randomPart()}/${randomPart()}.json`,
    () => `/cdn/p/${randomPart()}:x/r/latest/en.json`,
    () => `/${"a".repeat(200)}${randomPart()}`,
    () => `/%${randomPart()}%ZZ`,
    () => `/wp-login.php?${randomPart()}=1`,
  ])();
  return measured("404", () => fetch(url + path, { method: pick(["GET", "GET", "POST", "HEAD"]) }), true);
}

let metricsLines = 0;
function metricsRequest(): Promise<void> {
  return measured("metrics", async () => {
    const res = await fetch(`${url}/metrics`);
    const text = await res.clone().text();
    metricsLines = text.split("\n").length;
    return res;
  });
}

/** Open-loop schedule: each kind accrues credit at its rate on a 10 ms tick and spends it. */
const schedule: [Kind, number, () => Promise<void>][] = [
  ["cdn", CDN_RATE, cdnRequest],
  ["api", API_RATE, apiRequest],
  ["edit", EDIT_RATE, editRequest],
  ["read", EDIT_RATE / 2, readRequest],
  ["404", NOT_FOUND_RATE, notFoundRequest],
  ["metrics", 1 / 15, metricsRequest],
  ["publish", 1 / PUBLISH_EVERY, () => measured("publish", publish)],
];
const credit = new Map<Kind, number>(schedule.map(([k]) => [k, 0]));

interface Sample {
  at: number;
  rssMb: number;
  fds: number;
  sockets: number;
  requests: number;
  p99: Record<Kind, number>;
  status5xx: number;
  unexpected4xx: number;
  networkErrors: number;
  skipped: number;
  deliveries: number;
  metricsLines: number;
  errorsSeen: string[];
}

const samples: Sample[] = [];
const started = performance.now();
let lastTick = started;
let nextSample = started + SAMPLE * 1000;
let deliveriesBefore = 0;
const initial = usage();
console.error(`soak: ${DURATION} s against ${BIN}; start RSS ${initial.rssMb.toFixed(1)} MB, ${initial.fds} fds, ${initial.sockets} sockets`);

// Until the last sample is taken, at DURATION.
while (samples.length < Math.round(DURATION / SAMPLE)) {
  const now = performance.now();
  const dt = (now - lastTick) / 1000;
  lastTick = now;
  for (const [kind, rate, run] of schedule) {
    let c = credit.get(kind)! + rate * dt;
    while (c >= 1) {
      c -= 1;
      void run();
    }
    credit.set(kind, c);
  }
  if (now >= nextSample) {
    nextSample += SAMPLE * 1000;
    const w = window;
    window = newWindow();
    const u = usage();
    const sample: Sample = {
      at: Math.round((now - started) / 1000),
      rssMb: u.rssMb,
      fds: u.fds,
      sockets: u.sockets,
      requests: KINDS.reduce((n, k) => n + w.count[k], 0),
      p99: Object.fromEntries(KINDS.map((k) => [k, percentile(w.latencies[k], 99)])) as Record<Kind, number>,
      status5xx: w.status5xx,
      unexpected4xx: w.status4xxUnexpected,
      networkErrors: w.networkErrors,
      skipped: w.skipped,
      deliveries: deliveries - deliveriesBefore,
      metricsLines,
      errorsSeen: w.errorsSeen,
    };
    deliveriesBefore = deliveries;
    receiver.requests.length = 0; // the receiver keeps every request; the count is enough here
    samples.push(sample);
    console.error(
      `${sample.at}s rss ${sample.rssMb.toFixed(1)} MB fds ${sample.fds} sockets ${sample.sockets} publishes ${publishes} req ${sample.requests} p99 cdn ${sample.p99.cdn.toFixed(1)} api ${sample.p99.api.toFixed(1)} edit ${sample.p99.edit.toFixed(1)} publish ${sample.p99.publish.toFixed(0)} ms; 5xx ${sample.status5xx} 4xx? ${sample.unexpected4xx} net ${sample.networkErrors} skipped ${sample.skipped}; deliveries ${sample.deliveries}; metrics lines ${sample.metricsLines} ${sample.errorsSeen.join(", ")}`,
    );
  }
  await Bun.sleep(10);
}

await Bun.sleep(2000); // let the last requests finish
server.kill("SIGTERM");
const exitCode = await server.exited;
await receiver.stop();
rmSync(dataDir, { recursive: true, force: true });

// --- the report ----------------------------------------------------------------------------------

// Growth over the last half: the floor (lowest sample) of the last 150 s against the floor of the
// 150 s before the half-way mark. A leak raises the floor; a sample taken mid-GC, mid-publish or
// while many requests are in flight (each holds a socket) raises a peak and does not decide.
const FLOOR_SECONDS = 150;
const within = (end: number) => samples.filter((s) => s.at > end - FLOOR_SECONDS && s.at <= end);
const baseSamples = within(DURATION / 2);
const endSamples = within(samples.at(-1)?.at ?? DURATION);
const floor = (xs: number[]) => Math.min(...xs);
const growth = (f: (s: Sample) => number) => floor(endSamples.map(f)) / floor(baseSamples.map(f)) - 1;
const rssGrowth = growth((s) => s.rssMb);
const fdGrowth = growth((s) => s.fds);
const socketGrowth = growth((s) => s.sockets);
const total5xx = samples.reduce((n, s) => n + s.status5xx, 0);
const totalNet = samples.reduce((n, s) => n + s.networkErrors, 0);
const total4xx = samples.reduce((n, s) => n + s.unexpected4xx, 0);
const totalRequests = samples.reduce((n, s) => n + s.requests, 0);
const ok = total5xx === 0 && totalNet === 0 && rssGrowth <= 0.05 && fdGrowth <= 0.05 && socketGrowth <= 0.05;
const pct = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`;
const cpus = (await Bun.$`nproc --all`.text()).trim();
const load = (await Bun.$`cat /proc/loadavg`.text()).split(" ").slice(0, 3).join(" ");

console.log(`## Soak: ${DURATION / 60} minutes of mixed load (${new Date().toISOString().slice(0, 10)})

Command: \`bash bench/soak.bench.sh\` (DURATION=${DURATION} s, SAMPLE=${SAMPLE} s). The executable \`${BIN.replace(process.cwd() + "/", "")}\`
pinned to CPU ${SERVER_CPU}, the driver (bench/soak/driver.ts) and the HTTPS webhook receiver on the other (${cpus} CPUs, shared with
other work; load average at the end ${load}). Open-loop load per second: ${CDN_RATE} CDN file requests (latest and pinned, plain,
gzip and brotli, a quarter revalidating), ${API_RATE} public API requests over ${TOKENS} tokens, ${EDIT_RATE} dashboard edits and
${EDIT_RATE / 2} key-list reads by two users, ${NOT_FOUND_RATE} random unknown paths, a /metrics scrape every 15 s and a publish every
${PUBLISH_EVERY} s of ${LANGUAGES.length} languages x ${KEYS} keys; every translation change and publish is delivered as a signed webhook to
the local receiver. Request logging on (as in production). Each row is the ${SAMPLE} s before it: p99 in ms per kind of request.

| at s | RSS MB | fds (files) | sockets | requests | CDN p99 | API p99 | edit p99 | read p99 | publish p99 | 404 p99 | 5xx | unexpected 4xx | network errors | webhooks delivered | /metrics lines |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${samples
  .map(
    (s) =>
      `| ${s.at} | ${s.rssMb.toFixed(1)} | ${s.fds} | ${s.sockets} | ${s.requests} | ${s.p99.cdn.toFixed(1)} | ${s.p99.api.toFixed(1)} | ${s.p99.edit.toFixed(1)} | ${s.p99.read.toFixed(1)} | ${s.p99.publish.toFixed(0)} | ${s.p99["404"].toFixed(1)} | ${s.status5xx} | ${s.unexpected4xx} | ${s.networkErrors} | ${s.deliveries} | ${s.metricsLines} |`,
  )
  .join("\n")}

Start: RSS ${initial.rssMb.toFixed(1)} MB, ${initial.fds} file descriptors and ${initial.sockets} sockets (before the content was made); ${publishes} publishes. ${totalRequests} requests, ${total5xx} 5xx,
${totalNet} network errors, ${total4xx} unexpected 4xx; the server exited with ${exitCode} on SIGTERM.
Over the last half: RSS ${pct(rssGrowth)}, file descriptors ${pct(fdGrowth)}, sockets ${pct(socketGrowth)} (the lowest sample of the
last ${FLOOR_SECONDS} s against the lowest of the ${FLOOR_SECONDS} s before ${DURATION / 2} s: a leak raises the floor, while sockets also follow
the requests in flight and RSS the garbage collector).
Goals (zero 5xx; RSS and fds within 5% over the last half): **${ok ? "met" : "not met"}**.
`);
process.exit(0);
