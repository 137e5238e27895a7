import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sandboxCredit, VAS, vasPurchase } from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

describe('GET /vas/transaction/:id', () => {
  const context = useRouteContext();
  const request = (id: string) => ({ method: 'GET' as const, url: `/vas/transaction/${id}` });
  const airtime = (
    headers: Record<string, string>,
    debitAccountNumber: string,
    phoneNumber = '08031234567',
  ) =>
    vasPurchase(context().testApp.app, headers, 'airtime', {
      serviceCategoryId: VAS.mtnAirtime,
      amount: 1000,
      debitAccountNumber,
      phoneNumber,
    });

  before(async () => {
    const { testApp, ownAccountNumber, otherAccountNumber } = context();
    await sandboxCredit(testApp.app, ownAccountNumber, 50_000);
    await sandboxCredit(testApp.app, otherAccountNumber, 50_000);
  });

  describe('200: one of your purchases', () => {
    it('answers it with what it was for and how it ended', async () => {
      const { testApp, headers, ownAccountNumber, ibsClientId } = context();
      const bought = await airtime(headers, ownAccountNumber);
      assert.equal(bought.statusCode, 200, bought.body);
      const purchase = bought.json().data;

      const response = await testApp.app.inject({ ...request(purchase.id), headers });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().message, 'Transaction fetched successfully.');
      const data = response.json().data;
      assert.equal(data.id, purchase.id);
      assert.equal(data._id, purchase.id);
      assert.equal(data.reference, purchase.reference);
      assert.equal(data.status, 'successful');
      assert.equal(data.amount, 1000);
      assert.equal(data.clientId, ibsClientId);
      assert.equal(data.serviceCategoryId, VAS.mtnAirtime);
      assert.equal(data.service, 'AIRTIME');
      assert.equal(data.serviceCategory, 'MTN');
      assert.equal(data.beneficiary, '08031234567');
      assert.equal(data.debitAccountNumber, ownAccountNumber);
      assert.equal(data.bundleCode, null);
      assert.equal(data.channel, 'WEB');
      assert.equal(data.commission, 30);
      assert.equal(data.failureReason, null);
      assert.equal(data.statusUrl, null);
      assert.equal(data.createdAt, testApp.clock.now().toISOString());
      assert.equal(data.completedAt, data.createdAt);
      // The purchase answer's fields are the transaction's.
      for (const [field, value] of Object.entries(purchase)) {
        assert.deepEqual(data[field], value, field);
      }
    });

    it('answers it exactly as the history lists it', async () => {
      const { testApp, headers, ownAccountNumber } = context();
      const bought = (await airtime(headers, ownAccountNumber, '08031239876')).json().data;
      const read = await testApp.app.inject({ ...request(bought.id), headers });
      const listed = await testApp.app.inject({ method: 'GET', url: '/vas/transactions', headers });
      const item = listed.json().data.find((entry: { id: string }) => entry.id === bought.id);
      assert.deepEqual(read.json().data, item);
    });

    it('a failed purchase: its status and the reason', async () => {
      const { testApp, headers, ownAccountNumber } = context();
      const declined = await airtime(headers, ownAccountNumber, '08031230000');
      assert.equal(declined.statusCode, 400, declined.body);
      const id = declined.json().details[0].message;
      const response = await testApp.app.inject({ ...request(id), headers });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().data.status, 'failed');
      assert.equal(typeof response.json().data.failureReason, 'string');
      assert.equal(response.json().data.reference, declined.json().details[1].message);
    });
  });

  describeAuthGuards(context, request);
  describeRecordIsolation(context, request, {
    foreignId: async () => {
      const { otherHeaders, otherAccountNumber } = context();
      const theirs = await airtime(otherHeaders, otherAccountNumber);
      assert.equal(theirs.statusCode, 200, theirs.body);
      return theirs.json().data.id;
    },
  });
});
