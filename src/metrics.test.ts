import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseExposition, sampleValue } from '../test/prometheus-text.ts';
import type { Db, PoolStats } from './db/db.ts';
import { createMetricsRegistry } from './metrics.ts';
import { ManualClock } from './shared/clock.ts';

/** A database whose every query does what `answer` says, with a pool when `pool` is given. */
function fakeDb(answer: (sql: string) => Promise<unknown[]>, pool?: () => PoolStats) {
  const queries: string[] = [];
  const db: Db = {
    kind: 'postgres',
    query: ((sql: string) => {
      queries.push(sql);
      return answer(sql);
    }) as Db['query'],
    exec: async () => undefined,
    transaction: () => Promise.reject(new Error('not used')),
    close: async () => undefined,
    ...(pool === undefined ? {} : { poolStats: pool }),
  };
  return { db, queries };
}

const DATABASE_GAUGES = [
  'openibs_webhook_outbox_waiting_events',
  'openibs_webhook_outbox_oldest_age_seconds',
  'openibs_webhook_outbox_delivery_lag_seconds',
  'openibs_webhook_failed_events',
];
const BACKLOG_KINDS = ['nip_transfer', 'vas_purchase', 'ussd_reference'];

describe('the metrics registry', () => {
  it('a database that never answers does not hang a scrape: its gauges are NaN, failures counted', async () => {
    const { db, queries } = fakeDb(() => new Promise(() => undefined));
    const registry = createMetricsRegistry({ db, clock: new ManualClock(), collectTimeoutMs: 50 });
    const started = performance.now();
    const first = parseExposition(await registry.metrics());
    assert.ok(performance.now() - started < 2_000, 'the scrape gave up after its timeout');
    for (const name of DATABASE_GAUGES) {
      assert.ok(Number.isNaN(sampleValue(first, name)), `${name} is NaN, not a made-up value`);
    }
    for (const kind of BACKLOG_KINDS) {
      assert.ok(Number.isNaN(sampleValue(first, 'openibs_status_query_backlog', { kind })));
    }
    // The reads go one at a time (one pooled connection at most): the first hangs, the rest
    // wait their turn and time out with it.
    assert.equal(queries.length, 1);
    for (const source of ['webhook_outbox', ...BACKLOG_KINDS]) {
      assert.equal(
        sampleValue(first, 'openibs_metrics_collect_failures_total', { source }),
        1,
        source,
      );
    }

    // The next scrape waits for the reads still running instead of piling more on the pool.
    const second = parseExposition(await registry.metrics());
    assert.equal(queries.length, 1);
    assert.equal(
      sampleValue(second, 'openibs_metrics_collect_failures_total', { source: 'webhook_outbox' }),
      2,
    );
  });

  it('reads each source once per scrape, and again on the next scrape', async () => {
    const clock = new ManualClock(new Date('2026-03-02T09:00:00Z'));
    const { db, queries } = fakeDb(async (sql) =>
      sql.includes('webhook_events')
        ? [
            {
              waiting: 3,
              oldest_waiting: new Date('2026-03-02T08:58:00Z'),
              oldest_due: new Date('2026-03-02T08:59:30Z'),
              failed: 2,
            },
          ]
        : [{ n: 5 }],
    );
    const registry = createMetricsRegistry({ db, clock, collectTimeoutMs: 1_000 });
    const first = parseExposition(await registry.metrics());
    assert.equal(sampleValue(first, 'openibs_webhook_outbox_waiting_events'), 3);
    assert.equal(sampleValue(first, 'openibs_webhook_outbox_oldest_age_seconds'), 120);
    assert.equal(sampleValue(first, 'openibs_webhook_outbox_delivery_lag_seconds'), 30);
    assert.equal(sampleValue(first, 'openibs_webhook_failed_events'), 2);
    for (const kind of BACKLOG_KINDS) {
      assert.equal(sampleValue(first, 'openibs_status_query_backlog', { kind }), 5);
    }
    assert.equal(queries.length, 4);
    await registry.metrics();
    assert.equal(queries.length, 8);
  });

  it('a failed read shows NaN in its scrape only: the next scrape reads again', async () => {
    let down = true;
    const { db } = fakeDb(async (sql) => {
      if (down) {
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      }
      return sql.includes('webhook_events')
        ? [{ waiting: 1, oldest_waiting: null, oldest_due: null, failed: 0 }]
        : [{ n: 0 }];
    });
    const registry = createMetricsRegistry({ db, clock: new ManualClock(), collectTimeoutMs: 500 });
    const failed = parseExposition(await registry.metrics());
    assert.ok(Number.isNaN(sampleValue(failed, 'openibs_webhook_outbox_waiting_events')));
    down = false;
    const recovered = parseExposition(await registry.metrics());
    assert.equal(sampleValue(recovered, 'openibs_webhook_outbox_waiting_events'), 1);
    assert.equal(
      sampleValue(recovered, 'openibs_status_query_backlog', { kind: 'ussd_reference' }),
      0,
    );
    assert.equal(
      sampleValue(recovered, 'openibs_metrics_collect_failures_total', { source: 'vas_purchase' }),
      1,
    );
  });

  it('the pool gauges come from the driver, with no query; a database without a pool has none', async () => {
    const stats = { total: 7, idle: 2, waiting: 4, max: 10 };
    const pooled = fakeDb(
      async () => [],
      () => stats,
    );
    const exposition = parseExposition(
      await createMetricsRegistry({
        db: pooled.db,
        clock: new ManualClock(),
        collectTimeoutMs: 1_000,
      }).metrics(),
    );
    assert.equal(sampleValue(exposition, 'openibs_db_pool_connections'), 7);
    assert.equal(sampleValue(exposition, 'openibs_db_pool_idle_connections'), 2);
    assert.equal(sampleValue(exposition, 'openibs_db_pool_waiting_clients'), 4);
    assert.equal(sampleValue(exposition, 'openibs_db_pool_max_connections'), 10);

    const unpooled = fakeDb(async () => []);
    const without = parseExposition(
      await createMetricsRegistry({
        db: unpooled.db,
        clock: new ManualClock(),
        collectTimeoutMs: 1_000,
      }).metrics(),
    );
    assert.equal(
      [...without.types.keys()].some((name) => name.startsWith('openibs_db_pool_')),
      false,
    );
  });

  it('many registries in one process: the process metrics are shared, never registered twice', async () => {
    const { db } = fakeDb(async () => []);
    const registries = Array.from({ length: 3 }, () =>
      createMetricsRegistry({ db, clock: new ManualClock(), collectTimeoutMs: 1_000 }),
    );
    for (const registry of registries) {
      const exposition = parseExposition(await registry.metrics());
      assert.ok(exposition.types.has('openibs_nodejs_heap_size_used_bytes'));
      assert.equal(exposition.types.has('openibs_nodejs_active_handles_total'), false);
    }
  });
});
