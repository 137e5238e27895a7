import { purgeExpiredDashboardSessions } from './auth/dashboard-session-repository.ts';
import { purgeExpiredAssertionIds } from './auth/oauth-app-repository.ts';
import { purgeExpiredRefreshTokens } from './auth/refresh-token-repository.ts';
import type { RetentionConfig } from './config/retention-config.ts';
import type { Db } from './db/db.ts';
import type { ModuleDescriptor } from './http/module-descriptor.ts';
import { purgeOldIdempotencyKeys } from './idempotency/idempotency.ts';
import { purgeSettledAlertMessages } from './modules/alerts/index.ts';
import { purgeExpiredEnquiries } from './modules/transfers/index.ts';
import type { Clock } from './shared/clock.ts';
import { createPollLoop, type PollLoopOptions } from './shared/poll-loop.ts';
import { purgeDeliveredEvents } from './webhooks/event-repository.ts';

const DAY_MS = 86_400_000;

/**
 * Deletes what only grows and no longer matters, in bounded batches (each its own short
 * statement, so no lock is held for long): expired refresh tokens, dashboard sessions, used
 * assertion ids and name enquiries, idempotency keys past their replay window, delivered webhook
 * events, customer alerts settled long ago. Each table's owner does its own deleting; this only says when. docs/operations.md
 * lists the windows.
 */
export function createRetentionWorker(
  deps: {
    readonly db: Db;
    readonly clock: Clock;
    /**
     * Real time, for what the sandbox's test clock does not move (dashboard sessions, client
     * assertions: services.ts); by default `clock`.
     */
    readonly wallClock?: Clock;
    readonly config: RetentionConfig;
  } & Pick<PollLoopOptions, 'onError' | 'onRecovered'>,
) {
  const { config } = deps;
  const bank = deps.clock;
  const wall = deps.wallClock ?? deps.clock;
  const purges = [
    { purge: purgeExpiredRefreshTokens, keepDays: config.expiredDays, clock: bank },
    { purge: purgeExpiredDashboardSessions, keepDays: config.expiredDays, clock: wall },
    { purge: purgeExpiredAssertionIds, keepDays: config.expiredDays, clock: wall },
    { purge: purgeExpiredEnquiries, keepDays: config.expiredDays, clock: bank },
    { purge: purgeOldIdempotencyKeys, keepDays: config.idempotencyKeyDays, clock: bank },
    { purge: purgeDeliveredEvents, keepDays: config.deliveredWebhookDays, clock: bank },
    { purge: purgeSettledAlertMessages, keepDays: config.alertMessageDays, clock: bank },
  ];

  /** One batch from every table; the loop comes straight back while any batch was full. */
  async function runOnce(): Promise<number> {
    let fullest = 0;
    for (const { purge, keepDays, clock } of purges) {
      const before = new Date(clock.now().getTime() - keepDays * DAY_MS);
      const deleted = await purge(deps.db, before, config.batchSize);
      fullest = Math.max(fullest, deleted);
    }
    return fullest;
  }

  const pollLoop = createPollLoop(runOnce, {
    batchSize: config.batchSize,
    pollIntervalMs: config.pollIntervalMs,
    ...(deps.onError === undefined ? {} : { onError: deps.onError }),
    ...(deps.onRecovered === undefined ? {} : { onRecovered: deps.onRecovered }),
  });
  return { runOnce, start: pollLoop.start, stop: pollLoop.stop, wake: pollLoop.wake };
}

/** Retention as the wiring runs it: one loop, in the server unless RETENTION_WORKER_ENABLED is false. */
export const retentionUpkeep = {
  name: 'retention',
  workers: [
    {
      name: 'retention',
      inServer: (config) => config.retention.enabled,
      create: ({ db, clock, wallClock, config, reporting }) =>
        createRetentionWorker({
          db,
          clock,
          ...(wallClock === undefined ? {} : { wallClock }),
          config: config.retention,
          ...reporting,
        }),
    },
  ],
} satisfies ModuleDescriptor<unknown>;
