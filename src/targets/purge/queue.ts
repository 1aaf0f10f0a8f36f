import { surrogateKey } from "../../bundles/urls.ts";
import type { Clock } from "../../common/clock.ts";
import { log } from "../../common/log.ts";
import type { Db } from "../../storage/db.ts";
import { RETRY_FIRST_MS, RETRY_MAX_MS } from "../follower.ts";
import type { TargetFetch } from "../target.ts";
import type { PurgeApi, PurgeCall, PurgeSettings } from "./api.ts";
import { preparePurgeQueries, type PurgeQueries } from "./queries.ts";

/** docs/interface.md §6.4 rule 1: how long a webhook waits for its receiver; a purge waits as long. */
export const PURGE_TIMEOUT_MS = 30_000;

/**
 * The purges to make (docs/deploy.md "Object storage and CDN purge"), in a table so a restart
 * loses none. The mirror (or, without one, the purge target) hands over the paths a change
 * changed, inside the transaction that records them done; the calls go out in order, one at a
 * time, each retried after 1 s, doubling to at most 60 s, until its API accepts it. A call keeps
 * its delivery id across attempts.
 */
export class PurgeQueue {
  private readonly q: PurgeQueries;
  private timer: Timer | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;
  private stopped = false;
  /** Ends a call under way when the server stops (the call stays queued). */
  private readonly stopping = new AbortController();

  constructor(
    db: Db,
    readonly api: PurgeApi,
    private readonly settings: PurgeSettings,
    private readonly fetch: TargetFetch,
    private readonly clock: Clock,
    private readonly timeoutMs = PURGE_TIMEOUT_MS,
  ) {
    this.q = preparePurgeQueries(db);
  }

  /**
   * Whether a `latest`, channel or manifest path now serves something other than at its last
   * purge (`sha256` of its new content, or null when it is gone), remembering the new content.
   * A pinned path is never purged: it never changes, so none of its content is remembered, and
   * its removal (a deleted release, a rotated slug) is left to the cache's own expiry.
   */
  changed(path: string, sha256: string | null, moving: boolean): boolean {
    const before = this.q.content(path);
    if (sha256 === null) {
      if (before !== null) this.q.forget(path);
      return before !== null || surrogateKey(path) !== null;
    }
    if (!moving || before === sha256) return false;
    this.q.setContent(path, sha256);
    return true;
  }

  /** Records the calls that purge these CDN paths: in the caller's transaction, so both commit or neither. */
  enqueue(paths: string[]): void {
    const now = this.clock.now();
    const calls = this.api.calls(paths, this.settings);
    this.q.insert(calls.map((call) => ({ call: JSON.stringify(call), deliveryId: crypto.randomUUID(), nextAttemptAt: now, createdAt: now })));
  }

  start(): void {
    this.started = true;
    this.kick();
  }

  /** Looks for calls to make (after a commit that recorded some). */
  kick(): void {
    if (!this.started || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      // The database refused to record an outcome (a full disk): the call is made again later.
      .catch((err) => log.error("the cdn purge could not record a call", { error: String(err) }))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async drain(): Promise<void> {
    clearTimeout(this.timer);
    while (!this.stopped) {
      const row = this.q.next();
      if (!row) return;
      const now = this.clock.now();
      if (row.nextAttemptAt > now) {
        // Looked at again at least every second: a clock that moves other than a timer (a test's) is followed.
        this.timer = setTimeout(() => this.kick(), Math.min(1000, row.nextAttemptAt - now));
        this.timer.unref?.();
        return;
      }
      const call = JSON.parse(row.call) as PurgeCall;
      const error = await this.send(call, row.deliveryId);
      if (this.stopped && error !== null) return; // ended by the stop: tried again at the next start
      if (error === null) {
        this.q.sent(row.id);
        log.info("cdn purged", { purge: this.api.name, ...("urls" in call ? { urls: call.urls.length } : { keys: 1 }), attempts: row.attempts + 1 });
      } else {
        const delayMs = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** row.attempts);
        this.q.failed(row.id, this.clock.now() + delayMs, error);
        log.warn("a cdn purge failed; trying again", { purge: this.api.name, attempts: row.attempts + 1, retry_in_ms: delayMs, error });
      }
    }
  }

  /** One attempt: null when the API accepted it, else why not (never a credential). */
  private async send(call: PurgeCall, deliveryId: string): Promise<string | null> {
    const request = this.api.request(call, this.settings, deliveryId, Math.floor(this.clock.now() / 1000));
    try {
      const res = await this.fetch(request.url, { ...request.init, redirect: "manual", signal: AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.stopping.signal]) });
      const body = await res.text();
      if (res.status < 200 || res.status > 299) return this.safe(`answered ${res.status}${body ? `: ${body.slice(0, 200)}` : ""}`);
      if (request.accepted && !request.accepted(body)) return this.safe(`answered ${res.status} without success: ${body.slice(0, 200)}`);
      return null;
    } catch (err) {
      const e = err as Error;
      return e.name === "TimeoutError" ? `no answer within ${this.timeoutMs / 1000} s` : this.safe(`no answer: ${e.message}`);
    }
  }

  /** What came back from the network, with the token and secret taken out should anything echo them. */
  private safe(text: string): string {
    let out = text.replace(/\s+/g, " ");
    for (const secret of [this.settings.purgeToken, this.settings.purgeSecret]) if (secret) out = out.split(secret).join("[credential]");
    return out;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.stopping.abort();
    await this.running;
  }
}
