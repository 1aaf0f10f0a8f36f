import type { Clock } from "../common/clock.ts";
import type { Settings } from "../config/settings.ts";
import type { Db } from "../storage/db.ts";
import { startRetentionJob } from "./retention.ts";
import { WebhookSender } from "./sender.ts";

export interface RunningWebhooks {
  sender: WebhookSender;
  stop(): Promise<void>;
}

/** The webhook background work of the server process: the sender and the log retention job. */
export function startWebhooks(deps: { db: Db; clock: Clock; settings: Settings }): RunningWebhooks {
  const { settings } = deps;
  const sender = new WebhookSender({
    db: deps.db,
    clock: deps.clock,
    config: {
      retryDelaysSeconds: settings.webhookRetryDelaysSeconds,
      timeoutSeconds: settings.webhookTimeoutSeconds,
      allowCidrs: settings.webhookAllowCidrs,
    },
  });
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
