import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sandboxCredit, sendTransfer, signedInClient } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { type Exposition, parseExposition, sampleValue } from '../../test/prometheus-text.ts';
import { createDeliveryWorker } from '../webhooks/delivery-worker.ts';
import { createHttpSender } from '../webhooks/http-sender.ts';
import { UNMATCHED_ROUTE } from './metrics.ts';

/** A loopback port nothing listens on: a webhook receiver that is down (connection refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One round of the webhook delivery worker (one attempt per due event, retried after 300 s). */
async function deliveryRound(testApp: TestApp): Promise<number> {
  const sender = createHttpSender({
    timeoutMs: 1_000,
    policy: { requireHttps: false, allowLoopback: true, allowPrivate: false },
  });
  const worker = createDeliveryWorker({
    db: testApp.db,
    clock: testApp.clock,
    sender,
    retryScheduleSeconds: [300],
    timeoutMs: 1_000,
    batchSize: 100,
    pollIntervalMs: 10,
  });
  try {
    return await worker.runOnce();
  } finally {
    sender.close();
  }
}

describe('GET /metrics', () => {
  let testApp: TestApp;
  let headers: Record<string, string>;
  let accountId: string;
  let accountNumber: string;

  const scrape = async (): Promise<Exposition> => {
    const response = await testApp.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    return parseExposition(response.body);
  };
  const accountsListed = (exposition: Exposition) =>
    sampleValue(exposition, 'openibs_http_requests_total', {
      method: 'GET',
      route: '/accounts',
      status_code: '200',
    }) ?? 0;

  before(async () => {
    testApp = await buildTestApp();
    const signedIn = await signedInClient(testApp);
    headers = signedIn.headers;
    accountId = signedIn.client.mainAccountId;
    accountNumber = signedIn.client.mainAccountNumber;
  });
  after(() => testApp.close());

  it('names every series openibs_*, counters *_total, durations *_seconds, and no gauge *_total', async () => {
    await testApp.app.inject({ method: 'GET', url: '/accounts', headers });
    const exposition = await scrape();
    assert.ok(exposition.types.size > 10, 'the families are typed');
    for (const [name, type] of exposition.types) {
      assert.match(name, /^openibs_[a-z0-9_]+$/);
      if (type === 'counter') {
        assert.match(name, /_total$/, `counter ${name}`);
      } else {
        assert.doesNotMatch(name, /_total$/, `${type} ${name} is no counter`);
      }
      if (/duration|latency|lag|_age/.test(name)) {
        assert.match(name, /_seconds$/, `${name} is a time`);
      }
    }
    for (const sample of exposition.samples) {
      assert.match(sample.name, /^openibs_[a-z0-9_]+$/);
    }
    for (const family of [
      'openibs_http_requests_total',
      'openibs_http_request_duration_seconds',
      'openibs_webhook_outbox_waiting_events',
      'openibs_webhook_outbox_oldest_age_seconds',
      'openibs_webhook_outbox_delivery_lag_seconds',
      'openibs_webhook_failed_events',
      'openibs_status_query_backlog',
      'openibs_metrics_collect_failures_total',
      // prom-client's process metrics, under our prefix.
      'openibs_process_cpu_seconds_total',
      'openibs_process_resident_memory_bytes',
      'openibs_nodejs_eventloop_lag_seconds',
      'openibs_nodejs_heap_size_used_bytes',
      'openibs_nodejs_gc_duration_seconds',
    ]) {
      assert.ok(exposition.types.has(family), `${family} is exposed`);
    }
    assert.equal(exposition.types.get('openibs_http_request_duration_seconds'), 'histogram');
    // PGlite has no connection pool: no pool series (test/pg-only/metrics-pool.test.ts).
    if (testApp.db.kind === 'pglite') {
      assert.equal(exposition.types.has('openibs_db_pool_connections'), false);
    }
  });

  it('counts requests by route pattern: the GET /accounts counter goes up by the calls made', async () => {
    const before = accountsListed(await scrape());
    for (let call = 0; call < 7; call += 1) {
      const listed = await testApp.app.inject({ method: 'GET', url: '/accounts', headers });
      assert.equal(listed.statusCode, 200);
    }
    const exposition = await scrape();
    assert.equal(accountsListed(exposition) - before, 7);
    const timed = sampleValue(exposition, 'openibs_http_request_duration_seconds_count', {
      method: 'GET',
      route: '/accounts',
    });
    assert.ok(timed !== undefined && timed >= 7, 'each call is timed');
    const slowest = sampleValue(exposition, 'openibs_http_request_duration_seconds_bucket', {
      method: 'GET',
      route: '/accounts',
      le: '+Inf',
    });
    assert.equal(slowest, timed);
  });

  it('labels a route by its pattern, never by the ids in the URL; unmatched URLs share one label', async () => {
    await sandboxCredit(testApp.app, accountNumber, 5_000);
    const sent = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: accountNumber,
      amount: 100,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const transferId: string = sent.json().data._id;
    await testApp.app.inject({ method: 'GET', url: `/accounts/${accountId}`, headers });
    await testApp.app.inject({ method: 'GET', url: '/accounts/acc_not_a_real_one', headers });
    await testApp.app.inject({ method: 'GET', url: `/no/such/route/${accountId}` });
    await testApp.app.inject({ method: 'GET', url: '/another/unknown/path?x=1' });

    const exposition = await scrape();
    const routes = new Set(
      exposition.samples
        .filter((sample) => sample.name === 'openibs_http_requests_total')
        .map((sample) => sample.labels.route as string),
    );
    assert.ok(routes.has('/accounts/:id'), [...routes].join(' '));
    assert.ok(routes.has('/transfers'));
    assert.ok(routes.has(UNMATCHED_ROUTE));
    for (const route of routes) {
      for (const raw of [accountId, transferId, 'acc_not_a_real_one', 'unknown', '?']) {
        assert.ok(!route.includes(raw), `route label ${route} holds ${raw}`);
      }
      assert.ok(route === UNMATCHED_ROUTE || route.startsWith('/'), route);
    }
    assert.equal(
      sampleValue(exposition, 'openibs_http_requests_total', {
        method: 'GET',
        route: UNMATCHED_ROUTE,
        status_code: '404',
      }),
      2,
    );
  });

  it('shows the webhook outbox: an event waiting while the receiver is unreachable, and its age', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/hooks`;
    const set = await testApp.app.inject({
      method: 'PUT',
      url: '/webhooks/settings',
      headers,
      payload: { url },
    });
    assert.equal(set.statusCode, 200, set.body);
    await sandboxCredit(testApp.app, accountNumber, 1_000);
    // One delivery round: the receiver refuses the connection, the event waits for its retry.
    assert.ok((await deliveryRound(testApp)) >= 1, 'the worker tried to deliver');
    const waiting = await scrape();
    assert.ok((sampleValue(waiting, 'openibs_webhook_outbox_waiting_events') ?? 0) >= 1);
    assert.equal(sampleValue(waiting, 'openibs_webhook_outbox_delivery_lag_seconds'), 0);

    testApp.clock.advanceSeconds(600);
    const later = await scrape();
    assert.ok((sampleValue(later, 'openibs_webhook_outbox_waiting_events') ?? 0) >= 1);
    assert.ok((sampleValue(later, 'openibs_webhook_outbox_oldest_age_seconds') ?? 0) >= 600);
    // Its retry fell due five minutes ago and no worker has run it since.
    assert.ok((sampleValue(later, 'openibs_webhook_outbox_delivery_lag_seconds') ?? 0) >= 300);
    assert.equal(sampleValue(later, 'openibs_webhook_failed_events'), 0);
  });

  it('counts the webhook events that failed for good (no URL to send them to)', async () => {
    const cleared = await testApp.app.inject({
      method: 'PUT',
      url: '/webhooks/settings',
      headers,
      payload: { url: null },
    });
    assert.equal(cleared.statusCode, 200, cleared.body);
    await sandboxCredit(testApp.app, accountNumber, 1_000);
    await deliveryRound(testApp);
    const exposition = await scrape();
    // The new event and those that waited for a retry: refused, so failed until a replay.
    assert.ok((sampleValue(exposition, 'openibs_webhook_failed_events') ?? 0) >= 1);
    assert.equal(sampleValue(exposition, 'openibs_webhook_outbox_waiting_events'), 0);
    assert.equal(sampleValue(exposition, 'openibs_webhook_outbox_oldest_age_seconds'), 0);
  });

  it('shows the status-query backlog: a NIP transfer whose outcome is unknown', async () => {
    const before = await scrape();
    const backlog = (exposition: Exposition, kind: string) =>
      sampleValue(exposition, 'openibs_status_query_backlog', { kind });
    assert.equal(backlog(before, 'vas_purchase'), 0);
    assert.equal(backlog(before, 'ussd_reference'), 0);
    // The NIP simulator times out on amounts ending .97 (docs/sandbox-nip.md): Processing.
    const sent = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: accountNumber,
      amount: 200.97,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.equal(sent.json().data.status, 'Processing');
    const after = await scrape();
    assert.equal((backlog(after, 'nip_transfer') ?? 0) - (backlog(before, 'nip_transfer') ?? 0), 1);
  });

  it('is not in the API reference', async () => {
    const document = (await testApp.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.equal(document.paths['/metrics'], undefined);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const token = 'metrics-token-0123456789abcdefghijklmnopqrstuv';
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp({ METRICS_TOKEN: token });
  });
  after(() => testApp.close());

  const scrape = (authorization?: string) =>
    testApp.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: authorization === undefined ? {} : { authorization },
    });

  it('401 without the token, with another one, or with it in another scheme', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${token}x`,
      'Bearer wrong',
      `Basic ${token}`,
      token,
    ]) {
      const response = await scrape(authorization);
      assert.equal(response.statusCode, 401, String(authorization));
      assert.equal(response.json().code, 'UNAUTHORIZED');
      assert.doesNotMatch(response.body, /openibs_/);
    }
  });

  it('200 with Authorization: Bearer <METRICS_TOKEN>', async () => {
    const response = await scrape(`Bearer ${token}`);
    assert.equal(response.statusCode, 200);
    assert.ok(parseExposition(response.body).types.has('openibs_http_requests_total'));
  });
});
