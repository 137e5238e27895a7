import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { creditWebhookEvent } from '../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('POST /webhooks/deliveries/replay', () => {
  const context = useRouteContext();
  const replaySince = (payload: object, headers = context().headers) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/webhooks/deliveries/replay',
      headers,
      payload,
    });

  describe('200: how many failed events were queued again', () => {
    it('counts only failed events created since the time', async () => {
      const { testApp, headers, ownAccountNumber } = context();
      const event = await creditWebhookEvent(testApp.app, headers, ownAccountNumber);
      await testApp.db.query("UPDATE webhook_events SET status = 'failed' WHERE id = $1", [
        event._id,
      ]);
      const later = new Date(testApp.clock.now().getTime() + 86_400_000).toISOString();
      const none = await replaySince({ since: later });
      assert.equal(none.statusCode, 200, none.body);
      assert.equal(none.json().data.replayed, 0);
      const response = await replaySince({ since: testApp.clock.now().toISOString().slice(0, 10) });
      assert.equal(response.json().message, 'Failed webhook deliveries queued again.');
      assert.equal(response.json().data.replayed, 1);
    });
  });

  describe('400: since is required and must be a date', () => {
    it('refuses a missing since', async () => {
      assert.equal((await replaySince({})).statusCode, 400);
    });

    it('refuses a malformed since', async () => {
      const response = await replaySince({ since: 'last week' });
      assert.equal(response.statusCode, 400, response.body);
    });
  });

  describeAuthGuards(context, () => ({
    method: 'POST',
    url: '/webhooks/deliveries/replay',
    payload: { since: '2020-01-01' },
  }));
});
