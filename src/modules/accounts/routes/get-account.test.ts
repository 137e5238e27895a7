import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sandboxCredit } from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

describe('GET /accounts/:id', () => {
  const context = useRouteContext();
  const request = (id: string) => ({ method: 'GET' as const, url: `/accounts/${id}` });

  describe('200: the account with its balances', () => {
    it('shows the published-style account object with naira balances', async () => {
      const { testApp, headers, ownAccountId } = context();
      const before = await testApp.app.inject({ ...request(ownAccountId), headers });
      const account = before.json().data;
      await sandboxCredit(testApp.app, account.accountNumber, 1500.5);
      const response = await testApp.app.inject({ ...request(ownAccountId), headers });
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.equal(body.statusCode, 200);
      assert.equal(body.message, 'Account fetched successfully.');
      assert.equal(body.error, undefined);
      assert.equal(body.data._id, ownAccountId);
      assert.equal(body.data.accountBalance, account.accountBalance + 1500.5);
      assert.equal(body.data.bookBalance, body.data.accountBalance);
      assert.equal(body.data.lockedBalance, 0);
      assert.match(body.data.accountNumber, /^\d{10}$/);
      assert.equal(body.data.bankCode, '999240');
      assert.equal(body.data.accountName, 'ACME LTD');
      assert.equal(body.data.createdAt, new Date(body.data.createdAt).toISOString());
    });

    it('does not fail on Content-Type: application/json with no body', async () => {
      const { testApp, headers, ownAccountId } = context();
      const response = await testApp.app.inject({
        ...request(ownAccountId),
        headers: { ...headers, 'content-type': 'application/json' },
      });
      assert.equal(response.statusCode, 200, response.body);
    });
  });

  describeAuthGuards(context, request);
  describeRecordIsolation(context, request);
});
