/**
 * What `run` writes to standard output (the JSON log lines of an in-process app), captured while it
 * runs and passed on after, so a failing test still shows it. `run` may read what was written so
 * far (to wait for a line).
 */
export async function capturingStdout<T>(run: (soFar: () => string) => Promise<T>): Promise<{ result: T; output: string; lines: any[] }> {
  const write = process.stdout.write;
  let output = "";
  process.stdout.write = ((chunk: string | Uint8Array) => {
    output += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    const result = await run(() => output);
    return { result, output, lines: output.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l)) };
  } finally {
    process.stdout.write = write;
    process.stdout.write(output);
  }
}
