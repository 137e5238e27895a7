import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  adminHeaders,
  getAccount,
  openSubAccount,
  sandboxCredit,
} from '../../../test/factories.ts';
import {
  describeAdminAuthGuards,
  describeAdminRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

describe('GET /admin/clients/:id/accounts', () => {
  const context = useRouteContext();
  const list = (clientId: string, query = '') =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/admin/clients/${clientId}/accounts${query}`,
      headers: adminHeaders,
    });

  let savingsId: string;
  let subAccountId: string;
  before(async () => {
    const { testApp, headers, ownAccountNumber } = context();
    await sandboxCredit(testApp.app, ownAccountNumber, 5000);
    testApp.clock.advanceSeconds(60);
    const savings = await testApp.app.inject({
      method: 'POST',
      url: '/accounts',
      headers,
      payload: { accountType: 'Savings', suffix: 'Savings' },
    });
    assert.equal(savings.statusCode, 200, savings.body);
    savingsId = savings.json().data._id;
    testApp.clock.advanceSeconds(60);
    subAccountId = (await openSubAccount(testApp.app, headers, ownAccountNumber))._id;
  });

  describe('200: every account of the client, as the client sees each', () => {
    it('lists the main accounts (newest first), then the sub-accounts, with balances', async () => {
      const { testApp, ibsClientId, headers, ownAccountId } = context();
      const response = await list(ibsClientId);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Accounts fetched successfully.');
      assert.deepEqual(
        body.data.map((account: { _id: string }) => account._id),
        [savingsId, ownAccountId, subAccountId],
      );
      assert.deepEqual(body.pagination, { total: 3, pages: 1, page: '0', limit: '25' });
      for (const account of body.data) {
        assert.deepEqual(account, await getAccount(testApp.app, headers, account._id));
      }
      const main = body.data[1];
      assert.ok(
        main.accountBalance > 0 && main.accountBalance < 5000,
        'credited, less the KYC fee',
      );
      assert.equal(body.data[2].isSubAccount, true);
      assert.equal(body.data[2].isVirtualAccount, false);
    });

    it("lists only that client's accounts", async () => {
      const { otherAccountId, ibsClientId, otherHeaders } = context();
      const otherClientId = otherHeaders.clientid ?? '';
      const theirs = (await list(otherClientId)).json().data;
      assert.deepEqual(
        theirs.map((account: { _id: string }) => account._id),
        [otherAccountId],
      );
      const mine = (await list(ibsClientId)).json().data;
      assert.ok(!mine.some((account: { _id: string }) => account._id === otherAccountId));
    });

    it('finds one account by number, only among the client’s own', async () => {
      const { ibsClientId, ownAccountId, ownAccountNumber, otherAccountNumber } = context();
      const own = await list(ibsClientId, `?accountNumber=${ownAccountNumber}`);
      assert.deepEqual(
        own.json().data.map((account: { _id: string }) => account._id),
        [ownAccountId],
      );
      assert.equal(own.json().pagination.total, 1);
      const theirs = await list(ibsClientId, `?accountNumber=${otherAccountNumber}`);
      assert.deepEqual(theirs.json().data, []);
      assert.equal((await list(ibsClientId, '?accountNumber=12')).statusCode, 400);
    });

    it('pages with page (zero-based) and limit', async () => {
      const { ibsClientId, ownAccountId } = context();
      const response = await list(ibsClientId, '?page=1&limit=1');
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(
        response.json().data.map((account: { _id: string }) => account._id),
        [ownAccountId],
      );
      assert.equal(response.json().pagination.pages, 3);
    });
  });

  describe('400: bad paging', () => {
    it('refuses a limit over 100 and a negative page', async () => {
      const { ibsClientId } = context();
      assert.equal((await list(ibsClientId, '?limit=101')).statusCode, 400);
      assert.equal((await list(ibsClientId, '?page=-1')).statusCode, 400);
    });
  });

  const request = (id: string) => ({
    method: 'GET' as const,
    url: `/admin/clients/${id}/accounts`,
  });
  describeAdminAuthGuards(context, request);
  describeAdminRecordIsolation(context, request);
});
