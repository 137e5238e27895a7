import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sandboxCredit, VAS, vasPurchase } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('GET /vas/transactions', () => {
  const context = useRouteContext();
  const list = (query = '', headers = context().headers) =>
    context().testApp.app.inject({ method: 'GET', url: `/vas/transactions${query}`, headers });
  const ids = (response: { json: () => { data: { id: string }[] } }) =>
    response.json().data.map((item) => item.id);

  /** The purchases made in before(), oldest first. */
  const made: { airtime: string; data: string; cable: string; failed: string } = {
    airtime: '',
    data: '',
    cable: '',
    failed: '',
  };

  before(async () => {
    const { testApp, headers, ownAccountNumber } = context();
    await sandboxCredit(testApp.app, ownAccountNumber, 50_000);
    const buy = async (
      path: 'airtime' | 'data' | 'cable-tv' | 'utility',
      body: Record<string, unknown>,
      status: number,
    ) => {
      // A second apart, so newest first is one order.
      testApp.clock.advanceSeconds(1);
      const response = await vasPurchase(testApp.app, headers, path, {
        debitAccountNumber: ownAccountNumber,
        ...body,
      });
      assert.equal(response.statusCode, status, response.body);
      return status === 200 ? response.json().data.id : response.json().details[0].message;
    };
    made.airtime = await buy(
      'airtime',
      { serviceCategoryId: VAS.mtnAirtime, amount: 1000, phoneNumber: '08031234567' },
      200,
    );
    made.data = await buy(
      'data',
      {
        serviceCategoryId: VAS.mtnData,
        amount: 350,
        phoneNumber: '08031234567',
        bundleCode: 'mtn-1gb-1d',
      },
      200,
    );
    made.cable = await buy(
      'cable-tv',
      { serviceCategoryId: VAS.dstv, amount: 3600, cardNumber: '7012345678', bundleCode: 'db1' },
      200,
    );
    made.failed = await buy(
      'utility',
      { serviceCategoryId: VAS.ikeja, amount: 5000, meterNumber: '45678910000' },
      400,
    );
  });

  describe('200: a page of your purchases, newest first', () => {
    it('lists every one, failed included, with the pagination', async () => {
      const response = await list();
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Transactions fetched successfully.');
      assert.deepEqual(ids(response), [made.failed, made.cable, made.data, made.airtime]);
      assert.deepEqual(body.pagination, { total: 4, pages: 1, page: '0', limit: '25' });
      assert.deepEqual(
        body.data.map((item: { service: string; status: string }) => [item.service, item.status]),
        [
          ['UTILITY', 'failed'],
          ['CABLETV', 'successful'],
          ['DATA', 'successful'],
          ['AIRTIME', 'successful'],
        ],
      );
      for (const item of body.data) {
        assert.equal(item._id, item.id);
        assert.equal(item.clientId, context().ibsClientId);
        assert.equal(item.debitAccountNumber, context().ownAccountNumber);
        assert.equal(item.channel, 'WEB');
        assert.match(item.reference, /^[0-9a-f]{32}$/);
        assert.equal(typeof item.commission, 'number');
        assert.ok(Date.parse(item.createdAt) > 0);
      }
    });

    it('pages them', async () => {
      const second = await list('?limit=2&page=1');
      assert.deepEqual(ids(second), [made.data, made.airtime]);
      assert.deepEqual(second.json().pagination, { total: 4, pages: 2, page: '1', limit: '2' });
      assert.deepEqual(ids(await list('?limit=2&page=5')), []);
    });

    it('filters by service, status, debit account and date', async () => {
      assert.deepEqual(ids(await list('?service=DATA')), [made.data]);
      assert.deepEqual(ids(await list('?service=CABLETV')), [made.cable]);
      const failed = await list('?status=failed');
      assert.deepEqual(ids(failed), [made.failed]);
      assert.equal(failed.json().pagination.total, 1);
      assert.deepEqual(ids(await list('?status=successful&service=AIRTIME')), [made.airtime]);
      assert.deepEqual(ids(await list('?status=pending')), []);
      assert.equal(ids(await list(`?debitAccountNumber=${context().ownAccountNumber}`)).length, 4);
      assert.deepEqual(ids(await list(`?debitAccountNumber=${context().otherAccountNumber}`)), []);
      const today = context().testApp.clock.now().toISOString().slice(0, 10);
      assert.equal(ids(await list(`?fromDate=${today}&toDate=${today}`)).length, 4);
      const future = await list('?fromDate=2100-01-01');
      assert.equal(future.statusCode, 200, future.body);
      assert.deepEqual(future.json().data, []);
      assert.equal(future.json().pagination.total, 0);
    });

    it("another client sees none of them, even by this client's account number", async () => {
      const { otherHeaders, ownAccountNumber } = context();
      const theirs = await list('', otherHeaders);
      assert.equal(theirs.statusCode, 200, theirs.body);
      assert.deepEqual(theirs.json().data, []);
      assert.equal(theirs.json().pagination.total, 0);
      assert.deepEqual(
        ids(await list(`?debitAccountNumber=${ownAccountNumber}`, otherHeaders)),
        [],
      );
    });

    it('refuses an unknown service or status, a bad date, a reversed range, a limit over the maximum', async () => {
      for (const query of [
        '?service=BETTING',
        '?status=reversed',
        '?fromDate=yesterday',
        '?fromDate=2026-03-03&toDate=2026-03-01',
        '?limit=101',
        '?page=-1',
      ]) {
        const response = await list(query);
        assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
      }
    });
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/vas/transactions' }));
});
