// PostgreSQL only: the connection-pool gauges of /metrics. PGlite has no pool (one connection in
// the process), so there these series are not exposed at all.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../harness.ts';
import { parseExposition, sampleValue } from '../prometheus-text.ts';

const POOL_SIZE = 3;

describe('/metrics: the PostgreSQL connection pool', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp({ METRICS_COLLECT_TIMEOUT_MS: '300' }, { poolSize: POOL_SIZE });
  });
  after(() => testApp.close());

  const scrape = async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(response.statusCode, 200, response.body);
    return parseExposition(response.body);
  };

  it('shows the open, idle and waiting connections and the pool size', async () => {
    await testApp.app.inject({ method: 'GET', url: '/ready' });
    const exposition = await scrape();
    for (const name of [
      'openibs_db_pool_connections',
      'openibs_db_pool_idle_connections',
      'openibs_db_pool_waiting_clients',
      'openibs_db_pool_max_connections',
    ]) {
      assert.equal(exposition.types.get(name), 'gauge', name);
    }
    assert.equal(sampleValue(exposition, 'openibs_db_pool_max_connections'), POOL_SIZE);
    const open = sampleValue(exposition, 'openibs_db_pool_connections') ?? 0;
    assert.ok(open >= 1 && open <= POOL_SIZE, `${open} connections open`);
    assert.equal(sampleValue(exposition, 'openibs_db_pool_waiting_clients'), 0);
    // The database gauges were read (numbers, not NaN) on PostgreSQL too.
    assert.equal(sampleValue(exposition, 'openibs_webhook_outbox_waiting_events'), 0);
    assert.equal(
      sampleValue(exposition, 'openibs_status_query_backlog', { kind: 'nip_transfer' }),
      0,
    );
  });

  it('every connection busy: the waiting gauge says so, and the scrape still answers in time', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holders = Array.from({ length: POOL_SIZE }, () =>
      testApp.db.transaction(async (tx) => {
        await tx.query('SELECT 1');
        await gate;
      }),
    );
    const stats = () => testApp.db.poolStats?.();
    for (let tries = 0; stats()?.idle !== 0 || stats()?.total !== POOL_SIZE; tries += 1) {
      assert.ok(tries < 200, 'the holders took every connection');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const queued = testApp.db.query('SELECT 1');
    try {
      const started = performance.now();
      const busy = await scrape();
      assert.ok(performance.now() - started < 5_000, 'the scrape did not wait for the database');
      assert.equal(sampleValue(busy, 'openibs_db_pool_connections'), POOL_SIZE);
      assert.equal(sampleValue(busy, 'openibs_db_pool_idle_connections'), 0);
      assert.ok((sampleValue(busy, 'openibs_db_pool_waiting_clients') ?? 0) >= 1);
      // Its own reads found no connection within the timeout: unknown, not zero.
      assert.ok(Number.isNaN(sampleValue(busy, 'openibs_webhook_outbox_waiting_events')));
      assert.ok(
        (sampleValue(busy, 'openibs_metrics_collect_failures_total', {
          source: 'webhook_outbox',
        }) ?? 0) >= 1,
      );
    } finally {
      release();
      await Promise.all([...holders, queued]);
    }
    const idle = await scrape();
    assert.equal(sampleValue(idle, 'openibs_db_pool_waiting_clients'), 0);
    assert.equal(sampleValue(idle, 'openibs_webhook_outbox_waiting_events'), 0);
  });
});
