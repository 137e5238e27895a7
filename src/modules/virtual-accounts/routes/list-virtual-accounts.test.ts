import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createVirtualAccount, payVirtualAccount } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('GET /virtual-accounts', () => {
  const context = useRouteContext();
  const list = (query = '', headers = context().headers) =>
    context().testApp.app.inject({ method: 'GET', url: `/virtual-accounts${query}`, headers });

  describe('200: a page of your virtual accounts, newest first', () => {
    it('pages them and filters by status, externalReference and date', async () => {
      const { testApp, headers, ownAccountNumber, otherHeaders, otherAccountNumber } = context();
      await createVirtualAccount(testApp.app, otherHeaders, otherAccountNumber);
      const first = await createVirtualAccount(testApp.app, headers, ownAccountNumber, {
        amount: 5,
      });
      testApp.clock.advanceSeconds(1);
      const second = await createVirtualAccount(testApp.app, headers, ownAccountNumber);
      await payVirtualAccount(testApp.app, first.accountNumber, 5);

      const all = await list();
      assert.equal(all.statusCode, 200);
      assert.equal(all.json().message, 'Virtual accounts fetched successfully.');
      assert.deepEqual(
        all.json().data.map((item: { _id: string }) => item._id),
        [second._id, first._id],
      );
      assert.deepEqual(all.json().pagination, { total: 2, pages: 1, page: '0', limit: '25' });

      const paged = await list('?limit=1&page=1');
      assert.deepEqual(
        paged.json().data.map((item: { _id: string }) => item._id),
        [first._id],
      );
      assert.equal(paged.json().pagination.pages, 2);

      const paid = await list('?status=paid');
      assert.deepEqual(
        paid.json().data.map((item: { _id: string }) => item._id),
        [first._id],
      );
      const byReference = await list(`?externalReference=${second.externalReference}`);
      assert.deepEqual(
        byReference.json().data.map((item: { _id: string }) => item._id),
        [second._id],
      );
      const future = await list('?fromDate=2100-01-01&status=&externalReference=');
      assert.deepEqual(future.json().data, []);

      testApp.clock.advanceSeconds(901);
      try {
        const expired = await list('?status=Expired');
        assert.deepEqual(
          expired.json().data.map((item: { _id: string }) => item._id),
          [second._id],
        );
      } finally {
        testApp.clock.advanceSeconds(-901);
      }
    });

    it('refuses an unknown status and a page beyond the limit', async () => {
      assert.equal((await list('?status=Deleted')).statusCode, 400);
      assert.equal((await list('?limit=101')).statusCode, 400);
    });
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/virtual-accounts' }));
});
