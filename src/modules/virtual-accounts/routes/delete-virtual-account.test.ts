import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  accountBalance,
  createVirtualAccount,
  nameEnquiry,
  othersVirtualAccountId,
  payVirtualAccount,
} from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

describe('DELETE /virtual-accounts/:id', () => {
  const context = useRouteContext();
  const request = (id: string) => ({ method: 'DELETE' as const, url: `/virtual-accounts/${id}` });
  const own = (extra: Record<string, unknown> = {}) =>
    createVirtualAccount(
      context().testApp.app,
      context().headers,
      context().ownAccountNumber,
      extra,
    );

  describe('200: deleted', () => {
    it('answers it deleted; then it reads as unknown, takes no payment and is not listed', async () => {
      const { testApp, headers, otherHeaders, ownAccountNumber } = context();
      const created = await own();
      const response = await testApp.app.inject({ ...request(created._id), headers });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().message, 'Virtual account deleted successfully.');
      assert.equal(response.json().data.isDeleted, true);
      assert.equal(response.json().data.status, 'Deleted');
      for (const again of [
        { method: 'GET' as const, url: `/virtual-accounts/${created._id}` },
        { method: 'DELETE' as const, url: `/virtual-accounts/${created._id}` },
        { method: 'GET' as const, url: `/virtual-accounts/${created._id}/transaction` },
      ]) {
        const answer = await testApp.app.inject({ ...again, headers });
        assert.equal(answer.statusCode, 400, `${again.method} ${again.url}`);
        assert.equal(answer.json().message, 'Unable to locate record');
      }
      const before = await accountBalance(testApp.app, headers, ownAccountNumber);
      const payment = await payVirtualAccount(testApp.app, created.accountNumber, 2500);
      assert.equal(payment.statusCode, 400);
      assert.equal(payment.json().code, 'VIRTUAL_ACCOUNT_CLOSED');
      assert.equal(await accountBalance(testApp.app, headers, ownAccountNumber), before);
      await assert.rejects(
        nameEnquiry(testApp.app, otherHeaders, '999240', created.accountNumber),
        /Invalid account/,
      );
      const list = await testApp.app.inject({ method: 'GET', url: '/virtual-accounts', headers });
      assert.ok(!list.json().data.some((item: { _id: string }) => item._id === created._id));
    });

    it('keeps the payment it received readable by its session id', async () => {
      const { testApp, headers } = context();
      const created = await own({ amount: 15 });
      const paid = (await payVirtualAccount(testApp.app, created.accountNumber, 15)).json().data;
      await testApp.app.inject({ ...request(created._id), headers });
      const status = await testApp.app.inject({
        method: 'POST',
        url: '/virtual-accounts/status',
        headers,
        payload: { sessionId: paid.sessionId },
      });
      assert.equal(status.statusCode, 200, status.body);
      assert.equal(status.json().data._id, paid._id);
    });
  });

  describeAuthGuards(context, request);
  describeRecordIsolation(context, request, { foreignId: othersVirtualAccountId(context) });
});
