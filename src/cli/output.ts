/**
 * What a command prints. In the executable, through Bun's own writer: `process.stdout` and
 * `process.stderr` load Node's stream machinery on first use, about 20 ms of CPU, as much as the rest
 * of `phrasebook version` (bench/RESULTS.md "Start-up"). In the Node client (docs/automation.md "The
 * Node client") there is no Bun, and the process streams are the way. Each call is awaited, so lines
 * keep their order; a command prints its lines together where it can. The server's log stays on
 * `process.stdout` (src/common/log.ts), so `demo`, which prints beside it, uses that too.
 */
function write(stream: NodeJS.WriteStream, text: string): Promise<number> {
  return new Promise((resolve, reject) => stream.write(text, (err) => (err ? reject(err) : resolve(text.length))));
}

export function print(text: string): Promise<number> {
  return typeof Bun !== "undefined" ? Bun.write(Bun.stdout, text) : write(process.stdout, text);
}

export function printError(text: string): Promise<number> {
  return typeof Bun !== "undefined" ? Bun.write(Bun.stderr, text) : write(process.stderr, text);
}
