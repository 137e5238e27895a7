// PostgreSQL only: two delivery workers, each on its own connection pool, race for the same
// outbox rows. Only real concurrent sessions exercise FOR UPDATE SKIP LOCKED and the attempts
// fence; embedded PGlite is a single session, so the workers could never overlap there.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import type { Db } from '../../src/db/db.ts';
import { createPgDb } from '../../src/db/pg-db.ts';
import { createServices } from '../../src/services.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { createDeliveryWorker, type DeliveryWorker } from '../../src/webhooks/delivery-worker.ts';
import { createHttpSender, type WebhookSender } from '../../src/webhooks/http-sender.ts';
import { enqueueEvent } from '../../src/webhooks/outbox.ts';
import { TEST_SECRETS } from '../harness.ts';
import { createTestDb, type TestDb } from '../test-db.ts';

const EVENT_COUNT = 1_000;
const EVENTS_PER_TRANSACTION = 50;
const DELIVERY_TIMEOUT_MS = 45_000;
const SEND_TIMEOUT_MS = 5_000;
/** About 10% of events: the first attempt of these answers 500, the retry 200. */
const FAIL_FIRST_BELOW = 26;

/** Deterministic: whether the receiver fails this webhook-id's first attempt. */
function failsFirst(webhookId: string): boolean {
  return (createHash('sha256').update(webhookId).digest()[0] as number) < FAIL_FIRST_BELOW;
}

interface Receiver {
  readonly url: string;
  /** Requests received per webhook-id, with the status each was answered. */
  readonly answers: Map<string, number[]>;
  /** Every time a webhook-id arrived while a request with that id was still in flight. */
  readonly violations: string[];
  requestCount(): number;
  close(): Promise<void>;
}

/**
 * Answers after 0-5 ms; 500 for the first arrival of a failsFirst id, 200 otherwise. Tracks the
 * requests in flight per webhook-id, from arrival until the answer is written.
 */
