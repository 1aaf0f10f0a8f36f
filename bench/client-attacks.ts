/**
 * The client as a victim (docs/automation.md "What the client trusts", test/adversarial/client.test.ts):
 * each attack of the hardening review, run against the executable given (BENCH_BIN, default
 * dist/phrasebook; BENCH_BIN_BEFORE for the one before the change) with a hostile server on
 * loopback. Per attack: the exit code, the client's peak resident memory (VmHWM of
 * /proc/<pid>/status, read every 50 ms and at exit), its wall time (capped at BENCH_CAP_SECONDS,
 * 30, after which it is killed), and what the server sent.
 * Prints one Markdown row per attack and binary.
 *
 *   bun bench/client-attacks.ts
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CAP = Number(process.env.BENCH_CAP_SECONDS ?? 30);
const bins = [["before", process.env.BENCH_BIN_BEFORE], ["after", process.env.BENCH_BIN ?? "dist/phrasebook"]].filter((b): b is [string, string] => Boolean(b[1]));
const RELEASE = { id: `rel_${"A".repeat(20)}`, tag: "v1", name: "One" };
const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
let sent = 0;
let requests = 0;
let handler: (url: URL) => Response = () => json({});
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => (requests++, handler(new URL(req.url))) });
const origin = `http://127.0.0.1:${server.port}`;
const endless = (start: string) => {
  const chunk = new Uint8Array(256 * 1024).fill(0x20);
  let first = true;
  return new Response(new ReadableStream({ pull(c) { const b = first ? new TextEncoder().encode(start) : chunk; first = false; sent += b.byteLength; c.enqueue(b); } }), { headers: { "content-type": "application/json" } });
};
const release = (url: string) => (u: URL) =>
  u.pathname === "/v1/releases" ? json({ items: [RELEASE], page_info: { total_pages: 1 } })
  : u.pathname === `/v1/releases/${RELEASE.id}` ? json({ ...RELEASE, languages: [{ code: "de", download_urls: { json: url } }] })
  : endless('{"a": "');
const dashboard = (u: URL) =>
  u.pathname === "/dashboard/api/projects" ? json({ items: [{ id: "prj_x", name: "App", base_language_code: "en" }] })
  : u.pathname.endsWith("/languages") ? json({ items: [{ code: "en" }, { code: "de" }] })
  : json({ created_keys: 0, updated_keys: 0, unchanged: 0, deleted_keys: 0, problems: 0, changes: [] });

const repo = mkdtempSync(join(tmpdir(), "phrasebook-bench-client-"));
Bun.spawnSync(["git", "init", "-q", repo]);
writeFileSync(join(repo, "phrasebook.yaml"), "files:\n  - source: en.json\n    translations: out/{language}.json\n");
writeFileSync(join(repo, "secret.txt"), "");
const outside = mkdtempSync(join(tmpdir(), "phrasebook-bench-outside-"));
writeFileSync(join(outside, "secret.json"), '{"aws_secret": "hunter2"}');
symlinkSync(join(outside, "secret.json"), join(repo, "linked.json"));
symlinkSync("/dev/zero", join(repo, "zero.json"));
Bun.spawnSync(["mkfifo", join(repo, "fifo.json")]);
Bun.spawnSync(["truncate", "-s", "1G", join(repo, "huge.json")]);

const languages = JSON.stringify({ ...RELEASE, languages: Array.from({ length: 200_000 }, (_, i) => ({ code: `x${i}`, download_urls: { json: `${origin}/cdn/${i}.json` } })) });
const attacks: [string, (u: URL) => Response, string[]][] = [
  ["file: URL in download_urls", release(`file://${join(outside, "secret.json")}`), ["pull"]],
  ["endless download", release(`${origin}/cdn/de.json`), ["pull"]],
  ["endless /v1/releases", () => endless('{"items": ['), ["pull"]],
  ["--release TAG, 10^12 pages", (u) => json({ items: [{ ...RELEASE, tag: `x${u.searchParams.get("page")}` }], page_info: { total_pages: 1e12 } }), ["pull", "--release", "v9"]],
  ["200,000 languages", (u) => (u.pathname === `/v1/releases/${RELEASE.id}` ? new Response(languages, { headers: { "content-type": "application/json" } }) : u.pathname === "/v1/releases" ? json({ items: [RELEASE], page_info: { total_pages: 1 } }) : json({ a: "b" })), ["pull", "--out", "out/{language}.json"]],
  ["push of a symlink out of the repo", dashboard, ["push", "linked.json", "--language", "de"]],
  ["push of a symlink to /dev/zero", dashboard, ["push", "zero.json", "--language", "de"]],
  ["push of a FIFO", dashboard, ["push", "fifo.json", "--language", "de"]],
  ["push of a 1 GB file", dashboard, ["push", "huge.json", "--language", "de"]],
];

console.log("| attack | binary | exit | peak memory | time | server sent |\n|---|---|---|---|---|---|");
for (const [name, h, args] of attacks) {
  for (const [label, bin] of bins) {
    handler = h;
    sent = 0;
    requests = 0;
    rmSync(join(repo, "out"), { recursive: true, force: true });
    const started = performance.now();
    const proc = Bun.spawn([bin, ...args], { cwd: repo, env: { PATH: process.env.PATH ?? "", HOME: "/tmp", PHRASEBOOK_SERVER: origin, PHRASEBOOK_TOKEN: `pb_${"a".repeat(43)}` }, stdout: "ignore", stderr: "ignore" });
    let peakKb = 0;
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
      } catch {
        // exited
      }
    };
    const poll = setInterval(sample, 50);
    const timer = setTimeout(() => {
      sample();
      proc.kill("SIGKILL");
    }, CAP * 1000);
    const code = await proc.exited;
    clearInterval(poll);
    clearTimeout(timer);
    const seconds = (performance.now() - started) / 1000;
    const peak = `${Math.round(peakKb / 1024)} MB`;
    const exit = seconds >= CAP ? `killed at ${CAP} s` : String(code);
    console.log(`| ${name} | ${label} | ${exit} | ${peak} | ${seconds.toFixed(1)} s | ${(sent / 1024 / 1024).toFixed(0)} MB, ${requests} requests |`);
  }
}
server.stop(true);
rmSync(repo, { recursive: true, force: true });
rmSync(outside, { recursive: true, force: true });
