/**
 * The API response cache (docs/interface.md §4.2 rule 7 and §8, docs/product.md §2): one entry per
 * project and literal path plus query string, so `?a=1&b=2` and `?b=2&a=1` are separate entries.
 * Entries live `ttlMs`, and all of a project's entries go at once when anything in the project
 * changes.
 */
export interface CachedResponse {
  status: number;
  /** As the route produced it: a page of releases comes as UTF-8 bytes, the rest as strings. */
  body: string | Uint8Array<ArrayBuffer>;
  expiresAtMs: number;
}

/** Bounds on memory: a token can only create entries by spending quota, but tokens are many. */
export const CACHE_MAX_ENTRIES = 20_000;
export const CACHE_MAX_BYTES = 64 * 1024 * 1024;

export class ResponseCache {
  // One insertion-ordered map for all projects: the oldest entry is evicted first when full.
  private readonly entries = new Map<string, CachedResponse & { projectId: number }>();
  private bytes = 0;

  constructor(private readonly ttlMs: number) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get(projectId: number, pathAndQuery: string, nowMs: number): CachedResponse | undefined {
    if (!this.enabled) return undefined;
    const key = projectId + " " + pathAndQuery;
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAtMs <= nowMs) {
      this.remove(key, hit);
      return undefined;
    }
    return hit;
  }

  set(projectId: number, pathAndQuery: string, status: number, body: string | Uint8Array<ArrayBuffer>, nowMs: number): void {
    if (!this.enabled) return;
    const key = projectId + " " + pathAndQuery;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    const entry = { projectId, status, body, expiresAtMs: nowMs + this.ttlMs };
    this.entries.set(key, entry);
    this.bytes += weight(key, entry.body);
    while (this.entries.size > CACHE_MAX_ENTRIES || this.bytes > CACHE_MAX_BYTES) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.remove(oldestKey, oldest);
    }
  }

  /**
   * docs/product.md §2: any change to a project drops its entries, so the API is never older than
   * the CDN.
   */
  dropProject(projectId: number): void {
    for (const [key, entry] of this.entries) if (entry.projectId === projectId) this.remove(key, entry);
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(key: string, entry: CachedResponse): void {
    this.entries.delete(key);
    this.bytes -= weight(key, entry.body);
  }
}

function weight(key: string, body: string | Uint8Array): number {
  return 2 * key.length + (typeof body === "string" ? 2 * body.length : body.byteLength); // UTF-16 strings: 2 bytes a unit at most
}