async function startReceiver(): Promise<Receiver> {
  const answers = new Map<string, number[]>();
  const inFlight = new Map<string, number>();
  const violations: string[] = [];
  let requests = 0;
  const server = http.createServer((request, response) => {
    requests += 1;
    const id = String(request.headers['webhook-id']);
    const concurrent = (inFlight.get(id) ?? 0) + 1;
    inFlight.set(id, concurrent);
    if (concurrent > 1) {
      violations.push(`${id}: ${concurrent} requests in flight at once`);
    }
    const answered = answers.get(id) ?? [];
    const status = answered.length === 0 && failsFirst(id) ? 500 : 200;
    answered.push(status);
    answers.set(id, answered);
    request.resume();
    request.on('end', () => {
      setTimeout(() => {
        response.on('finish', () => inFlight.set(id, (inFlight.get(id) ?? 1) - 1));
        response.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
      }, Math.random() * 5);
    });
  });
  // Idle keep-alive sockets stay open for the whole run: a socket the receiver closed just as a
  // sender reused it would fail one attempt with ECONNRESET, which is not what this test is about.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    answers,
    violations,
    requestCount: () => requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A sender that counts what it sends, so the test knows which worker did the work. */
function countingSender(inner: WebhookSender, sent: string[]): WebhookSender {
  return {
    send(url, headers, body) {
      sent.push(headers['webhook-id'] ?? '');
      return inner.send(url, headers, body);
    },
    close: () => inner.close(),
  };
}

interface TestWorker {
  readonly name: string;
  readonly db: Db;
  readonly sender: WebhookSender;
  readonly worker: DeliveryWorker;
  readonly sent: string[];
  readonly errors: unknown[];
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('two delivery workers on one PostgreSQL (PostgreSQL)', { timeout: 120_000 }, () => {
  let testDb: TestDb;
  let receiver: Receiver;
  const workers: TestWorker[] = [];
  const eventIds: string[] = [];

  function buildWorker(name: string, url: string): TestWorker {
    const db = createPgDb({ connectionString: url, poolSize: 10, applicationName: name });
    const sent: string[] = [];
    const errors: unknown[] = [];
    const sender = countingSender(
      createHttpSender({
        timeoutMs: SEND_TIMEOUT_MS,
        policy: { requireHttps: false, allowLoopback: true, allowPrivate: false },
      }),
      sent,
    );
    const worker = createDeliveryWorker({
      db,
      clock: systemClock,
      sender,
      // A failed first attempt is due again 50 ms later; a second failure would give up.
      retryScheduleSeconds: [0.05],
      timeoutMs: SEND_TIMEOUT_MS,
      batchSize: 25,
      pollIntervalMs: 20,
      onError: (error) => errors.push(error),
    });
    return { name, db, sender, worker, sent, errors };
  }

  before(async () => {
    testDb = await createTestDb({ poolSize: 20 });
    assert.ok(testDb.url !== undefined, 'createTestDb gave a PostgreSQL database');
    receiver = await startReceiver();
    const config = loadConfig({ PUBLIC_BASE_URL: 'http://x' });
    const services = createServices({
      config,
      db: testDb.db,
      clock: systemClock,
      secrets: TEST_SECRETS,
    });
    const { client } = await services.clientService.createClient({ name: 'Busy Receiver Ltd' });
    await services.webhookService.updateSettings(client.id, { url: receiver.url });
    for (let first = 0; first < EVENT_COUNT; first += EVENTS_PER_TRANSACTION) {
      const ids = await testDb.db.transaction(async (tx) => {
        const written: string[] = [];
        for (let seq = first; seq < first + EVENTS_PER_TRANSACTION; seq += 1) {
          written.push(
            await enqueueEvent(tx, systemClock, {
              clientId: client.id,
              type: 'transfer',
              data: { _id: `transfer-${seq}`, seq },
            }),
          );
        }
        return written;
      });
      eventIds.push(...ids);
    }
    workers.push(buildWorker('worker-a', testDb.url), buildWorker('worker-b', testDb.url));
  });

  after(async () => {
    await Promise.all(workers.map(({ worker }) => worker.stop()));
    for (const { db, sender } of workers) {
      sender.close();
      await db.close();
    }
    await receiver?.close();
    await testDb?.close();
  });

  test('deliver 1,000 events, each exactly once with a 200, never two attempts at once', async () => {
    assert.equal(new Set(eventIds).size, EVENT_COUNT);
    const started = Date.now();
    for (const { worker } of workers) {
      worker.start();
    }
    const deadline = started + DELIVERY_TIMEOUT_MS;
    for (;;) {
      const rows = await testDb.db.query<{ status: string; events: bigint }>(
        'SELECT status, count(*) AS events FROM webhook_events GROUP BY status',
      );
      const count = (status: string) =>
        Number(rows.find((row) => row.status === status)?.events ?? 0n);
      if (count('delivered') === EVENT_COUNT) {
        break;
      }
      // A failed event never becomes delivered: stop waiting, say why.
      if (count('failed') > 0 || Date.now() > deadline) {
        assert.fail(
          `${count('delivered')} delivered, ${count('failed')} failed, ` +
            `${count('pending')} pending after ${Date.now() - started} ms; ` +
            `${receiver.violations.length} in-flight violations: ` +
            `${receiver.violations.slice(0, 5).join('; ')}; worker errors: ` +
            workers.flatMap(({ errors }) => errors.map(String)).join('; '),
        );
      }
      await sleep(100);
    }
    await Promise.all(workers.map(({ worker }) => worker.stop()));
    const elapsedMs = Date.now() - started;

    // The receiver never saw one webhook-id twice at the same time.
    assert.deepEqual(receiver.violations, []);
    for (const { name, errors } of workers) {
      assert.deepEqual(errors.map(String), [], `${name} reported no errors`);
    }

    // Every event delivered, every id received, each acknowledged with exactly one 200.
    const statuses = await testDb.db.query<{ status: string; events: bigint }>(
      'SELECT status, count(*) AS events FROM webhook_events GROUP BY status',
    );
    assert.deepEqual(statuses, [{ status: 'delivered', events: BigInt(EVENT_COUNT) }]);
    assert.deepEqual([...receiver.answers.keys()].sort(), [...eventIds].sort());
    for (const [id, answered] of receiver.answers) {
      assert.equal(answered.filter((status) => status === 200).length, 1, `${id}: ${answered}`);
      assert.equal(answered.at(-1), 200, `${id}: the 200 is the last answer`);
      // 500 only for the chosen ~10%, and only on their first attempt.
      assert.deepEqual(answered, failsFirst(id) ? [500, 200] : [200], id);
    }
    const retried = eventIds.filter(failsFirst).length;
    assert.ok(retried > 0, 'some events needed a retry');

    // One attempt row per request; attempt numbers 1..n per event, matching the counter.
    const attemptCount = await testDb.db.query<{ attempts: bigint }>(
      'SELECT count(*) AS attempts FROM webhook_attempts',
    );
    assert.equal(Number(attemptCount[0]?.attempts), receiver.requestCount());
    assert.equal(receiver.requestCount(), EVENT_COUNT + retried);
    const perEvent = await testDb.db.query<{
      id: string;
      attempts: number;
      numbers: number[];
      codes: (number | null)[];
    }>(
      `SELECT e.id, e.attempts, array_agg(a.attempt ORDER BY a.attempt) AS numbers,
              array_agg(a.status_code ORDER BY a.attempt) AS codes
         FROM webhook_events e JOIN webhook_attempts a ON a.event_id = e.id
        GROUP BY e.id, e.attempts`,
    );
    assert.equal(perEvent.length, EVENT_COUNT);
    for (const row of perEvent) {
      const expected = Array.from({ length: row.numbers.length }, (_, index) => index + 1);
      assert.deepEqual(row.numbers, expected, `${row.id}: attempts numbered 1..n`);
      assert.equal(row.attempts, row.numbers.length, `${row.id}: no claim without an attempt`);
      assert.deepEqual(row.codes, receiver.answers.get(row.id), `${row.id}: recorded as answered`);
    }

    // Both workers took part, and between them sent exactly what the receiver got.
    const [a, b] = workers.map(({ sent }) => sent.length) as [number, number];
    assert.ok(a > 0 && b > 0, `both workers sent webhooks (a: ${a}, b: ${b})`);
    assert.equal(a + b, receiver.requestCount());
    const byBoth = workers.map(({ sent }) => new Set(sent));
    const shared = eventIds.filter((id) => byBoth.every((ids) => ids.has(id)));
    // Only a retried event can have been sent by both workers.
    assert.ok(
      shared.every(failsFirst),
      `ids sent by both but not retried: ${shared.filter((id) => !failsFirst(id))}`,
    );
    console.log(
      `  ${EVENT_COUNT} events, ${receiver.requestCount()} requests (${retried} retries) in ` +
        `${elapsedMs} ms; worker-a sent ${a}, worker-b sent ${b}, ${shared.length} ids by both`,
    );
  });
});
