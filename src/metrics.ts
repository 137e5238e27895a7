import { Counter, collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';
import type { Db } from './db/db.ts';
import { countProcessingTransfers } from './modules/transfers/index.ts';
import { countReferencesAwaitingStatusQuery } from './modules/ussd/index.ts';
import { countPendingPurchases } from './modules/vas/index.ts';
import type { Clock } from './shared/clock.ts';
import { type OutboxStats, outboxStats } from './webhooks/event-repository.ts';

/** Every series OpenIBS itself exposes starts with this (docs/deployment.md, Metrics). */
export const METRIC_PREFIX = 'openibs_';

export interface MetricsDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** How long a scrape waits for its database reads; those not done by then show NaN. */
  readonly collectTimeoutMs: number;
}

/**
 * The registry of one service graph (services.ts): the process metrics, and the gauges read from
 * the database at scrape time (the pool, the webhook outbox, the status-query backlogs). The
 * HTTP request series are added by installRequestMetrics (src/http/metrics.ts). One registry per
 * service graph, not one for the process, so tests can build many in one process.
 *
 * The reads run one after another (a scrape holds at most one pooled connection), each source's
 * once per scrape and never twice at a time, so a database that hangs never piles up scrape
 * queries on the pool. A read that fails or outlasts collectTimeoutMs leaves its gauges at NaN
 * (never a stale or a reassuring 0) and counts in openibs_metrics_collect_failures_total.
 */
export function createMetricsRegistry(deps: MetricsDeps): Registry {
  const registry = new Registry();
  for (const metric of processMetrics()) {
    registry.registerMetric(metric);
  }
  // Sampled first in each scrape (collects run in registration order), before its own reads.
  registerPoolGauges(registry, deps.db);
  const readers: (() => Promise<unknown>)[] = [];
  const inTurn = oneAtATime();
  const failures = new Counter({
    name: 'openibs_metrics_collect_failures_total',
    help: 'Database reads for /metrics that failed or timed out (their gauges showed NaN), by source.',
    labelNames: ['source'],
    registers: [registry],
    // Waits for this scrape's reads, so a failure shows in the scrape it happened in.
    async collect() {
      await Promise.all(readers.map((read) => read()));
    },
  });
  const reader = <T>(source: string, read: () => Promise<T>) => {
    const shared = oneReadPerScrape(inTurn(read), deps.collectTimeoutMs, () =>
      failures.inc({ source }),
    );
    readers.push(shared);
    return shared;
  };

  registerOutboxGauges(
    registry,
    reader('webhook_outbox', () => outboxStats(deps.db, deps.clock.now())),
    deps.clock,
  );
  const backlogs = {
    nip_transfer: reader('nip_transfer', () => countProcessingTransfers(deps.db)),
    vas_purchase: reader('vas_purchase', () => countPendingPurchases(deps.db)),
    ussd_reference: reader('ussd_reference', () => countReferencesAwaitingStatusQuery(deps.db)),
  };
  new Gauge({
    name: 'openibs_status_query_backlog',
    help: 'Items whose outcome is still unknown, waiting for a status query: NIP transfers Processing, VAS purchases pending, unpaid USSD references still to be asked about.',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      const entries = Object.entries(backlogs);
      const counts = await Promise.all(entries.map(([, read]) => read()));
      entries.forEach(([kind], index) => {
        this.set({ kind }, counts[index] ?? Number.NaN);
      });
    },
  });
  return registry;
}

/** PostgreSQL's pool, read from the driver (no query). PGlite has no pool: no series. */
function registerPoolGauges(registry: Registry, db: Db): void {
  const stats = db.poolStats?.bind(db);
  if (stats === undefined) {
    return;
  }
  const gauge = (name: string, help: string, value: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(value());
      },
    });
  gauge(
    'openibs_db_pool_connections',
    'Database connections open in the pool (idle or in use).',
    () => stats().total,
  );
  gauge('openibs_db_pool_idle_connections', 'Pooled connections idle.', () => stats().idle);
  gauge(
    'openibs_db_pool_waiting_clients',
    'Queries and transactions waiting for a pooled connection (all were in use).',
    () => stats().waiting,
  );
  gauge(
    'openibs_db_pool_max_connections',
    'The most connections the pool opens (DATABASE_POOL_SIZE).',
    () => stats().max,
  );
}

