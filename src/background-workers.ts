import type { Config } from './config/config.ts';
import type { Db } from './db/db.ts';
import { createCheckoutCompletionWorker } from './modules/checkout/index.ts';
import { createStatusQueryWorker } from './modules/transfers/index.ts';
import { createUssdStatusQueryWorker } from './modules/ussd/index.ts';
import { createVasStatusQueryWorker } from './modules/vas/index.ts';
import { createRetentionWorker } from './retention-worker.ts';
import type { Services } from './services.ts';
import { type Clock, SandboxClock } from './shared/clock.ts';
import type { PollLoopOptions } from './shared/poll-loop.ts';
import { createDeliveryWorker } from './webhooks/delivery-worker.ts';
import { destinationPolicy } from './webhooks/destination-guard.ts';
import { createHttpSender, type WebhookSender } from './webhooks/http-sender.ts';

export interface BackgroundWorkerDeps {
  readonly config: Config;
  readonly db: Db;
  /** The bank's clock: in the sandbox the test clock, whose advances wake the started workers. */
  readonly clock: Clock;
  /** Real time, for what the test clock does not move (services.ts); by default `clock`. */
  readonly wallClock?: Clock;
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

type Reporting = (worker: WorkerName) => Pick<PollLoopOptions, 'onError' | 'onRecovered'>;

/**
 * Every background loop, tuned from the configuration: the status queries that settle
 * Processing NIP transfers, pending VAS purchases and USSD payments whose notice was lost, and
 * webhook delivery. The server runs those its configuration
 * enables; the worker process (`npm run worker`) runs them all. Several can run against one
 * PostgreSQL: they claim disjoint work with FOR UPDATE SKIP LOCKED.
 */
export function createBackgroundWorkers(deps: BackgroundWorkerDeps) {
  const { config } = deps;
  const reporting: Reporting = (worker) => ({
    onError: (error, failedRounds) => deps.report.onError(worker, error, failedRounds),
    onRecovered: (failedRounds) => deps.report.onRecovered(worker, failedRounds),
  });
  const sender = createHttpSender({
    timeoutMs: config.webhooks.timeoutMs,
    policy: destinationPolicy(config),
  });
  const all = {
    ...statusWorkers(deps, reporting),
    ...upkeepWorkers(deps, reporting, sender),
  } satisfies Record<WorkerName, unknown>;
  const started = new Set<WorkerName>();
  /**
   * A round of every started worker now; webhook delivery last, so the events the others' rounds
   * wrote go out in the same wake. Answers when those rounds are done.
   */
  async function wake(): Promise<void> {
    const first = [...started].filter((name) => name !== 'webhookDeliveries');
    await Promise.all(first.map((name) => all[name].wake()));
    if (started.has('webhookDeliveries')) {
      await all.webhookDeliveries.wake();
    }
  }
  // In the sandbox, moving the test clock makes work due: the workers look at once.
  let unsubscribe: (() => void) | undefined;
  return {
    wake,
    /** Starts the named workers (by default, those the configuration runs in the server). */
    start(names: readonly WorkerName[] = enabledInServer(config)) {
      for (const name of names) {
        all[name].start();
        started.add(name);
      }
      if (unsubscribe === undefined && deps.clock instanceof SandboxClock) {
        unsubscribe = deps.clock.onAdvance(wake);
      }
      return [...started];
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = undefined;
      await Promise.all([...started].map((name) => all[name].stop()));
      sender.close();
    },
  };
}

/** The loops that ask a vendor about work left pending, and the checkout completions. */
function statusWorkers(deps: BackgroundWorkerDeps, reporting: Reporting) {
  const settings = deps.config.transfers.statusQueryWorker;
  const common = {
    db: deps.db,
    clock: deps.clock,
    batchSize: settings.batchSize,
    pollIntervalMs: settings.pollIntervalMs,
    claimSeconds: settings.claimSeconds,
  };
  return {
    statusQueries: createStatusQueryWorker({
      ...common,
      outbound: deps.services.outboundTransfers,
      ...reporting('statusQueries'),
    }),
    // Pending VAS purchases, on the same worker settings as the NIP status queries.
    vasStatusQueries: createVasStatusQueryWorker({
      ...common,
      purchases: deps.services.vasPurchaseService,
      ...reporting('vasStatusQueries'),
    }),
    // Unpaid USSD references whose payment notice may have been lost, on the same settings.
    ussdStatusQueries: createUssdStatusQueryWorker({
      ...common,
      ussd: deps.services.ussdService,
      ...reporting('ussdStatusQueries'),
    }),
    // Checkout sessions paid while no page watched them, so their event still goes out.
    checkoutCompletions: createCheckoutCompletionWorker({
      checkout: deps.services.checkoutService,
      clock: deps.clock,
      batchSize: settings.batchSize,
      pollIntervalMs: settings.pollIntervalMs,
      everySeconds: 10,
      ...reporting('checkoutCompletions'),
    }),
  };
}

/** Webhook delivery and retention. */
function upkeepWorkers(deps: BackgroundWorkerDeps, reporting: Reporting, sender: WebhookSender) {
  const { config } = deps;
  return {
    webhookDeliveries: createDeliveryWorker({
      db: deps.db,
      clock: deps.clock,
      sender,
      retryScheduleSeconds: config.webhooks.retryScheduleSeconds,
      timeoutMs: config.webhooks.timeoutMs,
      batchSize: config.webhooks.batchSize,
      pollIntervalMs: config.webhooks.pollIntervalMs,
      // The sandbox keeps what each attempt sent and got (GET /admin/sandbox/webhooks).
      inbox: config.ibsEnv === 'sandbox',
      // A sandbox reset stops what this worker claimed before it from being sent after it.
      fence: deps.services.deliveryFence,
      ...reporting('webhookDeliveries'),
    }),
    retention: createRetentionWorker({
      db: deps.db,
      clock: deps.clock,
      ...(deps.wallClock === undefined ? {} : { wallClock: deps.wallClock }),
      config: config.retention,
      ...reporting('retention'),
    }),
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
