import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminHeaders, sandboxCredit, VAS, vasPurchase } from '../../../test/factories.ts';
import {
  describeAdminAuthGuards,
  describeAdminRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

describe('GET /admin/clients/:id/vas-purchases', () => {
  const context = useRouteContext();
  const list = (clientId: string, query = '') =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/admin/clients/${clientId}/vas-purchases${query}`,
      headers: adminHeaders,
    });
  const ids = (response: { json: () => { data: { _id: string }[] } }) =>
    response.json().data.map((item) => item._id);

  /** The own client's purchases made in before(), and the other client's one. */
  const made = { airtime: '', data: '', failed: '', theirs: '' };

  before(async () => {
    const { testApp, headers, ownAccountNumber, otherHeaders, otherAccountNumber } = context();
    await sandboxCredit(testApp.app, ownAccountNumber, 50_000);
    await sandboxCredit(testApp.app, otherAccountNumber, 50_000);
    const buy = async (
      as: Record<string, string>,
      debitAccountNumber: string,
      path: 'airtime' | 'data' | 'utility',
      body: Record<string, unknown>,
    ) => {
      // A second apart, so newest first is one order.
      testApp.clock.advanceSeconds(1);
      return vasPurchase(testApp.app, as, path, { debitAccountNumber, ...body });
    };
    const airtime = { serviceCategoryId: VAS.mtnAirtime, amount: 1000, phoneNumber: '08031234567' };
    const bought = await buy(headers, ownAccountNumber, 'airtime', airtime);
    assert.equal(bought.statusCode, 200, bought.body);
    made.airtime = bought.json().data.id;
    const data = await buy(headers, ownAccountNumber, 'data', {
      serviceCategoryId: VAS.mtnData,
      amount: 350,
      phoneNumber: '08031234567',
      bundleCode: 'mtn-1gb-1d',
    });
    assert.equal(data.statusCode, 200, data.body);
    made.data = data.json().data.id;
    // The sandbox biller refuses this meter: a failed purchase, recorded.
    const failed = await buy(headers, ownAccountNumber, 'utility', {
      serviceCategoryId: VAS.ikeja,
      amount: 5000,
      meterNumber: '45678910000',
    });
    assert.equal(failed.statusCode, 400, failed.body);
    const theirs = await buy(otherHeaders, otherAccountNumber, 'airtime', airtime);
    assert.equal(theirs.statusCode, 200, theirs.body);
    made.theirs = theirs.json().data.id;
    const mine = await testApp.app.inject({ method: 'GET', url: '/vas/transactions', headers });
    made.failed = mine.json().data[0].id;
  });

  describe("200: the client's purchases, newest first, as GET /vas/transactions shows them", () => {
    it('lists every one, failed included, in the published VAS transaction object', async () => {
      const { testApp, headers, ibsClientId } = context();
      const response = await list(ibsClientId);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'VAS purchases fetched successfully.');
      assert.deepEqual(ids(response), [made.failed, made.data, made.airtime]);
      assert.deepEqual(body.pagination, { total: 3, pages: 1, page: '0', limit: '25' });
      const own = await testApp.app.inject({ method: 'GET', url: '/vas/transactions', headers });
      assert.deepEqual(body.data, own.json().data, 'the same objects the client API answers');
      assert.deepEqual(
        body.data.map((item: { service: string; status: string }) => [item.service, item.status]),
        [
          ['UTILITY', 'failed'],
          ['DATA', 'successful'],
          ['AIRTIME', 'successful'],
        ],
      );
    });

    it("never lists another client's purchases", async () => {
      const { ibsClientId, otherHeaders } = context();
      assert.ok(!ids(await list(ibsClientId)).includes(made.theirs));
      const theirs = await list(otherHeaders.clientid ?? '');
      assert.deepEqual(ids(theirs), [made.theirs]);
    });

    it('filters by status', async () => {
      const { ibsClientId } = context();
      assert.deepEqual(ids(await list(ibsClientId, '?status=failed')), [made.failed]);
      const successful = await list(ibsClientId, '?status=successful');
      assert.deepEqual(ids(successful), [made.data, made.airtime]);
      assert.equal(successful.json().pagination.total, 2);
      assert.deepEqual(ids(await list(ibsClientId, '?status=pending')), []);
    });

    it('pages with page (0-based) and limit', async () => {
      const { ibsClientId } = context();
      const response = await list(ibsClientId, '?page=1&limit=2');
      assert.deepEqual(ids(response), [made.airtime]);
      assert.deepEqual(response.json().pagination, {
        total: 3,
        pages: 2,
        page: '1',
        limit: '2',
      });
    });
  });

  describe('400: bad filters', () => {
    it('refuses an unknown status and a limit over 100', async () => {
      const { ibsClientId } = context();
      for (const query of ['?status=lost', '?limit=101']) {
        assert.equal((await list(ibsClientId, query)).statusCode, 400, query);
      }
    });
  });

  const request = (id: string) => ({
    method: 'GET' as const,
    url: `/admin/clients/${id}/vas-purchases`,
  });
  describeAdminAuthGuards(context, request);
  describeAdminRecordIsolation(context, request);
});
