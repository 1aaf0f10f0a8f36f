/**
 * Summarises bench/cdn.bench.sh results (TSV: scenario, server, round, requests/s, p99, server CPU
 * microseconds per request) as the
 * Markdown section for bench/RESULTS.md: medians per server and the median of per-round ratios.
 * Usage: bun bench/lib/cdn-summary.ts <results.tsv> <round count> <duration s> <connections>
 */
import { readFileSync } from "node:fs";

const [file, rounds, duration, connections] = process.argv.slice(2);
if (!file) throw new Error("usage: cdn-summary.ts <results.tsv> <rounds> <duration> <connections>");

/** The goals of docs/cdn.md "Speed", as minimum throughput ratios against nginx. */
const GOALS: Record<string, number> = { "small-pinned": 1.2, "small-latest": 1.2, "large-pinned": 1.0, "large-latest": 1.0, "large-gzip": 1.0 };
const LABELS: Record<string, string> = {
  "small-pinned": "~2 KB, pinned",
  "small-latest": "~2 KB, latest",
  "large-pinned": "~200 KB, pinned",
  "large-latest": "~200 KB, latest",
  "large-gzip": "~200 KB gzip'd, pinned (nginx gzip_static)",
};

function ms(latency: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(latency.trim());
  if (!m) throw new Error(`unreadable latency ${latency}`);
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "s" ? n * 1000 : n;
}

function median(xs: number[]): number {
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

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const out: string[] = [];
const hasBaseline = [...data.values()].some((byServer) => byServer.has("baseline"));
out.push(
  `| bundle | phrasebook req/s | nginx req/s | ratio to nginx (median of rounds) | goal | p99 phrasebook / nginx | CPU µs/req phrasebook / nginx | CPU ratio (nginx / ours) | bare Bun.serve: ratio, CPU ratio |${hasBaseline ? " ours / baseline: req/s, CPU, p99 ms |" : ""}`,
);
out.push(`|---|---:|---:|---:|---:|---:|---:|---:|---:|${hasBaseline ? "---:|" : ""}`);
const medians = new Map<string, number>();
for (const [scenario, byServer] of data) {
  const pb = byServer.get("phrasebook")!;
  const ng = byServer.get("nginx")!;
  const bare = byServer.get("bare");
  const rounds = [...pb.keys()].filter((r) => ng.has(r));
  const ratioOf = (s: Map<number, Row>, f: (a: Row, b: Row) => number) => median(rounds.filter((r) => s.has(r)).map((r) => f(s.get(r)!, ng.get(r)!)));
  const ratio = ratioOf(pb, (a, b) => a.rps / b.rps);
  const cpuRatio = ratioOf(pb, (a, b) => b.cpuUs / a.cpuUs);
  const pbRps = median([...pb.values()].map((x) => x.rps));
  medians.set(scenario, pbRps);
  const goal = GOALS[scenario] ?? 1;
  const med = (s: Map<number, Row>, k: keyof Row) => median([...s.values()].map((x) => x[k]));
  const bareCell = bare ? `${fmt(ratioOf(bare, (a, b) => a.rps / b.rps), 2)}x, ${fmt(ratioOf(bare, (a, b) => b.cpuUs / a.cpuUs), 2)}x` : "";
  // Ours against the baseline build, per round (same rounds as the rest), medians.
  const base = byServer.get("baseline");
  const vsBase = (f: (ours: Row, theirs: Row) => number) => median(rounds.filter((r) => base?.has(r)).map((r) => f(pb.get(r)!, base!.get(r)!)));
  const baseCell = base
    ? ` ${fmt(vsBase((a, b) => a.rps / b.rps), 2)}x, ${fmt(vsBase((a, b) => b.cpuUs / a.cpuUs), 2)}x, ${fmt(med(pb, "p99"), 1)} / ${fmt(med(base, "p99"), 1)} |`
    : "";
  out.push(
    `| ${LABELS[scenario] ?? scenario} | ${fmt(pbRps)} | ${fmt(med(ng, "rps"))} | **${fmt(ratio, 2)}x** ${ratio >= goal ? "(met)" : "(missed)"} | >= ${fmt(goal, 1)}x | ${fmt(med(pb, "p99"), 1)} / ${fmt(med(ng, "p99"), 1)} ms | ${fmt(med(pb, "cpuUs"), 1)} / ${fmt(med(ng, "cpuUs"), 1)} | ${fmt(cpuRatio, 2)}x | ${bareCell} |${baseCell}`,
  );
}
const latestVsPinned = (size: string) => (medians.get(`${size}-latest`) ?? 0) / (medians.get(`${size}-pinned`) ?? 1);
out.push("");
out.push(`latest vs pinned (phrasebook median req/s): ~2 KB ${fmt(latestVsPinned("small"), 2)}x, ~200 KB ${fmt(latestVsPinned("large"), 2)}x.`);
out.push(`${rounds} interleaved rounds of ${duration} s per server and bundle, wrk -t1 -c${connections}, keep-alive.`);
out.push(`CPU ratio: nginx's CPU time per request over ours (median of rounds); above 1 means we spend less per request, i.e. the throughput ratio on an otherwise idle core.`);
if (hasBaseline) out.push(`ours / baseline: this build against the baseline revision's build serving the same bytes in the same rounds; above 1 is faster (req/s) or cheaper (CPU).`);
console.log(out.join("\n"));
