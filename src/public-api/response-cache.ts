/**
 * The API response cache (docs/interface.md §4.2 rule 7 and §8, docs/product.md §2): one entry per
 * project and literal path plus query string, so `?a=1&b=2` and `?b=2&a=1` are separate entries.
 * Entries live `ttlMs`, and all of a project's entries go at once when anything in the project
 * changes.
 *
 * A hit is the fast path of the API (docs/public-api.md "Speed"): two Map lookups (the project by
 * number, then the path and query, a string the app has already cut out of the URL) and, when the
 * caller's quota headers are the ones of the last hit on this entry, a clone of the Response made
 * then. The body is kept as a Blob of its UTF-8 bytes, which a Response shares instead of copying
 * (a string body is encoded again for every answer).
 */
export class CachedResponse {
  /** The last answer made from this entry and the headers it carries. */
  private ready: Response | undefined;
  private readyHeaders: Headers | undefined;

  constructor(
    readonly projectId: number,
    readonly key: string,
    readonly status: number,
    readonly body: Blob,
    readonly expiresAtMs: number,
  ) {}

  /** This entry's answer with `headers` (the caller's quota headers): the last one again when they are the same. */
  respond(headers: Headers): Response {
    if (this.readyHeaders !== headers || this.ready === undefined) {
      this.ready = new Response(this.body, { status: this.status, headers });
      this.readyHeaders = headers;
    }
    return this.ready.clone();
  }

  /** Bytes held: the key (UTF-16), the body, and the ready response. */
  get weight(): number {
    return 2 * this.key.length + this.body.size + RESPONSE_OVERHEAD_BYTES;
  }
}

/** Bounds on memory: a token can only create entries by spending quota, but tokens are many. */
export const CACHE_MAX_ENTRIES = 20_000;
export const CACHE_MAX_BYTES = 64 * 1024 * 1024;
/** A ready Response and its headers, counted per entry on top of the body. */
const RESPONSE_OVERHEAD_BYTES = 512;

export class ResponseCache {
  private readonly byProject = new Map<number, Map<string, CachedResponse>>();
  /** Every entry, oldest first: the first to go when the cache is full. */
  private readonly order = new Set<CachedResponse>();
  private bytes = 0;

  constructor(private readonly ttlMs: number) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get(projectId: number, pathAndQuery: string, nowMs: number): CachedResponse | undefined {
    const hit = this.byProject.get(projectId)?.get(pathAndQuery);
    if (hit === undefined) return undefined;
    if (hit.expiresAtMs <= nowMs) {
      this.remove(hit);
      return undefined;
    }
    return hit;
  }

  set(projectId: number, pathAndQuery: string, status: number, body: string | Uint8Array<ArrayBuffer>, nowMs: number): void {
    if (!this.enabled) return;
    let entries = this.byProject.get(projectId);
    if (entries === undefined) this.byProject.set(projectId, (entries = new Map()));
    const old = entries.get(pathAndQuery);
    if (old !== undefined) this.remove(old);
    const entry = new CachedResponse(projectId, pathAndQuery, status, new Blob([body]), nowMs + this.ttlMs);
    entries.set(pathAndQuery, entry);
    this.order.add(entry);
    this.bytes += entry.weight;
    while (this.order.size > CACHE_MAX_ENTRIES || this.bytes > CACHE_MAX_BYTES) {
      this.remove(this.order.values().next().value!);
    }
  }

  /**
   * docs/product.md §2: any change to a project drops its entries, so the API is never older than
   * the CDN.
   */
  dropProject(projectId: number): void {
    const entries = this.byProject.get(projectId);
    if (entries === undefined) return;
    for (const entry of entries.values()) {
      this.order.delete(entry);
      this.bytes -= entry.weight;
    }
    this.byProject.delete(projectId);
  }

  get size(): number {
    return this.order.size;
  }

  private remove(entry: CachedResponse): void {
    const entries = this.byProject.get(entry.projectId);
    if (entries?.get(entry.key) === entry) {
      entries.delete(entry.key);
      if (entries.size === 0) this.byProject.delete(entry.projectId);
    }
    this.order.delete(entry);
    this.bytes -= entry.weight;
  }
}
