/** What a benchmark reads about another process from /proc. */
import { readFileSync } from "node:fs";

const CLOCK_TICKS_PER_SECOND = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

/** User + system CPU seconds the process has used, all its threads (fields 14 and 15 of stat). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}
