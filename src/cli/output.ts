/**
 * What a command prints, through Bun's own writer. `process.stdout` and `process.stderr` load
 * Node's stream machinery on first use, about 20 ms of CPU: as much as the rest of
 * `phrasebook version` (bench/RESULTS.md "Start-up"). Each call is awaited, so lines keep their
 * order; a command prints its lines together where it can. The server's log stays on
 * `process.stdout` (src/common/log.ts), so `demo`, which prints beside it, uses that too.
 */
export function print(text: string): Promise<number> {
  return Bun.write(Bun.stdout, text);
}

export function printError(text: string): Promise<number> {
  return Bun.write(Bun.stderr, text);
}
