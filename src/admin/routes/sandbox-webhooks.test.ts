import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { adminHeaders, createClient, sandboxCredit } from '../../../test/factories.ts';
import { inProduction } from '../../../test/sandbox-controls.ts';
import {
  describeAdminAuthGuards,
  describeAdminRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';
import { WebhookReceiver } from '../../../test/webhook-receiver.ts';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '../../config/config.ts';
import { createDeliveryWorker, type DeliveryWorker } from '../../webhooks/delivery-worker.ts';
import { createHttpSender, type WebhookSender } from '../../webhooks/http-sender.ts';

interface Entry {
  _id: string;
  eventId: string;
  attempt: number;
  clientId: string;
  type: string;
  url: string | null;
  requestHeaders: Record<string, string>;
  requestBody: string;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  attemptedAt: string;
}

describe('GET /admin/sandbox/webhooks', () => {
  const context = useRouteContext();
  const receiver = new WebhookReceiver();
  let sender: WebhookSender;
  let worker: DeliveryWorker;

  before(async () => {
    await receiver.start();
    // Near real time: a receiver's library refuses webhook timestamps far from its own clock.
    context().testApp.clock.set(new Date());
    sender = createHttpSender({
      timeoutMs: 1_000,
      policy: { requireHttps: false, allowLoopback: true, allowPrivate: false },
    });
    // The sandbox's delivery worker, as background-workers.ts builds it there.
    worker = createDeliveryWorker({
      db: context().testApp.db,
      clock: context().testApp.clock,
      sender,
      retryScheduleSeconds: DEFAULT_RETRY_SCHEDULE_SECONDS,
      timeoutMs: 1_000,
      batchSize: 50,
      pollIntervalMs: 10,
      inbox: true,
    });
  });
  after(async () => {
    sender.close();
    await receiver.stop();
  });

  const inbox = async (query: string) => {
    const response = await context().testApp.app.inject({
      method: 'GET',
      url: `/admin/sandbox/webhooks${query}`,
      headers: adminHeaders,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as { data: Entry[]; pagination: { total: number } };
  };
  const setUrl = async (clientId: string, url: string | null) =>
    (
      await context().testApp.app.inject({
        method: 'PUT',
        url: `/admin/clients/${clientId}/webhook`,
        headers: adminHeaders,
        payload: { url },
      })
    ).json().data as { url: string | null; secret: string };

  describe('200: every attempt, as sent and answered', () => {
    it('records the exact signed bytes and headers the receiver got, and its answer', async () => {
      const client = await createClient(context().testApp.app, 'Receiver Ltd');
      const { secret } = await setUrl(client.ibsClientId, receiver.url());
      const credit = await sandboxCredit(context().testApp.app, client.mainAccountNumber, 75);
      await worker.runOnce();
      const { data } = await inbox(`?clientId=${client.ibsClientId}`);
      assert.equal(data.length, 1);
      const [entry] = data as [Entry];
      const received = receiver.requests.find(
        (request) => request.headers['webhook-id'] === entry.eventId,
      );
      assert.ok(received, 'the receiver got the attempt');
      assert.equal(entry.requestBody, received.body, 'byte for byte');
      for (const [name, value] of Object.entries(entry.requestHeaders)) {
        assert.equal(received.headers[name], value, name);
      }
      assert.deepEqual(
        [entry.url, entry.attempt, entry.type, entry.responseStatus, entry.responseBody],
        [receiver.url(), 1, 'transfer', 200, 'answered 200'],
      );
      assert.equal(JSON.parse(entry.requestBody).data._id, credit._id);
      new Webhook(secret).verify(entry.requestBody, entry.requestHeaders);
    });

    it('records an event for a client with no webhook URL, signed, with url null', async () => {
      const client = await createClient(context().testApp.app, 'No Receiver Ltd');
      const { secret } = await setUrl(client.ibsClientId, null);
      await sandboxCredit(context().testApp.app, client.mainAccountNumber, 75);
      await worker.runOnce();
      const [entry] = (await inbox(`?clientId=${client.ibsClientId}&type=transfer`)).data as [
        Entry,
      ];
      assert.deepEqual(
        [entry.url, entry.responseStatus, entry.responseBody, entry.error],
        [null, null, null, 'no webhook URL is configured'],
      );
      assert.equal(JSON.parse(entry.requestBody).type, 'transfer');
      new Webhook(secret).verify(entry.requestBody, entry.requestHeaders);
    });

    it('newest first, filtered by type, time and cursor, and paged', async () => {
      const client = await createClient(context().testApp.app, 'Many Events Ltd');
      await setUrl(client.ibsClientId, null);
      for (const amount of [1, 2, 3]) {
        await sandboxCredit(context().testApp.app, client.mainAccountNumber, amount);
        await worker.runOnce();
      }
      const all = (await inbox(`?clientId=${client.ibsClientId}`)).data;
      const amounts = all.map((entry) => JSON.parse(entry.requestBody).data.amount);
      assert.deepEqual(amounts, [3, 2, 1]);
      const after = await inbox(`?clientId=${client.ibsClientId}&after=${all[2]?._id}`);
      assert.deepEqual(
        after.data.map((entry) => entry._id),
        [all[0]?._id, all[1]?._id],
      );
      const paged = await inbox(`?clientId=${client.ibsClientId}&page=1&limit=2`);
      assert.deepEqual(
        [paged.data.map((entry) => entry._id), paged.pagination.total],
        [[all[2]?._id], 3],
      );
      const future = new Date(Date.parse(all[0]?.attemptedAt ?? '') + 1).toISOString();
      assert.equal((await inbox(`?since=${future}`)).pagination.total, 0);
      assert.equal(
        (await inbox(`?clientId=${client.ibsClientId}&type=vas.transaction`)).pagination.total,
        0,
      );
    });
  });

  describe('200 with wait: a long poll', () => {
    it('answers as soon as a matching attempt is recorded', async () => {
      const client = await createClient(context().testApp.app, 'Waiting Ltd');
      await setUrl(client.ibsClientId, null);
      const started = Date.now();
      const waiting = inbox(`?clientId=${client.ibsClientId}&wait=10`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await sandboxCredit(context().testApp.app, client.mainAccountNumber, 10);
      await worker.runOnce();
      const { data } = await waiting;
      assert.equal(data.length, 1);
      assert.ok(Date.now() - started >= 300 && Date.now() - started < 5_000);
    });

    it('answers an empty list once the wait is over', async () => {
      const started = Date.now();
      const { data } = await inbox('?type=nothing-ever&wait=0.3');
      assert.deepEqual(data, []);
      assert.ok(Date.now() - started >= 300);
    });
  });

  describe('400: bad queries', () => {
    const refused: [string, string][] = [
      ['a wait over 30 seconds', '?wait=31'],
      ['a negative wait', '?wait=-1'],
      ['a cursor that is no entry id', '?after=abc'],
      ['a time that is no time', '?since=yesterday'],
      ['a limit over 100', '?limit=101'],
    ];
    for (const [label, query] of refused) {
      it(`refuses ${label}`, async () => {
        const response = await context().testApp.app.inject({
          method: 'GET',
          url: `/admin/sandbox/webhooks${query}`,
          headers: adminHeaders,
        });
        assert.equal(response.statusCode, 400, response.body);
      });
    }
  });

  describeAdminRecordIsolation(context, (clientId) => ({
    method: 'GET',
    url: `/admin/sandbox/webhooks?clientId=${clientId}`,
  }));

  describe('403: sandbox only', () => {
    it('production keeps no inbox: reading it is refused', async () => {
      const [answer] = await inProduction([{ method: 'GET', url: '/admin/sandbox/webhooks' }]);
      assert.equal(answer?.statusCode, 403, answer?.body);
      assert.equal(answer?.json().code, 'SANDBOX_ONLY');
    });
  });

  describeAdminAuthGuards(context, () => ({ method: 'GET', url: '/admin/sandbox/webhooks' }));
});