function registerOutboxGauges(
  registry: Registry,
  read: () => Promise<OutboxStats | undefined>,
  clock: Clock,
): void {
  const secondsSince = (at: Date | null) =>
    at === null ? 0 : Math.max(0, (clock.now().getTime() - at.getTime()) / 1000);
  const gauge = (name: string, help: string, value: (stats: OutboxStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const stats = await read();
        this.set(stats === undefined ? Number.NaN : value(stats));
      },
    });
  gauge(
    'openibs_webhook_outbox_waiting_events',
    'Webhook events not yet delivered (due, being sent, or waiting for a retry).',
    (stats) => stats.waiting,
  );
  gauge(
    'openibs_webhook_outbox_oldest_age_seconds',
    'Age of the oldest webhook event not yet delivered, from when it was written (0: none).',
    (stats) => secondsSince(stats.oldestWaitingSince),
  );
  gauge(
    'openibs_webhook_outbox_delivery_lag_seconds',
    'How long the longest-overdue webhook event has been due without a finished attempt (0: none due).',
    (stats) => secondsSince(stats.oldestDueSince),
  );
  gauge(
    'openibs_webhook_failed_events',
    'Webhook events that failed for good (retries ran out, or refused) and wait for a replay.',
    (stats) => stats.failed,
  );
}

/**
 * The gauges of one source share one read per scrape. prom-client starts every metric's collect()
 * in one synchronous pass (registry.metrics()), so the read is shared until the next microtask:
 * the next scrape reads again. (Were the collects ever run one after another, each would read on
 * its own: more queries, never a stale value.) A read still running, one that timed out in an
 * earlier scrape, is awaited again rather than started twice.
 */
function oneReadPerScrape<T>(
  read: () => Promise<T>,
  timeoutMs: number,
  onFailure: () => void,
): () => Promise<T | undefined> {
  let running: Promise<T> | undefined;
  let shared: Promise<T | undefined> | undefined;
  return () => {
    if (shared === undefined) {
      running ??= read().finally(() => {
        running = undefined;
      });
      shared = withTimeout(running, timeoutMs).catch(() => {
        onFailure();
        return undefined;
      });
      queueMicrotask(() => {
        shared = undefined;
      });
    }
    return shared;
  };
}

/** The reads of a scrape one after another: /metrics holds at most one pooled connection. */
function oneAtATime() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(read: () => Promise<T>) =>
    (): Promise<T> => {
      const next = last.then(read, read);
      last = next.catch(() => undefined);
      return next;
    };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  // A read that fails after the timeout won is not an unhandled rejection.
  promise.catch(() => undefined);
  return Promise.race([promise, timedOut]).finally(() => clearTimeout(timer));
}

/**
 * Node's own metrics (event loop lag, heap, GC, CPU, file descriptors), for the whole process:
 * collected once (prom-client's monitors are never stopped, so one set per process, not per
 * app), then shared by every app's registry. The `*_total` gauges prom-client adds for handles,
 * requests and resources are left out: `_total` is for counters, and each is the sum of its
 * labelled series.
 */
let processMetricList: readonly Metric[] | undefined;
function processMetrics(): readonly Metric[] {
  if (processMetricList === undefined) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
    processMetricList = registry.getMetricsAsArray().flatMap(({ name }) => {
      const metric = registry.getSingleMetric(name);
      return metric === undefined || (metric instanceof Gauge && name.endsWith('_total'))
        ? []
        : [metric];
    });
  }
  return processMetricList;
}
