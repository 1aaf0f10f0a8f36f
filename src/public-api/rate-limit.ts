/**
 * Fixed-window counters (docs/interface.md §8 "Rate limiting", docs/product.md §2). Windows are
 * aligned to multiples of the window length since the epoch, so every counter resets at the same
 * instant and `Retry-After` is exact: the whole seconds until the window ends, at least 1
 * (docs/interface.md §8 rule 2).
 */
export interface Quota {
  limit: number;
  remaining: number;
  /** Epoch seconds at which the current window ends (X-RateLimit-Reset). */
  resetEpochSeconds: number;
  /** Whole seconds until then, at least 1 (Retry-After). */
  retryAfterSeconds: number;
}

export class FixedWindowLimiter<K> {
  private windowStartMs = -1;
  private readonly counts = new Map<K, number>();

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** The quota left for `key` without spending any (a cache hit, a 401 for a missing token). */
  peek(key: K, nowMs: number): Quota {
    this.roll(nowMs);
    return this.quota(this.counts.get(key) ?? 0, nowMs);
  }

  /** Spends one request; `allowed` is false once the window's quota is used up. */
  take(key: K, nowMs: number): Quota & { allowed: boolean } {
    this.roll(nowMs);
    const used = this.counts.get(key) ?? 0;
    if (used >= this.limit) return { ...this.quota(used, nowMs), allowed: false };
    this.counts.set(key, used + 1);
    return { ...this.quota(used + 1, nowMs), allowed: true };
  }

  private roll(nowMs: number): void {
    const start = nowMs - (nowMs % this.windowMs);
    if (start !== this.windowStartMs) {
      // A new window: every key starts afresh, and keys of the old one cost no memory.
      this.windowStartMs = start;
      this.counts.clear();
    }
  }

  private quota(used: number, nowMs: number): Quota {
    const endMs = this.windowStartMs + this.windowMs;
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - used),
      resetEpochSeconds: Math.ceil(endMs / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil((endMs - nowMs) / 1000)),
    };
  }
}

export function quotaHeaders(q: Quota): Record<string, string> {
  return {
    "x-ratelimit-limit": String(q.limit),
    "x-ratelimit-remaining": String(q.remaining),
    "x-ratelimit-reset": String(q.resetEpochSeconds),
  };
}
