import { log } from "../common/log.ts";
import type { AppDeps } from "../deps.ts";
import type { AttemptOutcome } from "./attempt.ts";
import { startRetentionJob } from "./retention.ts";
import { WebhookSender } from "./sender.ts";

export interface RunningWebhooks {
  sender: WebhookSender;
  stop(): Promise<void>;
}

/** Outcome label of an attempt for metrics: a 2xx, another HTTP status, or no HTTP answer at all. */
export function attemptOutcomeLabel(outcome: AttemptOutcome): "success" | "http_error" | "transport_error" {
  if (outcome.succeeded) return "success";
  return outcome.responseStatus === null ? "transport_error" : "http_error";
}

/**
 * The webhook background work of the server process: the sender and the log retention job.
 * `ca` is an extra trusted CA (PEM) for in-process tests; the server relies on NODE_EXTRA_CA_CERTS.
 */
export function startWebhooks(deps: AppDeps, options: { ca?: string } = {}): RunningWebhooks {
  const { settings } = deps;
  const sender = new WebhookSender({
    db: deps.db,
    clock: deps.clock,
    changes: deps.changes,
    fetch: deps.fetch,
    ca: options.ca,
    config: {
      retryDelaysSeconds: settings.webhookRetryDelaysSeconds,
      timeoutSeconds: settings.webhookTimeoutSeconds,
      allowCidrs: settings.webhookAllowCidrs,
    },
    onAttempt(d, outcome, next) {
      const result = attemptOutcomeLabel(outcome);
      deps.observability.webhookAttempts.inc({ outcome: result });
      // One line per attempt; the URL and secret stay out: receivers put tokens in URLs.
      if (settings.logRequests) log.info("webhook attempt", {
        delivery: d.publicId,
        event: d.event,
        attempt: d.attemptCount + 1,
        outcome: result,
        status: outcome.responseStatus,
        duration_ms: outcome.durationMs,
        reason: outcome.failureReason,
        delivery_status: next ?? null,
      });
    },
  });
  deps.observability.gauge("phrasebook_outbox_pending", "Webhook events and deliveries waiting to be sent", () => sender.backlog());
  sender.start();
  const retention = startRetentionJob(deps.db, deps.clock);
  return {
    sender,
    async stop() {
      retention.stop();
      await sender.stop();
    },
  };
}
