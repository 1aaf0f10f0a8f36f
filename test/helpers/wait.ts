/**
 * Waiting, by polling, for what a test cannot be told about directly: a log line flushed, a
 * delivery settled, a receiver reached, a background pass done. The limit is a limit of waiting,
 * generous on purpose, and never a measure: no test asserts how long the wait took
 * (docs/architecture.md "Tests").
 */
export interface WaitOptions {
  /** How long to keep asking before failing (default 10 s). */
  timeoutMs?: number;
  /** The pause between two asks (default 20 ms). */
  intervalMs?: number;
  /** What is awaited, for the error: a text, or a function that tells the state last seen. */
  what?: string | (() => string);
}

/**
 * Asks `check` until it answers something other than undefined, null or false, and returns that
 * answer; fails after `timeoutMs` saying what was awaited.
 */
export async function eventually<T>(check: () => T | undefined | null | false | Promise<T | undefined | null | false>, options: WaitOptions = {}): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 20, what = "the condition" } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${typeof what === "function" ? what() : what}: not within ${timeoutMs} ms`);
    await Bun.sleep(intervalMs);
  }
}
