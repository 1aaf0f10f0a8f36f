import { loggingEnabled } from "../common/log.ts";
import { Counter, Gauge, Histogram, Registry, type CounterCell, type HistogramCell } from "./metrics.ts";
import { METHODS, methodIndex, RouteLabels, type DeclaredRoute } from "./route-labels.ts";

/**
 * What the process reports about itself: request metrics and one JSON log line per request
 * (docs/deploy.md "Monitoring"). Capabilities get their counters from here; the app calls
 * `answered()` once per response, on every path, fast paths included.
 *
 * What an answer costs here (docs/cdn.md "Speed"): the route's cells are found by one Map lookup
 * of the path the app already cut out of the URL (the same string the CDN cache looked up, so its
 * hash is already computed), then two additions and a histogram slot. Nothing is sampled: every
 * counter and the histogram's count move by one per request. Log lines are built by hand from
 * parts made once (the time of the current millisecond; the middle of the line per route, method
 * and status; the client) and written in batches: one write per 200 ms or per batch, not one per
 * request.
 */
export interface ObservabilityOptions {
  logRequests: boolean;
}

const FLUSH_INTERVAL_MS = 200;
const FLUSH_LINES = 1024;
/** Paths remembered per method, a cache in front of the route matcher (cleared when full). Reads are what repeats. */
const PATHS_REMEMBERED = 4096;

/** What one (method, status) answer on a route moves: its counter, and the middle of its log lines. */
interface Answer {
  readonly counter: CounterCell;
  /** From the end of the time to the duration: `","level":"info",...,"duration_ms":`, built once. */
  readonly logMiddle: string;
}

/** One route label's cells: its latency histogram and its answers by method and status. */
class RouteSeries {
  readonly latency: HistogramCell;
  private readonly answers = new Map<number, Answer>();
  private lastKey = -1;
  private last: Answer | undefined;

  constructor(
    readonly label: string,
    private readonly requests: Counter,
    latency: Histogram,
  ) {
    this.latency = latency.cell({ route: label });
  }

  /** The answer (method, status) on this route; a run of the same answer costs one comparison. */
  answer(method: number, status: number): Answer {
    const key = status * METHODS.length + method;
    if (key === this.lastKey) return this.last!;
    let answer = this.answers.get(key);
    if (answer === undefined) {
      const name = METHODS[method]!;
      answer = {
        counter: this.requests.cell({ method: name, route: this.label, status: String(status) }),
        logMiddle: `","level":"info","msg":"request","method":"${name}","route":${JSON.stringify(this.label)},"status":${status},"duration_ms":`,
      };
      this.answers.set(key, answer);
    }
    this.lastKey = key;
    this.last = answer;
    return answer;
  }
}

export class Observability {
  readonly registry = new Registry();
  readonly requests = this.registry.register(new Counter("phrasebook_http_requests_total", "HTTP requests by route and status", ["method", "route", "status"]));
  readonly latency = this.registry.register(new Histogram("phrasebook_http_request_duration_seconds", "HTTP request latency by route", ["route"]));
  readonly cdnCache = this.registry.register(new Counter("phrasebook_cdn_cache_total", "CDN cache lookups by result", ["result"]));
  readonly cdnBytes = this.registry.register(new Counter("phrasebook_cdn_bytes_total", "CDN response body bytes sent"));
  readonly rateLimited = this.registry.register(new Counter("phrasebook_api_rate_limited_total", "API requests refused by the rate limit"));
  readonly webhookAttempts = this.registry.register(new Counter("phrasebook_webhook_attempts_total", "Webhook delivery attempts by outcome", ["outcome"]));

  private labels = new RouteLabels();
  /** By label; labels come from a fixed set, so this is bounded by the routes the app declares. */
  private readonly series = new Map<string, RouteSeries>();
  /** GET and HEAD (method indexes 0 and 1): raw path to its route's series, for paths that answered. */
  private readonly byPath: Map<string, RouteSeries>[] = [new Map(), new Map()];
  private buffer: string[] = [];
  private logMs = -1;
  private logTime = "";
  /** The last client address and its JSON: requests come from few addresses (a proxy, an app's users). */
  private logClient = "";
  private logClientJson = ',"client":""}';
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly options: ObservabilityOptions) {
    if (options.logRequests) {
      this.timer = setInterval(() => this.flush(), FLUSH_INTERVAL_MS);
      this.timer.unref?.();
    }
  }

  /** Whether each request gets a log line (PHRASEBOOK_LOG_REQUESTS); the caller then passes its client address. */
  get logsRequests(): boolean {
    return this.options.logRequests;
  }

  gauge(name: string, help: string, read: () => number): void {
    this.registry.register(new Gauge(name, help, read));
  }

  /** The routes requests are labelled by (the app declares them once it is built); nothing else is a label. */
  declareRoutes(routes: readonly DeclaredRoute[]): void {
    this.labels = new RouteLabels(routes);
    for (const memo of this.byPath) memo.clear();
  }

  /** The label a request gets: its route's pattern, or `unmatched`. */
  routeOf(method: string, path: string): string {
    return this.labels.of(method, path);
  }

  /**
   * Counts one answered request and, when logging is on, logs it; hands the response back.
   * `path` is the raw request path without its query; `client` is read only when logging.
   */
  answered(method: string, path: string, response: Response, startedMs: number, client: string): Response {
    const m = methodIndex(method);
    const status = response.status;
    const memo = this.byPath[m];
    let series = memo?.get(path);
    if (series === undefined) {
      series = this.seriesOf(method, path);
      // Only reads that answered are remembered: a flood of made-up paths (404s, 401s) neither
      // grows the memo nor pushes the real files out of it.
      if (memo !== undefined && status < 400) {
        if (memo.size >= PATHS_REMEMBERED) memo.clear();
        memo.set(path, series);
      }
    }
    const answer = series.answer(m, status);
    answer.counter.value++;
    const durationMs = performance.now() - startedMs;
    series.latency.observe(durationMs / 1000);
    if (this.options.logRequests) this.logLine(answer.logMiddle, durationMs, client);
    return response;
  }

  private seriesOf(method: string, path: string): RouteSeries {
    const label = this.labels.of(method, path);
    let series = this.series.get(label);
    if (series === undefined) {
      series = new RouteSeries(label, this.requests, this.latency);
      this.series.set(label, series);
    }
    return series;
  }

  /**
   * The same fields, in the same order, as `log.info("request", ...)` would write, from three parts
   * made once: the time (per millisecond), the middle (per route, method and status) and the client's JSON.
   */
  private logLine(middle: string, durationMs: number, client: string): void {
    const now = Date.now();
    if (now !== this.logMs) {
      this.logMs = now;
      this.logTime = `{"time":"${new Date(now).toISOString()}`;
    }
    if (client !== this.logClient) {
      this.logClient = client;
      this.logClientJson = `,"client":${JSON.stringify(client)}}`;
    }
    // Hundredths of a millisecond written as two integers: formatting a fraction costs twice as much.
    const hundredths = Math.round(durationMs * 100);
    const fraction = hundredths % 100;
    this.buffer.push(`${this.logTime}${middle}${(hundredths - fraction) / 100}${fraction < 10 ? ".0" : "."}${fraction}${this.logClientJson}`);
    if (this.buffer.length >= FLUSH_LINES) this.flush();
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
