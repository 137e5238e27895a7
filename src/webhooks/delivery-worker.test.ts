import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  adminHeaders,
  createClient,
  sandboxCredit,
  type TestClient,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { WebhookReceiver } from '../../test/webhook-receiver.ts';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '../config/config.ts';
import { createDeliveryWorker, type DeliveryWorker } from './delivery-worker.ts';
import { createHttpSender, type WebhookSender } from './http-sender.ts';

// The published `transfer` webhook example: every field and the JSON type of its value.
const PUBLISHED_TRANSFER_FIELDS: Record<string, string> = {
  _id: 'string',
  client: 'string',
  account: 'string',
  type: 'string',
  sessionId: 'string',
  nameEnquiryReference: 'string',
  paymentReference: 'string',
  mandateReference: 'null',
  isReversed: 'boolean',
  reversalReference: 'null',
  provider: 'string',
  providerChannel: 'string',
  providerChannelCode: 'string',
  destinationInstitutionCode: 'string',
  creditAccountName: 'string',
  creditAccountNumber: 'string',
  creditBankVerificationNumber: 'null',
  creditKYCLevel: 'string',
  debitAccountName: 'string',
  debitAccountNumber: 'string',
  debitBankVerificationNumber: 'null',
  debitKYCLevel: 'string',
  transactionLocation: 'string',
  narration: 'string',
  amount: 'number',
  fees: 'number',
  vat: 'number',
  stampDuty: 'number',
  responseCode: 'string',
  responseMessage: 'string',
  status: 'string',
  isDeleted: 'boolean',
  createdAt: 'string',
  updatedAt: 'string',
  __v: 'number',
  approvedAt: 'string',
};

const jsonType = (value: unknown) => (value === null ? 'null' : typeof value);

