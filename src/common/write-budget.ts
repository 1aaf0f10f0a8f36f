/**
 * What one caller may change in a fixed window (docs/deploy.md "Security notes"): a number of
 * writes and the bytes their bodies hold, counted per caller (a user or a token). Windows are
 * aligned to multiples of their length since the epoch, as the public API's are, so `Retry-After`
 * is exact: the whole seconds until the window ends, at least 1. A new window forgets every
 * caller, so the counters cost memory only for those who wrote in the current one.
 */
export type WriteRefusal = { why: "writes" | "bytes"; retryAfterSeconds: number };

export class WriteBudget {
  private windowStartMs = -1;
  private readonly used = new Map<string, { writes: number; bytes: number }>();

  constructor(
    readonly writes: number,
    readonly bytes: number,
    private readonly windowMs: number,
  ) {}

  /** Spends one write of `bytes` for `caller`, or says why not (nothing is spent then). */
  take(caller: string, bytes: number, nowMs: number): WriteRefusal | null {
    const start = nowMs - (nowMs % this.windowMs);
    if (start !== this.windowStartMs) {
      this.windowStartMs = start;
      this.used.clear();
    }
    const used = this.used.get(caller) ?? { writes: 0, bytes: 0 };
    const retryAfterSeconds = Math.max(1, Math.ceil((start + this.windowMs - nowMs) / 1000));
    if (used.writes >= this.writes) return { why: "writes", retryAfterSeconds };
    if (bytes > 0 && used.bytes + bytes > this.bytes) return { why: "bytes", retryAfterSeconds };
    this.used.set(caller, { writes: used.writes + 1, bytes: used.bytes + bytes });
    return null;
  }
}
