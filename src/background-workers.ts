import type { Config } from './config/config.ts';
import type { Db } from './db/db.ts';
import { createCheckoutCompletionWorker } from './modules/checkout/index.ts';
import { createStatusQueryWorker } from './modules/transfers/index.ts';
import { createUssdStatusQueryWorker } from './modules/ussd/index.ts';
import { createVasStatusQueryWorker } from './modules/vas/index.ts';
import { createRetentionWorker } from './retention-worker.ts';
import type { Services } from './services.ts';
import type { Clock } from './shared/clock.ts';
import type { PollLoopOptions } from './shared/poll-loop.ts';
import { createDeliveryWorker } from './webhooks/delivery-worker.ts';
import { destinationPolicy } from './webhooks/destination-guard.ts';
import { createHttpSender } from './webhooks/http-sender.ts';

export interface BackgroundWorkerDeps {
  readonly config: Config;
  readonly db: Db;
  readonly clock: Clock;
  readonly services: Pick<
    Services,
    'outboundTransfers' | 'vasPurchaseService' | 'ussdService' | 'checkoutService' | 'deliveryFence'
  >;
  /** Told about a run of failed rounds (throttled) and when a worker works again. */
  readonly report: {
    readonly onError: (worker: string, error: unknown, failedRounds: number) => void;
    readonly onRecovered: (worker: string, failedRounds: number) => void;
  };
}

export type WorkerName =
  | 'statusQueries'
  | 'vasStatusQueries'
  | 'ussdStatusQueries'
  | 'checkoutCompletions'
  | 'webhookDeliveries'
  | 'retention';

/**
 * Every background loop, tuned from the configuration: the status queries that settle
 * Processing NIP transfers, pending VAS purchases and USSD payments whose notice was lost, and
 * webhook delivery. The server runs those its configuration
 * enables; the worker process (`npm run worker`) runs them all. Several can run against one
 * PostgreSQL: they claim disjoint work with FOR UPDATE SKIP LOCKED.
 */
export function createBackgroundWorkers(deps: BackgroundWorkerDeps) {
  const { config } = deps;
  const reporting = (worker: WorkerName): Pick<PollLoopOptions, 'onError' | 'onRecovered'> => ({
    onError: (error, failedRounds) => deps.report.onError(worker, error, failedRounds),
    onRecovered: (failedRounds) => deps.report.onRecovered(worker, failedRounds),
  });
  const statusQueries = createStatusQueryWorker({
    db: deps.db,
    clock: deps.clock,
    outbound: deps.services.outboundTransfers,
    batchSize: config.transfers.statusQueryWorker.batchSize,
    pollIntervalMs: config.transfers.statusQueryWorker.pollIntervalMs,
    claimSeconds: config.transfers.statusQueryWorker.claimSeconds,
    ...reporting('statusQueries'),
  });
  // Pending VAS purchases, on the same worker settings as the NIP status queries.
  const vasStatusQueries = createVasStatusQueryWorker({
    db: deps.db,
    clock: deps.clock,
    purchases: deps.services.vasPurchaseService,
    batchSize: config.transfers.statusQueryWorker.batchSize,
    pollIntervalMs: config.transfers.statusQueryWorker.pollIntervalMs,
    claimSeconds: config.transfers.statusQueryWorker.claimSeconds,
    ...reporting('vasStatusQueries'),
  });
  // Unpaid USSD references whose payment notice may have been lost, on the same settings.
  const ussdStatusQueries = createUssdStatusQueryWorker({
    db: deps.db,
    clock: deps.clock,
    ussd: deps.services.ussdService,
    batchSize: config.transfers.statusQueryWorker.batchSize,
    pollIntervalMs: config.transfers.statusQueryWorker.pollIntervalMs,
    claimSeconds: config.transfers.statusQueryWorker.claimSeconds,
    ...reporting('ussdStatusQueries'),
  });
  // Checkout sessions paid while no page watched them, so their event still goes out.
  const checkoutCompletions = createCheckoutCompletionWorker({
    checkout: deps.services.checkoutService,
    batchSize: config.transfers.statusQueryWorker.batchSize,
    pollIntervalMs: config.transfers.statusQueryWorker.pollIntervalMs,
    everySeconds: 10,
    ...reporting('checkoutCompletions'),
  });
  const retention = createRetentionWorker({
    db: deps.db,
    clock: deps.clock,
    config: config.retention,
    ...reporting('retention'),
  });
  const sender = createHttpSender({
    timeoutMs: config.webhooks.timeoutMs,
    policy: destinationPolicy(config),
  });
  const webhookDeliveries = createDeliveryWorker({
    db: deps.db,
    clock: deps.clock,
    sender,
    retryScheduleSeconds: config.webhooks.retryScheduleSeconds,
    timeoutMs: config.webhooks.timeoutMs,
    batchSize: config.webhooks.batchSize,
    pollIntervalMs: config.webhooks.pollIntervalMs,
    // A sandbox reset stops what this worker claimed before it from being sent after it.
    fence: deps.services.deliveryFence,
    ...reporting('webhookDeliveries'),
  });
  const all = {
    statusQueries,
    vasStatusQueries,
    ussdStatusQueries,
    checkoutCompletions,
    webhookDeliveries,
    retention,
  };
  const started = new Set<WorkerName>();
  return {
    /** Starts the named workers (by default, those the configuration runs in the server). */
    start(names: readonly WorkerName[] = enabledInServer(config)) {
      for (const name of names) {
        all[name].start();
        started.add(name);
      }
      return [...started];
    },
    async stop() {
      await Promise.all([...started].map((name) => all[name].stop()));
      sender.close();
    },
  };
}

/** What the workers report, written to a pino logger (the server's, or the worker process's). */
export function reportTo(log: {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}): BackgroundWorkerDeps['report'] {
  return {
    onError: (worker, error, failedRounds) =>
      log.warn({ err: error, worker, failedRounds }, 'background round failed'),
    onRecovered: (worker, failedRounds) =>
      log.info({ worker, failedRounds }, 'background worker recovered'),
  };
}

export const ALL_WORKERS: readonly WorkerName[] = [
  'statusQueries',
  'vasStatusQueries',
  'ussdStatusQueries',
  'checkoutCompletions',
  'webhookDeliveries',
  'retention',
];

function enabledInServer(config: Config): WorkerName[] {
  return ALL_WORKERS.filter((name) =>
    name === 'webhookDeliveries'
      ? config.webhooks.workerEnabled
      : name === 'retention'
        ? config.retention.enabled
        : config.transfers.statusQueryWorker.enabled,
  );
}
