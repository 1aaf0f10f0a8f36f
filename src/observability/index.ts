import { pathOf } from "../common/http.ts";
import { loggingEnabled } from "../common/log.ts";
import { Counter, Gauge, Histogram, Registry, type CounterCell, type HistogramCell } from "./metrics.ts";
import { routeLabel } from "./route-label.ts";

/**
 * What the process reports about itself: request metrics and one JSON log line per request
 * (docs/deploy.md "Monitoring"). Capabilities get their counters from here; the server calls `request()`
 * once per response. Log lines go through a buffered writer so logging stays off the hot path's
 * critical cost (one syscall per batch, not per request).
 */
export interface ObservabilityOptions {
  logRequests: boolean;
  cdnPrefix: string;
}

const FLUSH_INTERVAL_MS = 200;
const SERIES_MEMO_MAX_ENTRIES = 1024;

/** What one (method, status, path) resolves to: its route label and the metric cells it adds to. */
interface Series {
  route: string;
  count: CounterCell;
  latency: HistogramCell;
}

export class Observability {
  readonly registry = new Registry();
  readonly requests = this.registry.register(new Counter("phrasebook_http_requests_total", "HTTP requests by route and status", ["method", "route", "status"]));
  readonly latency = this.registry.register(new Histogram("phrasebook_http_request_duration_seconds", "HTTP request latency by route", ["route"]));
  readonly cdnCache = this.registry.register(new Counter("phrasebook_cdn_cache_total", "CDN cache lookups by result", ["result"]));
  readonly cdnBytes = this.registry.register(new Counter("phrasebook_cdn_bytes_total", "CDN response body bytes sent"));
  readonly rateLimited = this.registry.register(new Counter("phrasebook_api_rate_limited_total", "API requests refused by the rate limit"));
  readonly webhookAttempts = this.registry.register(new Counter("phrasebook_webhook_attempts_total", "Webhook delivery attempts by outcome", ["outcome"]));

  private buffer: string[] = [];
  private readonly seriesMemo = new Map<string, Series>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private options: ObservabilityOptions) {
    if (options.logRequests) {
      this.timer = setInterval(() => this.flush(), FLUSH_INTERVAL_MS);
      this.timer.unref?.();
    }
  }

  gauge(name: string, help: string, read: () => number): void {
    this.registry.register(new Gauge(name, help, read));
  }

  /** Records one answered request and hands the response back; `client` is read only when logging. */
  request(request: Request, response: Response, startedMs: number, client: () => string): Response {
    this.record(request.method, pathOf(request.url), response.status, performance.now() - startedMs, this.options.logRequests ? client() : "");
    return response;
  }

  record(method: string, pathname: string, status: number, durationMs: number, client = "unknown"): void {
    // The same few paths repeat (CDN files, API pages): resolve each (method, status, path) to its
    // label and metric cells once. Bounded, and cleared when full, so odd paths cannot grow it.
    const key = method + " " + status + " " + pathname;
    let series = this.seriesMemo.get(key);
    if (series === undefined) {
      let route = routeLabel(pathname, this.options.cdnPrefix);
      // Unknown paths would give metrics unbounded cardinality and logs a place for junk.
      if (status === 404 && !route.includes(":")) route = "unmatched";
      series = { route, count: this.requests.cell({ method, route, status: String(status) }), latency: this.latency.cell({ route }) };
      if (this.seriesMemo.size >= SERIES_MEMO_MAX_ENTRIES) this.seriesMemo.clear();
      this.seriesMemo.set(key, series);
    }
    series.count.value++;
    series.latency.observe(durationMs / 1000);
    if (this.options.logRequests) {
      this.buffer.push(
        JSON.stringify({ time: new Date().toISOString(), level: "info", msg: "request", method, route: series.route, status, duration_ms: Math.round(durationMs * 100) / 100, client }),
      );
      if (this.buffer.length >= 512) this.flush();
    }
  }

  flush(): void {
    if (this.buffer.length === 0) return;
    const text = this.buffer.join("\n") + "\n";
    this.buffer = [];
    if (loggingEnabled()) process.stdout.write(text);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.flush();
  }
}
