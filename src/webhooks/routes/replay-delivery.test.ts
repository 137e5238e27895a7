import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { creditWebhookEvent } from '../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

describe('POST /webhooks/deliveries/:id/replay', () => {
  const context = useRouteContext();
  const request = (id: string) => ({
    method: 'POST' as const,
    url: `/webhooks/deliveries/${id}/replay`,
  });
  const replay = (id: string) =>
    context().testApp.app.inject({ ...request(id), headers: context().headers });
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

  describe('200: the event, queued again with the same id', () => {
    it('replays a failed event; the bulk replay counts only your own failed events', async () => {
      const { testApp, headers, otherHeaders } = context();
      const delivery = await creditAndFindEvent();
      await setStatus(delivery._id, 'failed');
      const one = await replay(delivery._id);
      assert.equal(one.statusCode, 200, one.body);
      assert.equal(one.json().data.status, 'pending');
      await setStatus(delivery._id, 'failed');
      const bulk = (payloadHeaders: Record<string, string>) =>
        testApp.app.inject({
          method: 'POST',
          url: '/webhooks/deliveries/replay',
          headers: payloadHeaders,
          payload: { since: '2020-01-01' },
        });
      assert.equal((await bulk(headers)).json().data.replayed, 1);
      assert.equal((await bulk(otherHeaders)).json().data.replayed, 0);
    });

    it('replays a delivered event too', async () => {
      const event = await creditAndFindEvent();
      await setStatus(event._id, 'delivered');
      const response = await replay(event._id);
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
      const response = await replay(theirs._id);
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().message, 'Unable to locate record');
      const [row] = await context().testApp.db.query<{ status: string }>(
        'SELECT status FROM webhook_events WHERE id = $1',
        [theirs._id],
      );
      assert.equal(row?.status, 'failed');
    });
  });

  let ownEventId: string;
  before(async () => {
    ownEventId = (await creditAndFindEvent())._id;
  });
  describeAuthGuards(context, () => request(ownEventId));
  describeRecordIsolation(context, request, { foreignId: async () => (await theirEvent())._id });
});
