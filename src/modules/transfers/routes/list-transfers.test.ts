import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sandboxCredit, sendTransfer } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('GET /transfers', () => {
  const context = useRouteContext();
  let own: { accountNumber: string; _id: string };

  const call = (url: string, headers = context().headers) =>
    context().testApp.app.inject({ method: 'GET', url, headers });

  before(async () => {
    const { testApp, headers, ownAccountId, ownAccountNumber } = context();
    own = { _id: ownAccountId, accountNumber: ownAccountNumber };
    await sandboxCredit(testApp.app, own.accountNumber, 5_000);
    // Two completed and one failed NIP transfer out, after the credit in, a second apart
    // (ids order transfers made within the same second at random).
    for (const amount of [100, 30, 20.05]) {
      testApp.clock.advanceSeconds(1);
      const response = await sendTransfer(testApp.app, headers, {
        debitAccountNumber: own.accountNumber,
        amount,
      });
      assert.equal(response.statusCode, 200, response.body);
    }
  });

  describe('200: your history, newest first, filtered and paginated', () => {
    it('lists history by account, direction and status, only the caller’s', async () => {
      const outwards = (
        await call(`/transfers?accountId=${own._id}&type=Outwards&status=Completed`)
      ).json();
      assert.ok(outwards.data.length >= 2);
      assert.ok(
        outwards.data.every(
          (item: { type: string; status: string }) =>
            item.type === 'Outwards' && item.status === 'Completed',
        ),
      );
      const foreign = (
        await call(`/transfers?accountId=${own._id}`, context().otherHeaders)
      ).json();
      assert.deepEqual(foreign.data, []);
    });

    it('answers every transfer of the caller, newest first, with the pagination', async () => {
      const response = await call('/transfers');
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Transfers fetched successfully.');
      assert.deepEqual(
        body.data.map((item: { type: string; amount: number }) => [item.type, item.amount]),
        [
          ['Outwards', 20.05],
          ['Outwards', 30],
          ['Outwards', 100],
          ['Inwards', 5_000],
        ],
      );
      assert.deepEqual(body.pagination, { total: 4, pages: 1, page: '0', limit: '25' });
      const failed = (await call('/transfers?status=Failed')).json();
      assert.deepEqual(
        failed.data.map((item: { amount: number }) => item.amount),
        [20.05],
      );
      const inwards = (await call('/transfers?type=Inwards')).json();
      assert.deepEqual(
        inwards.data.map((item: { amount: number }) => item.amount),
        [5_000],
      );
    });

    it('pages with page and limit', async () => {
      const second = (await call('/transfers?page=1&limit=3')).json();
      assert.equal(second.data.length, 1);
      assert.equal(second.data[0].type, 'Inwards');
      assert.deepEqual(second.pagination, { total: 4, pages: 2, page: '1', limit: '3' });
    });

    it('still counts the transfers on a page past the end', async () => {
      const past = (await call('/transfers?page=5&limit=3')).json();
      assert.deepEqual(past.data, []);
      assert.deepEqual(past.pagination, { total: 4, pages: 2, page: '5', limit: '3' });
      const outwards = (await call('/transfers?type=Outwards&page=1&limit=3')).json();
      assert.deepEqual(outwards.data, []);
      assert.equal(outwards.pagination.total, 3);
    });

    it('filters by date: a range before everything is empty', async () => {
      const today = context().testApp.clock.now().toISOString().slice(0, 10);
      const within = (await call(`/transfers?fromDate=${today}&toDate=${today}`)).json();
      assert.equal(within.data.length, 4);
      const before = (await call('/transfers?fromDate=2020-01-01&toDate=2020-01-02')).json();
      assert.deepEqual(before.data, []);
    });

    it("shows none of another client's transfers", async () => {
      const theirs = (await call('/transfers', context().otherHeaders)).json();
      assert.deepEqual(theirs.data, []);
    });
  });

  describe('400: bad filters', () => {
    for (const [label, query] of [
      ['an unknown direction', 'type=Sideways'],
      ['an unknown status', 'status=Lost'],
      ['a malformed date', 'fromDate=yesterday'],
      ['limit 0', 'limit=0'],
      ['a negative page', 'page=-1'],
    ]) {
      it(`refuses ${label}`, async () => {
        const response = await call(`/transfers?${query}`);
        assert.equal(response.statusCode, 400, response.body);
      });
    }

    it('refuses a malformed accountId as an unknown record', async () => {
      const response = await call('/transfers?accountId=not-an-id');
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().message, 'Unable to locate record');
    });
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/transfers' }));
});
