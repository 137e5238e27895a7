import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  adminHeaders,
  createVirtualAccount,
  othersVirtualAccountId,
  payVirtualAccount,
  sandboxCredit,
  sendTransfer,
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

  describe('200: a payment reversed by an operator (docs/virtual-accounts.md, "Reversed payments")', () => {
    it('shows the payment Reversed; the account stays Paid with its amountPaid, and takes no other', async () => {
      const { testApp, headers, ownAccountNumber, otherHeaders, otherAccountNumber } = context();
      const account = await createVirtualAccount(testApp.app, headers, ownAccountNumber, {
        amount: 12,
      });
      await sandboxCredit(testApp.app, otherAccountNumber, 50);
      const paid = await sendTransfer(testApp.app, otherHeaders, {
        debitAccountNumber: otherAccountNumber,
        beneficiaryBankCode: '999240',
        beneficiaryAccountNumber: account.accountNumber,
        amount: 12,
      });
      assert.equal(paid.statusCode, 200, paid.body);
      const reversed = await testApp.app.inject({
        method: 'POST',
        url: `/admin/transfers/${paid.json().data._id}/reversal`,
        headers: adminHeaders,
        payload: { reason: 'Paid the wrong invoice' },
      });
      assert.equal(reversed.statusCode, 200, reversed.body);
      const { inward } = reversed.json().data;
      const payments = (await testApp.app.inject({ ...request(account._id), headers })).json();
      assert.deepEqual(
        payments.data.map((payment: Record<string, unknown>) => [
          payment._id,
          payment.status,
          payment.isReversed,
          payment.reversalReference,
        ]),
        [[inward._id, 'Reversed', true, inward.reversalReference]],
      );
      const status = await testApp.app.inject({
        method: 'POST',
        url: '/virtual-accounts/status',
        headers,
        payload: { sessionId: inward.sessionId },
      });
      assert.equal(status.json().data.status, 'Reversed');
      const read = await testApp.app.inject({ url: `/virtual-accounts/${account._id}`, headers });
      assert.deepEqual([read.json().data.status, read.json().data.amountPaid], ['Paid', 12]);
      const again = await payVirtualAccount(testApp.app, account.accountNumber, 12);
      assert.equal(again.json().code, 'VIRTUAL_ACCOUNT_CLOSED');
    });
  });

  describeAuthGuards(context, request);
  describeRecordIsolation(context, request, { foreignId: othersVirtualAccountId(context) });
});
