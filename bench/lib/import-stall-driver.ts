/**
 * Driver of bench/import-stall.bench.sh (docs/publishing.md §6 "Not holding up other requests",
 * docs/deploy.md "Security notes"): the compiled executable as the server, pinned to
 * BENCH_SERVER_CPU, and this process as the clients and probes. One JSON line per scenario:
 *
 * - `loop:<file>`: four clients (two on a signed-in session, two on a `write` token, as the attack
 *   used) import the file back to back for BENCH_SECONDS while a CDN
 *   file, a public API list (computed every time) and /healthz are each asked every BENCH_PROBE_MS;
 *   each answer timed. Files: a 125 KB YAML of 100 aliases of one mapping (the attack: refused at
 *   the entry limit once expanded), a plain 125 KB YAML of 1,700 keys (taken), and a 10 MB JSON
 *   file (the largest the limits take).
 * - `bodies`: 24 parallel 16 MB import bodies from a `read` token; the server's resident memory
 *   before and its peak (VmHWM) after, from /proc/<pid>/status, and the slowest reply.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../test/helpers/server.ts";

const BIN = process.env.PHRASEBOOK_BIN!;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const PROBE_MS = Number(process.env.BENCH_PROBE_MS ?? 5);
const SERVER_CPU = process.env.BENCH_SERVER_CPU ?? "0";
const SCENARIOS = (process.env.BENCH_SCENARIOS ?? "alias-yaml,plain-yaml,json-10mb,bodies").split(",");
const ADMIN = { email: "bench@example.test", password: "bench-password" };

const hasTaskset = Bun.spawnSync(["sh", "-c", "command -v taskset"]).exitCode === 0;
const pinned = (cpu: string, command: string[]) => (hasTaskset ? ["taskset", "-c", cpu, ...command] : command);

const dataDir = mkdtempSync(join(tmpdir(), "phrasebook-bench-stall-"));
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const server = Bun.spawn(pinned(SERVER_CPU, [BIN, "serve"]), {
  env: {
    PATH: process.env.PATH ?? "",
    PHRASEBOOK_HOST: "127.0.0.1",
    PHRASEBOOK_PORT: String(port),
    PHRASEBOOK_DATA_DIR: dataDir,
    PHRASEBOOK_PUBLIC_URL: origin,
    PHRASEBOOK_ADMIN_EMAIL: ADMIN.email,
    PHRASEBOOK_ADMIN_PASSWORD: ADMIN.password,
    PHRASEBOOK_LOG_REQUESTS: "false",
    PHRASEBOOK_API_CACHE_TTL: "0",
    PHRASEBOOK_RATE_LIMIT: "10000000",
  },
  stdout: "ignore",
  stderr: "ignore",
});
process.on("exit", () => {
  server.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${origin}/healthz`)).ok) break;
  } catch {
    // not listening yet
  }
  if (i > 200) throw new Error("server did not start");
  await Bun.sleep(50);
}

let cookie = "";
let csrf = "";
async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${origin}/dashboard/api${path}`, {
    method,
    headers: { "content-type": "application/json", cookie, "x-csrf-token": csrf },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  if (res.headers.get("set-cookie")) cookie = res.headers.get("set-cookie")!.split(";")[0]!;
  return text ? JSON.parse(text) : null;
}
csrf = (await api("POST", "/login", ADMIN)).csrf_token;
const project = await api("POST", "/projects", { name: "Stall", base_language_code: "en" });
const pid = project.id as string;
await api("POST", `/projects/${pid}/import`, { language_code: "en", format: "json", content: '{"existing.key": "Existing"}' });
const release = await api("POST", `/projects/${pid}/releases`, { name: "Launch", tag: "v1" });
const published = await api("POST", `/projects/${pid}/releases/${release.id}/publish`);
const cdnUrl: string = published.languages[0].download_urls.json.replace(/\/r\/[^/]+\//, "/r/latest/");
const writeToken: string = (await api("POST", `/projects/${pid}/tokens`, { name: "CI", scopes: ["write"] })).token;
const readToken: string = (await api("POST", `/projects/${pid}/tokens`, { name: "app", scopes: ["read"] })).token;
const apiUrl = `${origin}/v1/releases?project_id=${pid}`;

function aliasYaml(): string {
  const anchor = Array.from({ length: 1650 }, (_, i) => `  key_${String(i).padStart(5, "0")}: "A value of the anchored map, number ${i}, xxxxxxxxxxxxxxxx"`);
  return ["base: &base", ...anchor, ...Array.from({ length: 100 }, (_, i) => `copy_${i}: *base`)].join("\n") + "\n";
}
function plainYaml(): string {
  return Array.from({ length: 1700 }, (_, i) => `screen_${i % 40}.key_${String(i).padStart(5, "0")}: "Plain value number ${i} of the file, {count} items, xxxxx"`).join("\n") + "\n";
}
function bigJson(): string {
  const entries: string[] = [];
  let size = 2;
  for (let i = 0; size < 9.9 * 1024 * 1024; i++) {
    const e = `"bulk.section_${i % 100}.key_${i}":"Value number ${i} with {count} items and some more text to fill"`;
    entries.push(e);
    size += e.length + 1;
  }
  return `{${entries.join(",")}}`;
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! * 10) / 10;
};
const summary = (xs: number[]) => ({ n: xs.length, p50: pct(xs, 50), p99: pct(xs, 99), max: pct(xs, 100) });

async function probeLoop(url: string, headers: Record<string, string>, until: () => boolean, out: number[], failures: { n: number }) {
  while (!until()) {
    const started = performance.now();
    try {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (!res.ok) failures.n++;
    } catch {
      failures.n++;
    }
    out.push(performance.now() - started);
    await Bun.sleep(PROBE_MS);
  }
}

async function loop(name: string, format: string, content: string) {
  const body = JSON.stringify({ language_code: "en", format, content });
  const deadline = performance.now() + SECONDS * 1000;
  const stop = () => performance.now() >= deadline;
  const importMs: number[] = [];
  const statuses: Record<string, number> = {};
  const clients = Array.from({ length: 4 }, async (_, i) => {
    const headers: Record<string, string> = i % 2 ? { authorization: `Bearer ${writeToken}` } : { cookie, "x-csrf-token": csrf };
    while (!stop()) {
      const started = performance.now();
      const res = await fetch(`${origin}/dashboard/api/projects/${pid}/import`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body });
      await res.arrayBuffer();
      importMs.push(performance.now() - started);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  });
  let importsDone = false;
  const cdn: number[] = [];
  const apiList: number[] = [];
  const health: number[] = [];
  const failures = { n: 0 };
  const until = () => importsDone;
  const probes = [probeLoop(cdnUrl, {}, until, cdn, failures), probeLoop(apiUrl, { authorization: `Bearer ${readToken}` }, until, apiList, failures), probeLoop(`${origin}/healthz`, {}, until, health, failures)];
  await Promise.all(clients);
  importsDone = true;
  await Promise.all(probes);
  console.log(JSON.stringify({ scenario: `loop:${name}`, file_kb: Math.round(content.length / 1024), seconds: SECONDS, imports: summary(importMs), statuses, cdn: summary(cdn), api: summary(apiList), healthz: summary(health), failures: failures.n }));
}

function memoryMb(): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)![1]);
  return { rss: Math.round(kb("VmRSS") / 1024), peak: Math.round(kb("VmHWM") / 1024) };
}

async function bodies() {
  const before = memoryMb();
  const body = new Uint8Array(16 * 1024 * 1024).fill(0x20);
  const started = performance.now();
  const replies = await Promise.all(
    Array.from({ length: 24 }, async () => {
      const t0 = performance.now();
      try {
        const res = await fetch(`${origin}/dashboard/api/projects/${pid}/import`, { method: "POST", headers: { authorization: `Bearer ${readToken}`, "content-type": "application/json" }, body });
        await res.arrayBuffer();
        return { status: String(res.status), ms: performance.now() - t0 };
      } catch {
        return { status: "cut off", ms: performance.now() - t0 };
      }
    }),
  );
  const after = memoryMb();
  const statuses: Record<string, number> = {};
  for (const r of replies) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  console.log(JSON.stringify({ scenario: "bodies", parallel: 24, mb_each: 16, rss_before_mb: before.rss, peak_after_mb: after.peak, slowest_reply_ms: Math.round(Math.max(...replies.map((r) => r.ms))), all_ms: Math.round(performance.now() - started), statuses }));
}

/** A .stringsdict entry of 50,000 plural forms (1.7 MB). */
function stringsdictForms(): string {
  const forms = Array.from({ length: 50_000 }, (_, i) => `<key>f${i}</key><string>x</string>`).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict><key>k</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string>${forms}<key>other</key><string>y</string></dict></dict></dict>\n</plist>\n`;
}

/** A PO entry of 100,000 msgstr forms under a three-form header (2 MB). */
function poForms(): string {
  const header = `msgid ""\nmsgstr ""\n"Language: ru\\n"\n"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n`;
  return header + `msgid "a"\nmsgid_plural "as"\n` + Array.from({ length: 100_000 }, (_, i) => `msgstr[${i}] "x"`).join("\n") + "\n";
}

for (const s of SCENARIOS) {
  if (s === "bodies") await bodies();
  else if (s === "alias-yaml") await loop("alias-yaml", "yaml", aliasYaml());
  else if (s === "plain-yaml") await loop("plain-yaml", "yaml", plainYaml());
  else if (s === "json-10mb") await loop("json-10mb", "json", bigJson());
  // Hostile native files (test/adversarial/hostile-imports.test.ts): each refused after seconds of parsing.
  else if (s === "strings-open-10mb") await loop("strings-open-10mb", "strings", `"a" = "` + "x".repeat(10 * 1024 * 1024 - 64));
  else if (s === "stringsdict-forms") await loop("stringsdict-forms", "stringsdict", stringsdictForms());
  else if (s === "po-forms") await loop("po-forms", "po", poForms());
}
process.exit(0);
