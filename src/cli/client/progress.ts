/**
 * One status line on a terminal, rewritten in place (docs/product.md §6: progress for large files
 * on a terminal, plain lines otherwise). Written to standard error, so standard output keeps only
 * the result lines a script may read.
 */
export class Progress {
  private shown = false;
  /** The first update always shows, however soon after start it comes. */
  private lastAt = Number.NEGATIVE_INFINITY;
  private readonly started = performance.now();

  constructor(
    private readonly label: string,
    private readonly enabled: boolean,
  ) {}

  seconds(): string {
    return `${((performance.now() - this.started) / 1000).toFixed(1)} s`;
  }

  update(text: string, force = false): void {
    if (!this.enabled) return;
    const now = performance.now();
    if (!force && now - this.lastAt < 100) return;
    this.lastAt = now;
    this.shown = true;
    process.stderr.write(`\r\x1b[K${this.label}: ${text}`);
  }

  /** Clears the line, so the result line takes its place. */
  done(): void {
    if (this.shown) process.stderr.write("\r\x1b[K");
    this.shown = false;
  }
}

/** Whether progress is shown: on a terminal only, never in CI logs. */
export function progressWanted(): boolean {
  return Boolean(process.stderr.isTTY) && process.env.CI !== "true";
}

export function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
