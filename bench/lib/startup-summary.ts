/**
 * Summarises bench/startup.bench.sh (JSON lines of bench/lib/startup-driver.ts: case, round, ms,
 * cpu_ms) as the Markdown section for bench/RESULTS.md: per case the median of the rounds, their
 * range, the median CPU time, and the goal of docs/architecture.md "Start-up" where there is one.
 * Usage: bun bench/lib/startup-summary.ts <rounds.jsonl>
 */
import { readFileSync } from "node:fs";

const file = process.argv[2];
if (!file) throw new Error("usage: startup-summary.ts <rounds.jsonl>");

/** Goals (ms, wall): a client command under 60, serve to its first healthy /healthz under 150. */
const GOALS: Record<string, number> = { version: 60, "--help": 60, status: 60, "serve fresh": 150, "serve existing": 150 };
const LABELS: Record<string, string> = {
  version: "`version`",
  "--help": "`--help`",
  status: "`status`, server not answering",
  "serve fresh": "`serve` to first healthy `/healthz`, fresh data dir",
  "serve existing": "`serve` to first healthy `/healthz`, existing data dir",
};

interface Row {
  case: string;
  round: number;
  ms: number;
  cpu_ms: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const rows = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Row);
const byCase = new Map<string, Row[]>();
for (const r of rows) byCase.set(r.case, [...(byCase.get(r.case) ?? []), r]);
const stat = (name: string) => {
  const rs = byCase.get(name);
  if (!rs) return undefined;
  const ms = rs.map((r) => r.ms);
  return { median: median(ms), min: Math.min(...ms), max: Math.max(...ms), cpu: median(rs.map((r) => r.cpu_ms)) };
};
const f = (n: number) => n.toFixed(1);
const baselineName = process.env.BASELINE_NAME;

console.log("## Start-up\n");
console.log(
  `Command: \`BENCH_ROUNDS=${process.env.ROUNDS} bash bench/startup.bench.sh\` (${new Date().toISOString().slice(0, 10)}, load average at the end ${process.env.LOAD ?? "?"}). ` +
    `Wall time from spawn to exit (commands) or to the first 200 from \`/healthz\` (serve); median of the rounds, [min-max], and the median CPU time of all the process's threads.\n`,
);
const floorVersion = stat("floor version")!;
const floorServe = stat("floor serve")!;
console.log("| case | floor (compiled hello-world / bare Bun.serve) | phrasebook | " + (baselineName ? `before (${baselineName}) | ` : "") + "goal |");
console.log("|---|---:|---:|" + (baselineName ? "---:|" : "") + "---:|");
for (const key of Object.keys(LABELS)) {
  const now = stat(`phrasebook ${key}`);
  if (!now) continue;
  const floor = key.startsWith("serve") ? floorServe : floorVersion;
  const before = stat(`baseline ${key}`);
  const cell = (s: NonNullable<ReturnType<typeof stat>>) => `${f(s.median)} ms [${f(s.min)}-${f(s.max)}], CPU ${f(s.cpu)} ms`;
  const goal = GOALS[key]!;
  const met = now.median < goal ? "met" : "missed";
  console.log(`| ${LABELS[key]} | ${cell(floor)} | ${cell(now)} | ${before ? `${cell(before)} | ` : ""}< ${goal} ms (${met}) |`);
}
console.log(`\nRounds: ${byCase.get("floor version")?.length ?? 0}; every round runs every case once, in a rotating order.`);
