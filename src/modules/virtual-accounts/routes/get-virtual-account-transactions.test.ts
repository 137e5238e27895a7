import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createVirtualAccount,
  othersVirtualAccountId,
  payVirtualAccount,
} from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

describe('GET /virtual-accounts/:id/transaction', () => {
  const context = useRouteContext();
  const request = (id: string) => ({
    method: 'GET' as const,
    url: `/virtual-accounts/${id}/transaction`,
  });

  describe('200: the payments it received', () => {
    it('answers none before a payment and the payment after it', async () => {
      const { testApp, headers, ownAccountNumber } = context();
      const account = await createVirtualAccount(testApp.app, headers, ownAccountNumber, {
        amount: 12,
      });
      const before = await testApp.app.inject({ ...request(account._id), headers });
      assert.equal(before.statusCode, 200);
      assert.equal(before.json().message, 'Virtual account transactions fetched successfully.');
      assert.deepEqual(before.json().data, []);
      const payment = (await payVirtualAccount(testApp.app, account.accountNumber, 12)).json().data;
      const after = await testApp.app.inject({ ...request(account._id), headers });
      assert.deepEqual(after.json().data, [payment]);
    });
  });

  describeAuthGuards(context, request);
  describeRecordIsolation(context, request, { foreignId: othersVirtualAccountId(context) });
});