describe('webhook delivery', () => {
  let testApp: TestApp;
  const receiver = new WebhookReceiver();
  let sender: WebhookSender;
  let worker: DeliveryWorker;
  let client: TestClient;
  let secret: string;

  before(async () => {
    // Near real time: standardwebhooks refuses timestamps more than 5 minutes from now.
    testApp = await buildTestApp({}, { clockStart: new Date() });
    await receiver.start();
    sender = createHttpSender({
      timeoutMs: 300,
      policy: { requireHttps: false, allowLoopback: true, allowPrivate: false },
    });
    worker = createDeliveryWorker({
      db: testApp.db,
      clock: testApp.clock,
      sender,
      retryScheduleSeconds: DEFAULT_RETRY_SCHEDULE_SECONDS,
      timeoutMs: 300,
      batchSize: 10,
      pollIntervalMs: 10,
    });
  });
  after(async () => {
    sender.close();
    await receiver.stop();
    await testApp.close();
  });
  beforeEach(async () => {
    // Each test starts at real time with no leftovers queued by the previous one.
    testApp.clock.set(new Date());
    await testApp.db.query("UPDATE webhook_events SET status = 'failed' WHERE status = 'pending'");
    receiver.mode = 'ok';
    client = await createClient(testApp.app, 'Hooked Ltd');
    secret = (await setWebhookUrl(receiver.url())).secret;
  });
  afterEach(() => {
    receiver.requests.length = 0;
    receiver.processed.clear();
  });

  async function setWebhookUrl(url: string | null) {
    const response = await testApp.app.inject({
      method: 'PUT',
      url: `/admin/clients/${client.ibsClientId}/webhook`,
      headers: adminHeaders,
      payload: { url },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data as { url: string; secret: string };
  }

  async function eventOf(transferId: string) {
    const rows = await testApp.db.query<{ id: string; status: string; attempts: number }>(
      "SELECT id, status, attempts FROM webhook_events WHERE payload->'data'->>'_id' = $1",
      [transferId],
    );
    assert.equal(rows.length, 1, 'one event per transfer');
    return rows[0] as { id: string; status: string; attempts: number };
  }

  async function attemptsOf(eventId: string) {
    return testApp.db.query<{ attempt: number; status_code: number | null; error: string | null }>(
      'SELECT attempt, status_code, error FROM webhook_attempts WHERE event_id = $1 ORDER BY attempt',
      [eventId],
    );
  }

  it('delivers a signed `transfer` event shaped like the published example, field for field', async () => {
    const transfer = await sandboxCredit(testApp.app, client.mainAccountNumber, 100);
    assert.equal(await worker.runOnce(), 1);
    assert.equal(receiver.requests.length, 1);
    const [request] = receiver.requests;
    assert.ok(request);
    const verified = new Webhook(secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    }) as { type: string; data: Record<string, unknown> };
    assert.equal(verified.type, 'transfer');
    assert.deepEqual(verified.data, transfer, 'data is the object the API returned');
    const fields = Object.fromEntries(
      Object.entries(verified.data).map(([key, value]) => [key, jsonType(value)]),
    );
    assert.deepEqual(fields, PUBLISHED_TRANSFER_FIELDS);
    assert.equal(verified.data.type, 'Inwards');
    const event = await eventOf(transfer._id);
    assert.equal(request.headers['webhook-id'], event.id);
    assert.equal(event.status, 'delivered');
    assert.deepEqual(await attemptsOf(event.id), [{ attempt: 1, status_code: 200, error: null }]);
    const inbox = await testApp.db.query('SELECT 1 FROM webhook_inbox');
    assert.equal(inbox.length, 0, 'only the sandbox keeps the bytes sent (its inbox)');
  });

  it('retries through a refused connection and a 500, then delivers once with the same webhook-id', async () => {
    const port = Number(new URL(receiver.url()).port);
    await receiver.stop();
    const transfer = await sandboxCredit(testApp.app, client.mainAccountNumber, 250);
    const event = await eventOf(transfer._id);

    await worker.runOnce();
    assert.equal(await worker.runOnce(), 0, 'not due again before its backoff');
    testApp.clock.advanceSeconds(5);
    await receiver.start(port);
    receiver.mode = 'error';
    await worker.runOnce();
    // The event says why its last attempt failed: the receiver's status when it answered.
    const [afterError] = await testApp.db.query<{ last_error: string | null }>(
      'SELECT last_error FROM webhook_events WHERE id = $1',
      [event.id],
    );
    assert.equal(afterError?.last_error, 'HTTP 500');
    testApp.clock.advanceSeconds(299);
    assert.equal(await worker.runOnce(), 0, 'the second retry waits five minutes');
    testApp.clock.advanceSeconds(1);
    receiver.mode = 'ok';
    await worker.runOnce();
    testApp.clock.advanceSeconds(86_400);
    assert.equal(await worker.runOnce(), 0, 'nothing left to send');

    const attempts = await attemptsOf(event.id);
    assert.deepEqual(
      attempts.map((attempt) => attempt.status_code),
      [null, 500, 200],
    );
    assert.match(attempts[0]?.error ?? '', /ECONNREFUSED/);
    assert.deepEqual(
      new Set(receiver.requests.map((request) => request.headers['webhook-id'])),
      new Set([event.id]),
    );
    assert.deepEqual([...receiver.processed.entries()], [[event.id, 1]]);
    assert.equal((await eventOf(transfer._id)).status, 'delivered');
  });

  it('records a timeout as a failed attempt and retries it', async () => {
    receiver.mode = 'hang';
    const transfer = await sandboxCredit(testApp.app, client.mainAccountNumber, 10);
    await worker.runOnce();
    const event = await eventOf(transfer._id);
    assert.equal(event.status, 'pending');
    const [attempt] = await attemptsOf(event.id);
    assert.match(attempt?.error ?? '', /ETIMEDOUT/);
  });

  it('fails after the last retry, and a replay of failed events delivers it', async () => {
    const shortWorker = createDeliveryWorker({
      db: testApp.db,
      clock: testApp.clock,
      sender,
      retryScheduleSeconds: [1],
      timeoutMs: 300,
      batchSize: 10,
      pollIntervalMs: 10,
    });
    receiver.mode = 'error';
    const since = testApp.clock.now();
    const transfer = await sandboxCredit(testApp.app, client.mainAccountNumber, 20);
    await shortWorker.runOnce();
    testApp.clock.advanceSeconds(1);
    await shortWorker.runOnce();
    assert.equal((await eventOf(transfer._id)).status, 'failed');

    receiver.mode = 'ok';
    const replayed = await testApp.services.webhookService.replayFailedSince(
      client.ibsClientId,
      since,
    );
    assert.equal(replayed, 1);
    await shortWorker.runOnce();
    const event = await eventOf(transfer._id);
    assert.equal(event.status, 'delivered');
    assert.equal(event.attempts, 3);
  });

  it('disables the endpoint on 410 Gone; a new URL enables it again', async () => {
    receiver.mode = 'gone';
    const first = await sandboxCredit(testApp.app, client.mainAccountNumber, 30);
    await worker.runOnce();
    assert.equal((await eventOf(first._id)).status, 'failed');
    const settings = await testApp.services.webhookService.getSettings(client.ibsClientId);
    assert.notEqual(settings.disabledAt, null);

    const second = await sandboxCredit(testApp.app, client.mainAccountNumber, 40);
    const requestsBefore = receiver.requests.length;
    await worker.runOnce();
    assert.equal(receiver.requests.length, requestsBefore, 'a disabled endpoint gets nothing');
    const [refused] = await attemptsOf((await eventOf(second._id)).id);
    assert.match(refused?.error ?? '', /disabled/);

    receiver.mode = 'ok';
    await setWebhookUrl(receiver.url('/v2'));
    await testApp.services.webhookService.replay(
      client.ibsClientId,
      (await eventOf(second._id)).id,
    );
    await worker.runOnce();
    assert.equal((await eventOf(second._id)).status, 'delivered');
    assert.equal(receiver.requests.at(-1)?.path, '/v2');
  });

  it("sends to the account's own callbackUrl instead of the client URL", async () => {
    await testApp.db.query('UPDATE accounts SET callback_url = $2 WHERE id = $1', [
      client.mainAccountId,
      receiver.url('/account-callback'),
    ]);
    const transfer = await sandboxCredit(testApp.app, client.mainAccountNumber, 50);
    await worker.runOnce();
    assert.equal(receiver.requests.at(-1)?.path, '/account-callback');
    assert.equal((await eventOf(transfer._id)).status, 'delivered');
  });

  it('keeps an event with no destination as failed, and delivers it on replay once a URL is set', async () => {
    await setWebhookUrl(null);
    const transfer = await sandboxCredit(testApp.app, client.mainAccountNumber, 60);
    await worker.runOnce();
    assert.equal(receiver.requests.length, 0);
    const event = await eventOf(transfer._id);
    assert.equal(event.status, 'failed');
    await setWebhookUrl(receiver.url());
    await testApp.services.webhookService.replay(client.ibsClientId, event.id);
    await worker.runOnce();
    assert.equal((await eventOf(transfer._id)).status, 'delivered');
  });

  it('runs two rounds at once: the second claims and sends while the first waits', async () => {
    // A receiver that answers once four requests are open at once (or after 2 s each): with
    // rounds of two events, only two rounds in flight ever have four open.
    const open: ServerResponse[] = [];
    let mostOpen = 0;
    const answerAll = () => {
      for (const response of open.splice(0)) {
        response.writeHead(200).end();
      }
    };
    const slow = createServer((request, response) => {
      request.resume();
      open.push(response);
      mostOpen = Math.max(mostOpen, open.length);
      if (open.length >= 4) {
        answerAll();
      } else {
        setTimeout(answerAll, 2_000).unref();
      }
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    await setWebhookUrl(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/hooks`);
    for (const amount of [81, 82, 83, 84]) {
      await sandboxCredit(testApp.app, client.mainAccountNumber, amount);
    }
    const twoRounds = createDeliveryWorker({
      db: testApp.db,
      clock: testApp.clock,
      sender,
      retryScheduleSeconds: DEFAULT_RETRY_SCHEDULE_SECONDS,
      timeoutMs: 5_000,
      batchSize: 2,
      pollIntervalMs: 10,
      roundsInFlight: 2,
    });
    try {
      twoRounds.start();
      const deadline = Date.now() + 10_000;
      let delivered = 0;
      while (delivered < 4 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const [row] = await testApp.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM webhook_events WHERE client_id = $1 AND status = 'delivered'",
          [client.ibsClientId],
        );
        delivered = Number(row?.n);
      }
      assert.equal(delivered, 4);
      assert.equal(mostOpen, 4, 'both rounds had their sends open at once');
      const attempts = await testApp.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_events e ON e.id = a.event_id
          WHERE e.client_id = $1`,
        [client.ibsClientId],
      );
      assert.equal(Number(attempts[0]?.n), 4, 'each event attempted once');
    } finally {
      await twoRounds.stop();
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it('signs with the old and the new secret during a rotation', async () => {
    const old = secret;
    const rotated = await testApp.services.webhookService.updateSettings(client.ibsClientId, {
      rotateSecret: true,
    });
    assert.notEqual(rotated.secret, old);
    await sandboxCredit(testApp.app, client.mainAccountNumber, 70);
    await worker.runOnce();
    const [request] = receiver.requests;
    assert.ok(request);
    const headers = {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    };
    new Webhook(old).verify(request.body, headers);
    new Webhook(rotated.secret).verify(request.body, headers);
    testApp.clock.advanceSeconds(testApp.config.webhooks.secretRotationGraceSeconds + 1);
    const later = await testApp.services.webhookService.getSettings(client.ibsClientId);
    assert.equal(later.secret, rotated.secret);
  });
});
