import { type EnvReader, readEnvBoolean, readEnvInt } from './env-reader.ts';

/** How long what only grows is kept, in days past the point where it stops mattering. */
export interface RetentionConfig {
  readonly enabled: boolean;
  /** Refresh tokens, used assertion ids and name enquiries: days after they expire. */
  readonly expiredDays: number;
  /** Idempotency keys: days after they were claimed (their replay window). */
  readonly idempotencyKeyDays: number;
  /** Delivered webhook events and their attempts: days after delivery. */
  readonly deliveredWebhookDays: number;
  /** Customer alerts sent, failed for good or suppressed: days after they were written. */
  readonly alertMessageDays: number;
  /** Rows deleted per table per statement, and the pause between rounds. */
  readonly batchSize: number;
  readonly pollIntervalMs: number;
}

export function readRetentionConfig(read: EnvReader): RetentionConfig {
  const days = (name: string, fallback: number) =>
    readEnvInt(read, name, { fallback, min: 0, max: 3650 });
  return Object.freeze({
    enabled: readEnvBoolean(read, 'RETENTION_WORKER_ENABLED', true),
    expiredDays: days('RETENTION_EXPIRED_DAYS', 1),
    idempotencyKeyDays: days('RETENTION_IDEMPOTENCY_KEY_DAYS', 7),
    deliveredWebhookDays: days('RETENTION_DELIVERED_WEBHOOK_DAYS', 30),
    alertMessageDays: days('RETENTION_ALERT_MESSAGE_DAYS', 90),
    batchSize: readEnvInt(read, 'RETENTION_BATCH_SIZE', { fallback: 1000, min: 1, max: 100_000 }),
    pollIntervalMs: readEnvInt(read, 'RETENTION_POLL_INTERVAL_MS', {
      fallback: 60_000,
      min: 10,
      max: 86_400_000,
    }),
  });
}
