import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { creditWebhookEvent } from '../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('GET /webhooks/deliveries', () => {
  const context = useRouteContext();
  const list = (query = '', headers = context().headers) =>
    context().testApp.app.inject({ method: 'GET', url: `/webhooks/deliveries${query}`, headers });
  const creditAndFindEvent = () => {
    const { testApp, headers, ownAccountNumber } = context();
    return creditWebhookEvent(testApp.app, headers, ownAccountNumber);
  };

  describe('200: your events, newest first, with their attempts', () => {
    it('lists your events with their payload and attempts; others see none of them', async () => {
      const { testApp, headers, otherHeaders } = context();
      const delivery = await creditAndFindEvent();
      assert.match(delivery._id, /^msg_/);
      assert.equal(delivery.status, 'pending');
      const filtered = (await list('?status=delivered')).json();
      assert.ok(filtered.data.every((item: { status: string }) => item.status === 'delivered'));
      const theirs = (await list('', otherHeaders)).json();
      assert.ok(theirs.data.every((item: { _id: string }) => item._id !== delivery._id));
      const one = await testApp.app.inject({
        method: 'GET',
        url: `/webhooks/deliveries/${delivery._id}`,
        headers,
      });
      assert.equal(one.statusCode, 200);
      assert.deepEqual(one.json().data.payload, delivery.payload);
    });

    it('filters by status and type, and paginates', async () => {
      const event = await creditAndFindEvent();
      await context().testApp.db.query(
        "UPDATE webhook_events SET status = 'delivered' WHERE id = $1",
        [event._id],
      );
      const delivered = (await list('?status=delivered')).json();
      assert.deepEqual(
        delivered.data.map((item: { _id: string }) => item._id),
        [event._id],
      );
      const unknownType = (await list('?type=nothing.here')).json();
      assert.deepEqual(unknownType.data, []);
      const page = (await list('?page=0&limit=1')).json();
      assert.equal(page.data.length, 1);
      assert.equal(page.pagination.limit, '1');
      assert.ok(page.pagination.total >= 2);
    });
  });

  describe('400: bad filters', () => {
    it('refuses a bad status filter', async () => {
      assert.equal((await list('?status=lost')).statusCode, 400);
    });
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/webhooks/deliveries' }));
});
