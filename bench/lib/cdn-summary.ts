/**
 * Summarises bench/cdn.bench.sh results (TSV: scenario, server, round, requests/s, p99, server CPU
 * microseconds per request) as the Markdown section for bench/RESULTS.md (docs/cdn.md "Speed"):
 * every row as a ratio to the floor (a bare Bun.serve answering the same bytes) measured in the
 * same round, the median of those per-round ratios, with CPU per request beside it.
 * Usage: bun bench/lib/cdn-summary.ts <results.tsv> <round count> <duration s> <connections>
 */
import { readFileSync } from "node:fs";

const [file, rounds, duration, connections] = process.argv.slice(2);
if (!file) throw new Error("usage: cdn-summary.ts <results.tsv> <rounds> <duration> <connections>");

/** docs/cdn.md "Speed": a CDN hit of every size and encoding at >= 0.9x the floor. */
const GOAL = 0.9;
const LABELS: Record<string, string> = {
  "small-pinned": "~2 KB JSON, pinned",
  "small-latest": "~2 KB JSON, latest",
  "large-pinned": "~250 KB JSON, pinned",
  "large-latest": "~250 KB JSON, latest",
  "small-channel": "~2 KB JSON, channel",
  "large-channel": "~250 KB JSON, channel",
  "large-gzip": "~250 KB JSON gzip'd, pinned",
};
const SERVERS: Record<string, string> = {
  bare: "floor: bare Bun.serve",
  loaded: "floor with Phrasebook's program in memory",
  phrasebook: "phrasebook, request log off",
  "phrasebook-log": "phrasebook, request log on (default)",
  baseline: "baseline build, request log off",
  nginx: "nginx (sendfile, gzip_static)",
};

function ms(latency: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(latency.trim());
  if (!m) throw new Error(`unreadable latency ${latency}`);
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "s" ? n * 1000 : n;
}

function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

interface Row {
  rps: number;
  p99: number;
  cpuUs: number;
}
const data = new Map<string, Map<string, Map<number, Row>>>(); // scenario -> server -> round
for (const line of readFileSync(file, "utf8").trim().split("\n")) {
  const [scenario, server, round, rps, p99, cpuUs] = line.split("\t");
  if (!scenario || !server) continue;
  const byServer = data.get(scenario) ?? new Map();
  data.set(scenario, byServer);
  const byRound = byServer.get(server) ?? new Map();
  byServer.set(server, byRound);
  byRound.set(Number(round), { rps: Number(rps), p99: ms(p99!), cpuUs: Number(cpuUs) });
}

const fmt = (n: number, digits = 0) => (Number.isNaN(n) ? "-" : n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const out: string[] = [];
out.push("| file | server | req/s | **ratio to floor** | goal | p99 ms (floor's) | CPU µs/req | CPU ratio to floor | ratio to nginx |");
out.push("|---|---|---:|---:|---:|---:|---:|---:|---:|");
/** Per scenario: phrasebook's per-round ratios to the floor, for the latest-vs-pinned line. */
const ours = new Map<string, Map<number, number>>();
for (const [scenario, byServer] of data) {
  const floor = byServer.get("bare")!;
  const nginx = byServer.get("nginx");
  for (const server of Object.keys(SERVERS)) {
    const s = byServer.get(server);
    if (s === undefined) continue;
    // Per round against the floor (and nginx) of the same round; medians of those ratios.
    const perRound = (other: Map<number, Row> | undefined, f: (a: Row, b: Row) => number) =>
      median([...s.keys()].filter((r) => other?.has(r)).map((r) => f(s.get(r)!, other!.get(r)!)));
    const ratio = perRound(floor, (a, b) => a.rps / b.rps);
    const cpuRatio = perRound(floor, (a, b) => b.cpuUs / a.cpuUs);
    const toNginx = perRound(nginx, (a, b) => a.rps / b.rps);
    const med = (k: keyof Row) => median([...s.values()].map((x) => x[k]));
    const floorP99 = median([...floor.values()].map((x) => x.p99));
    if (server === "phrasebook") ours.set(scenario, new Map([...s.keys()].filter((r) => floor.has(r)).map((r) => [r, s.get(r)!.rps / floor.get(r)!.rps])));
    const goal = server === "phrasebook" || server === "phrasebook-log" ? `>= ${GOAL}x` : "";
    const verdict = server === "phrasebook" || server === "phrasebook-log" ? (ratio >= GOAL ? " (met)" : " (missed)") : "";
    const p99 = server === "bare" ? fmt(med("p99"), 1) : `${fmt(med("p99"), 1)} (${fmt(floorP99, 1)})`;
    out.push(
      `| ${LABELS[scenario] ?? scenario} | ${SERVERS[server]} | ${fmt(med("rps"))} | **${fmt(ratio, 2)}x**${verdict} | ${goal} | ${p99} | ${fmt(med("cpuUs"), 1)} | ${fmt(cpuRatio, 2)}x | ${server === "nginx" ? "1.00x" : `${fmt(toNginx, 2)}x`} |`,
    );
  }
}
const latestVsPinned = (size: string) => {
  const pinned = ours.get(`${size}-pinned`);
  const latest = ours.get(`${size}-latest`);
  if (!pinned || !latest) return NaN;
  return median([...latest.keys()].filter((r) => pinned.has(r)).map((r) => latest.get(r)! / pinned.get(r)!));
};
// The tail: what the program in memory costs (the loaded floor against the bare one) and what the
// request path costs (phrasebook against the loaded floor), docs/cdn.md "Speed".
if ([...data.values()].some((byServer) => byServer.has("loaded"))) {
  out.push("");
  out.push("| file | p99 ms: floor | floor with the program in memory | phrasebook, log off | phrasebook minus loaded floor |");
  out.push("|---|---:|---:|---:|---:|");
  for (const [scenario, byServer] of data) {
    const p99 = (server: string) => median([...(byServer.get(server)?.values() ?? [])].map((x) => x.p99));
    const [floor, loaded, ours] = [p99("bare"), p99("loaded"), p99("phrasebook")];
    out.push(`| ${LABELS[scenario] ?? scenario} | ${fmt(floor, 2)} | ${fmt(loaded, 2)} | ${fmt(ours, 2)} | ${ours - loaded >= 0 ? "+" : ""}${fmt(ours - loaded, 2)} |`);
  }
}
out.push("");
const [small, large] = [latestVsPinned("small"), latestVsPinned("large")];
if (!Number.isNaN(small) || !Number.isNaN(large)) {
  out.push(`\`latest\` against pinned (phrasebook's ratios to the floor, same round, median): ~2 KB ${fmt(small, 2)}x, ~250 KB ${fmt(large, 2)}x.`);
}
out.push(`${rounds} interleaved rounds of ${duration} s per server and file (the order of servers alternates), wrk -t1 -c${connections}, keep-alive.`);
out.push("Ratio to floor: requests/s over the floor's in the same round (median of rounds); CPU ratio to floor: the floor's CPU time per request over this server's, what the ratio would be on an otherwise idle core.");
console.log(out.join("\n"));
