import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { creditWebhookEvent } from '../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

describe('webhook deliveries: GET /webhooks/deliveries[/:id], POST …/:id/replay, POST …/replay', () => {
  const context = useRouteContext();
  const call = (
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    headers = context().headers,
  ) => context().testApp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  const creditAndFindEvent = () => {
    const { testApp, headers, ownAccountNumber } = context();
    return creditWebhookEvent(testApp.app, headers, ownAccountNumber);
  };
  const theirEvent = () => {
    const { testApp, otherHeaders, otherAccountNumber } = context();
    return creditWebhookEvent(testApp.app, otherHeaders, otherAccountNumber);
  };
  const setStatus = (eventId: string, status: 'failed' | 'delivered') =>
    context().testApp.db.query('UPDATE webhook_events SET status = $2 WHERE id = $1', [
      eventId,
      status,
    ]);

  describe('GET /webhooks/deliveries', () => {
    describe('200: your events, newest first, with their attempts', () => {
      it('lists your events with their payload and attempts; others see none of them', async () => {
        const delivery = await creditAndFindEvent();
        assert.match(delivery._id, /^msg_/);
        assert.equal(delivery.status, 'pending');
        const filtered = (await call('GET', '/webhooks/deliveries?status=delivered')).json();
        assert.ok(filtered.data.every((item: { status: string }) => item.status === 'delivered'));
        const theirs = (
          await call('GET', '/webhooks/deliveries', undefined, context().otherHeaders)
        ).json();
        assert.ok(theirs.data.every((item: { _id: string }) => item._id !== delivery._id));
        const one = await call('GET', `/webhooks/deliveries/${delivery._id}`);
        assert.equal(one.statusCode, 200);
        assert.deepEqual(one.json().data.payload, delivery.payload);
        const foreign = await call(
          'GET',
          `/webhooks/deliveries/${delivery._id}`,
          undefined,
          context().otherHeaders,
        );
        assert.equal(foreign.statusCode, 400);
        assert.equal(foreign.json().message, 'Unable to locate record');
      });

      it('filters by status and type, and paginates', async () => {
        const event = await creditAndFindEvent();
        await setStatus(event._id, 'delivered');
        const delivered = (await call('GET', '/webhooks/deliveries?status=delivered')).json();
        assert.deepEqual(
          delivered.data.map((item: { _id: string }) => item._id),
          [event._id],
        );
        const unknownType = (await call('GET', '/webhooks/deliveries?type=nothing.here')).json();
        assert.deepEqual(unknownType.data, []);
        const page = (await call('GET', '/webhooks/deliveries?page=0&limit=1')).json();
        assert.equal(page.data.length, 1);
        assert.equal(page.pagination.limit, '1');
        assert.ok(page.pagination.total >= 2);
      });
    });

    describe('400: bad filters', () => {
      it('refuses a bad status filter and a missing since', async () => {
        assert.equal((await call('GET', '/webhooks/deliveries?status=lost')).statusCode, 400);
        assert.equal((await call('POST', '/webhooks/deliveries/replay', {})).statusCode, 400);
      });
    });

    describeAuthGuards(context, () => ({ method: 'GET', url: '/webhooks/deliveries' }));
  });

  describe('GET /webhooks/deliveries/:id', () => {
    describe('200: one event with its attempts', () => {
      it('answers the delivery in the published shape', async () => {
        const event = await creditAndFindEvent();
        const response = await call('GET', `/webhooks/deliveries/${event._id}`);
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json();
        assert.equal(body.message, 'Webhook delivery fetched successfully.');
        assert.equal(body.data._id, event._id);
        assert.equal(body.data.type, 'transfer');
        assert.equal(body.data.status, 'pending');
        assert.equal(body.data.attemptCount, 0);
        assert.deepEqual(body.data.attempts, []);
        assert.deepEqual(body.data, event);
      });
    });

    const request = (id: string) => ({ method: 'GET' as const, url: `/webhooks/deliveries/${id}` });
    describeAuthGuards(context, request);
    describeRecordIsolation(context, request, { foreignId: async () => (await theirEvent())._id });
  });

  describe('POST /webhooks/deliveries/:id/replay', () => {
    describe('200: the event, queued again with the same id', () => {
      it('replays one event, and every failed event since a time', async () => {
        const { testApp } = context();
        const delivery = await creditAndFindEvent();
        await testApp.db.query("UPDATE webhook_events SET status = 'failed' WHERE id = $1", [
          delivery._id,
        ]);
        const one = await call('POST', `/webhooks/deliveries/${delivery._id}/replay`);
        assert.equal(one.statusCode, 200, one.body);
        assert.equal(one.json().data.status, 'pending');
        await testApp.db.query("UPDATE webhook_events SET status = 'failed' WHERE id = $1", [
          delivery._id,
        ]);
        const bulk = await call('POST', '/webhooks/deliveries/replay', { since: '2020-01-01' });
        assert.equal(bulk.json().data.replayed, 1);
        const none = await call(
          'POST',
          '/webhooks/deliveries/replay',
          { since: '2020-01-01' },
          context().otherHeaders,
        );
        assert.equal(none.json().data.replayed, 0);
      });

      it('replays a delivered event too', async () => {
        const event = await creditAndFindEvent();
        await setStatus(event._id, 'delivered');
        const response = await call('POST', `/webhooks/deliveries/${event._id}/replay`);
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json().message, 'Webhook delivery queued again.');
        assert.equal(response.json().data._id, event._id);
        assert.equal(response.json().data.status, 'pending');
      });
    });

    describe("400: another client's event is not touched", () => {
      it('answers "Unable to locate record" and leaves their event as it was', async () => {
        const theirs = await theirEvent();
        await setStatus(theirs._id, 'failed');
        const response = await call('POST', `/webhooks/deliveries/${theirs._id}/replay`);
        assert.equal(response.statusCode, 400);
        assert.equal(response.json().message, 'Unable to locate record');
        const [row] = await context().testApp.db.query<{ status: string }>(
          'SELECT status FROM webhook_events WHERE id = $1',
          [theirs._id],
        );
        assert.equal(row?.status, 'failed');
      });
    });

    const request = (id: string) => ({
      method: 'POST' as const,
      url: `/webhooks/deliveries/${id}/replay`,
    });
    let ownEventId: string;
    before(async () => {
      ownEventId = (await creditAndFindEvent())._id;
    });
    describeAuthGuards(context, () => request(ownEventId));
    describeRecordIsolation(context, request, { foreignId: async () => (await theirEvent())._id });
  });

  describe('POST /webhooks/deliveries/replay', () => {
    describe('200: how many failed events were queued again', () => {
      it('counts only failed events created since the time', async () => {
        const { testApp } = context();
        const event = await creditAndFindEvent();
        await setStatus(event._id, 'failed');
        const later = new Date(testApp.clock.now().getTime() + 86_400_000).toISOString();
        const none = await call('POST', '/webhooks/deliveries/replay', { since: later });
        assert.equal(none.statusCode, 200, none.body);
        assert.equal(none.json().data.replayed, 0);
        const response = await call('POST', '/webhooks/deliveries/replay', {
          since: testApp.clock.now().toISOString().slice(0, 10),
        });
        assert.equal(response.json().message, 'Failed webhook deliveries queued again.');
        assert.equal(response.json().data.replayed, 1);
      });
    });

    describe('400: since is required and must be a date', () => {
      it('refuses a malformed since', async () => {
        const response = await call('POST', '/webhooks/deliveries/replay', { since: 'last week' });
        assert.equal(response.statusCode, 400, response.body);
      });
    });

    describeAuthGuards(context, () => ({
      method: 'POST',
      url: '/webhooks/deliveries/replay',
      payload: { since: '2020-01-01' },
    }));
  });
});
