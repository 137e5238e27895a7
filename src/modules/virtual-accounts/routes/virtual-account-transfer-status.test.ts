import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createVirtualAccount, payVirtualAccount } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('POST /virtual-accounts/status', () => {
  const context = useRouteContext();
  const request = (sessionId: unknown) => ({
    method: 'POST' as const,
    url: '/virtual-accounts/status',
    payload: { sessionId },
  });
  const paidSession = async (headers: Record<string, string>, accountNumber: string) => {
    const account = await createVirtualAccount(context().testApp.app, headers, accountNumber, {
      amount: 20,
    });
    const paid = await payVirtualAccount(context().testApp.app, account.accountNumber, 20);
    return { account, payment: paid.json().data };
  };

  describe('200: the payment as the virtualAccount.transfer object', () => {
    it('answers it with the NIBSS result at the top level', async () => {
      const { testApp, headers, ownAccountNumber } = context();
      const { account, payment } = await paidSession(headers, ownAccountNumber);
      const response = await testApp.app.inject({ ...request(payment.sessionId), headers });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Virtual account transfer fetched successfully.');
      assert.equal(body.responseCode, '00');
      assert.deepEqual(body.data, payment);
      assert.equal(body.data.status, 'Completed');
      assert.equal(body.data.externalReference, account.externalReference);
      assert.equal(body.data.paymentReference, payment.sessionId);
    });
  });

  describe('400 "Unable to locate record": not (yet) a payment of yours', () => {
    it("answers the same for an unknown session, another client's, and a transfer's", async () => {
      const { testApp, headers, otherHeaders, otherAccountNumber } = context();
      const foreign = await paidSession(otherHeaders, otherAccountNumber);
      for (const sessionId of [
        '999240000000000000000000000000',
        foreign.payment.sessionId,
        "' OR 1=1",
      ]) {
        const response = await testApp.app.inject({ ...request(sessionId), headers });
        assert.equal(response.statusCode, 400, sessionId);
        assert.equal(response.json().message, 'Unable to locate record');
      }
    });

    it('refuses a body without a sessionId', async () => {
      const { testApp, headers } = context();
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/virtual-accounts/status',
        headers,
        payload: {},
      });
      assert.equal(response.statusCode, 400);
    });
  });

  describeAuthGuards(context, () => request('999240000000000000000000000000'));
});
