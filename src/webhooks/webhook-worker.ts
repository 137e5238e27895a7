import type { Config } from '../config/config.ts';
import type { Db } from '../db/db.ts';
import type { Clock } from '../shared/clock.ts';
import { createDeliveryWorker } from './delivery-worker.ts';
import { destinationPolicy } from './destination-guard.ts';
import { createHttpSender } from './http-sender.ts';

/** The delivery worker as configured, with its HTTP sender; `stop()` closes both. */
export function createConfiguredWebhookWorker(
  config: Config,
  db: Db,
  clock: Clock,
  onError: (error: unknown) => void,
) {
  const sender = createHttpSender({
    timeoutMs: config.webhooks.timeoutMs,
    policy: destinationPolicy(config),
  });
  const worker = createDeliveryWorker({
    db,
    clock,
    sender,
    retryScheduleSeconds: config.webhooks.retryScheduleSeconds,
    timeoutMs: config.webhooks.timeoutMs,
    batchSize: config.webhooks.batchSize,
    pollIntervalMs: config.webhooks.pollIntervalMs,
    onError,
  });
  return {
    ...worker,
    async stop() {
      await worker.stop();
      sender.close();
    },
  };
}
