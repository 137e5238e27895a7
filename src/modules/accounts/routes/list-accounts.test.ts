import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createVirtualAccount, openSubAccount, sandboxCredit } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('GET /accounts', () => {
  const context = useRouteContext();
  const list = (query: string, headers = context().headers) =>
    context().testApp.app.inject({ method: 'GET', url: `/accounts${query}`, headers });

  describe('200: your accounts only, paginated', () => {
    it('lists the main account with the published pagination shape', async () => {
      const response = await list('?isSubAccount=false');
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.equal(body.message, 'Accounts fetched successfully.');
      assert.deepEqual(body.pagination, { total: 1, pages: 1, page: '0', limit: '100' });
      assert.equal(body.data[0]._id, context().ownAccountId);
    });

    it("never shows another client's accounts", async () => {
      const mine = (await list('')).json().data.map((account: { _id: string }) => account._id);
      assert.ok(!mine.includes(context().otherAccountId));
      const theirs = (await list('', context().otherHeaders)).json().data;
      assert.deepEqual(
        theirs.map((account: { _id: string }) => account._id),
        [context().otherAccountId],
      );
    });

    it('pages newest first with page and limit', async () => {
      const { testApp, headers } = context();
      for (const suffix of ['One', 'Two', 'Three']) {
        testApp.clock.advanceSeconds(1);
        await testApp.app.inject({
          method: 'POST',
          url: '/accounts',
          headers,
          payload: { suffix },
        });
      }
      const first = (await list('?page=0&limit=2')).json();
      assert.deepEqual(first.pagination, { total: 4, pages: 2, page: '0', limit: '2' });
      assert.deepEqual(
        first.data.map((account: { accountName: string }) => account.accountName),
        ['ACME LTD / Three', 'ACME LTD / Two'],
      );
      const second = (await list('?page=1&limit=2')).json();
      assert.equal(second.data.length, 2);
      assert.equal(second.data[1]._id, context().ownAccountId);
      const beyond = (await list('?page=5&limit=2')).json();
      assert.deepEqual(beyond.data, []);
    });

    it('lists no sub-accounts for a client that has none', async () => {
      const body = (await list('?isSubAccount=true')).json();
      assert.deepEqual(body.data, []);
      assert.equal(body.pagination.total, 0);
    });

    it('lists virtual accounts after the sub-accounts, paging across both', async () => {
      const { testApp, headers, ownAccountNumber } = context();
      await sandboxCredit(testApp.app, ownAccountNumber, 500);
      const sub = await openSubAccount(testApp.app, headers, ownAccountNumber);
      const virtual = await createVirtualAccount(testApp.app, headers, ownAccountNumber);
      const all = (await list('?isSubAccount=true')).json();
      assert.deepEqual(
        all.data.map((item: { _id: string }) => item._id),
        [sub._id, virtual._id],
      );
      assert.equal(all.pagination.total, 2);
      const [subView, virtualView] = all.data;
      assert.equal(subView.isVirtualAccount, false);
      assert.equal(virtualView.isVirtualAccount, true);
      assert.equal(virtualView.accountNumber, virtual.accountNumber);
      assert.equal(virtualView.expiryDate, virtual.expiryDate);
      assert.equal(virtualView.accountBalance, 0);
      assert.equal(virtualView.status, 'Active');
      const second = (await list('?isSubAccount=true&limit=1&page=1')).json();
      assert.deepEqual(
        second.data.map((item: { _id: string }) => item._id),
        [virtual._id],
      );
      assert.equal(second.pagination.total, 2);
      const main = (await list('?isSubAccount=false')).json();
      assert.ok(!main.data.some((item: { _id: string }) => item._id === virtual._id));
    });
  });

  describe('400: pagination out of range is refused, not clamped', () => {
    for (const query of [
      '?limit=101',
      '?limit=0',
      '?page=-1',
      '?limit=abc',
      '?isSubAccount=maybe',
    ]) {
      it(`refuses ${query}`, async () => {
        const response = await list(query);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'VALIDATION_ERROR');
        assert.ok(Array.isArray(response.json().details));
      });
    }
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/accounts' }));
});
