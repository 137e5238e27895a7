import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { creditWebhookEvent } from '../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

describe('GET /webhooks/deliveries/:id', () => {
  const context = useRouteContext();
  const request = (id: string) => ({ method: 'GET' as const, url: `/webhooks/deliveries/${id}` });
  const theirEvent = () => {
    const { testApp, otherHeaders, otherAccountNumber } = context();
    return creditWebhookEvent(testApp.app, otherHeaders, otherAccountNumber);
  };

  describe('200: one event with its attempts', () => {
    it('answers the delivery in the published shape', async () => {
      const { testApp, headers, ownAccountNumber } = context();
      const event = await creditWebhookEvent(testApp.app, headers, ownAccountNumber);
      const response = await testApp.app.inject({ ...request(event._id), headers });
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

  describe("400: another client's event is not found", () => {
    it('answers "Unable to locate record"', async () => {
      const { testApp, headers } = context();
      const theirs = await theirEvent();
      const response = await testApp.app.inject({ ...request(theirs._id), headers });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().message, 'Unable to locate record');
    });
  });

  describeAuthGuards(context, request);
  describeRecordIsolation(context, request, { foreignId: async () => (await theirEvent())._id });
});
