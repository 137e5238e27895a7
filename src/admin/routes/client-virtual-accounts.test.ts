import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders, createVirtualAccount, payVirtualAccount } from '../../../test/factories.ts';
import {
  describeAdminAuthGuards,
  describeAdminRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

interface Listed {
  _id: string;
  client: string;
  accountNumber: string;
  status: string;
  isDeleted: boolean;
  amountPaid: number;
  settlementAccount: { bankCode: string; accountNumber: string };
  payments: { _id: string; virtualAccount: string; amount: number; status: string }[];
}

describe('GET /admin/clients/:id/virtual-accounts', () => {
  const context = useRouteContext();

  const list = (clientId: string, query = '') =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/admin/clients/${clientId}/virtual-accounts${query}`,
      headers: adminHeaders,
    });
  const own = (extra: Record<string, unknown> = {}) =>
    createVirtualAccount(
      context().testApp.app,
      context().headers,
      context().ownAccountNumber,
      extra,
    );

  describe("200: the client's virtual accounts, newest first, with their payments", () => {
    it('answers them as GET /virtual-accounts/:id does, each with the payments it received', async () => {
      const { testApp, headers, ibsClientId, ownAccountNumber } = context();
      const unpaid = await own({ amount: 1000 });
      // A second apart, so newest first is one order.
      testApp.clock.advanceSeconds(1);
      const paid = await own({ amount: 2500 });
      const payment = await payVirtualAccount(testApp.app, paid.accountNumber, 2500);
      assert.equal(payment.statusCode, 201, payment.body);

      const response = await list(ibsClientId);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Virtual accounts fetched successfully.');
      const data = body.data as Listed[];
      const ids = data.map((item) => item._id);
      assert.ok(ids.indexOf(paid._id) < ids.indexOf(unpaid._id), 'newest first');
      assert.equal(body.pagination.total, data.length);

      const listedPaid = data.find((item) => item._id === paid._id);
      assert.ok(listedPaid);
      const { payments, ...published } = listedPaid;
      const fetched = await testApp.app.inject({
        method: 'GET',
        url: `/virtual-accounts/${paid._id}`,
        headers,
      });
      assert.deepEqual(published, fetched.json().data, 'the published virtual account object');
      assert.equal(listedPaid.status, 'Paid');
      assert.equal(listedPaid.amountPaid, 2500);
      assert.equal(listedPaid.settlementAccount.accountNumber, ownAccountNumber);
      assert.equal(payments.length, 1);
      assert.equal(payments[0]?._id, payment.json().data._id);
      assert.equal(payments[0]?.virtualAccount, paid._id);
      assert.equal(payments[0]?.amount, 2500);
      assert.equal(payments[0]?.status, 'Completed');

      assert.deepEqual(data.find((item) => item._id === unpaid._id)?.payments, []);
    });

    it("never lists another client's virtual accounts", async () => {
      const { testApp, ibsClientId, otherHeaders, otherAccountNumber } = context();
      const mine = await own();
      const theirs = await createVirtualAccount(testApp.app, otherHeaders, otherAccountNumber);
      const ids = ((await list(ibsClientId)).json().data as Listed[]).map((item) => item._id);
      assert.ok(ids.includes(mine._id));
      assert.ok(!ids.includes(theirs._id));
      const listed = (await list(ibsClientId)).json().data as Listed[];
      assert.ok(listed.every((item) => item.client === ibsClientId));
    });

    it('lists a deleted virtual account too, marked deleted', async () => {
      const { testApp, headers, ibsClientId } = context();
      const account = await own();
      const deleted = await testApp.app.inject({
        method: 'DELETE',
        url: `/virtual-accounts/${account._id}`,
        headers,
      });
      assert.equal(deleted.statusCode, 200, deleted.body);
      const listed = ((await list(ibsClientId)).json().data as Listed[]).find(
        (item) => item._id === account._id,
      );
      assert.equal(listed?.isDeleted, true);
      assert.equal(listed?.status, 'Deleted');
    });

    it('pages with page (0-based) and limit', async () => {
      const { ibsClientId } = context();
      const all = (await list(ibsClientId, '?limit=100')).json();
      assert.ok(all.data.length >= 3);
      const second = (await list(ibsClientId, '?page=1&limit=1')).json();
      assert.equal(second.data.length, 1);
      assert.equal(second.data[0]._id, all.data[1]._id);
      assert.deepEqual(second.pagination, {
        total: all.pagination.total,
        pages: all.pagination.total,
        page: '1',
        limit: '1',
      });
    });

    it('answers an empty page for a client without virtual accounts', async () => {
      const { testApp } = context();
      const created = await testApp.app.inject({
        method: 'POST',
        url: '/admin/clients',
        headers: adminHeaders,
        payload: { name: 'Quiet Ltd' },
      });
      const response = await list(created.json().data._id);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json().data, []);
      assert.equal(response.json().pagination.total, 0);
    });
  });

  describe('400: bad paging', () => {
    it('refuses a limit over 100, a zero limit and a negative page', async () => {
      const { ibsClientId } = context();
      for (const query of ['?limit=101', '?limit=0', '?page=-1']) {
        assert.equal((await list(ibsClientId, query)).statusCode, 400, query);
      }
    });
  });

  const request = (id: string) => ({
    method: 'GET' as const,
    url: `/admin/clients/${id}/virtual-accounts`,
  });
  describeAdminAuthGuards(context, request);
  describeAdminRecordIsolation(context, request);
});
