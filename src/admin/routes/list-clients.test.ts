import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders, createClient } from '../../../test/factories.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('GET /admin/clients', () => {
  const context = useRouteContext();
  const list = (query = '') =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/admin/clients${query}`,
      headers: adminHeaders,
    });

  describe('200: every client with its main account, newest first', () => {
    it('lists the clients as GET /admin/clients/:id shows each, newest first', async () => {
      const { testApp, ibsClientId } = context();
      testApp.clock.advanceSeconds(60);
      const newest = await createClient(testApp.app, 'Newest Ltd', 2);
      const response = await list();
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Clients fetched successfully.');
      // Acme and Rival were onboarded at the same instant: their order between them is the ids'.
      const names = body.data.map((client: { name: string }) => client.name);
      assert.equal(names[0], 'Newest Ltd');
      assert.deepEqual(names.slice(1).sort(), ['Acme Ltd', 'Rival Ltd']);
      assert.deepEqual(body.pagination, { total: 3, pages: 1, page: '0', limit: '25' });
      const first = body.data[0];
      assert.equal(first._id, newest.ibsClientId);
      assert.equal(first.mainAccount._id, newest.mainAccountId);
      assert.equal(first.mainAccount.accountNumber, newest.mainAccountNumber);
      assert.equal(first.mainAccount.accountBalance, 0);
      const one = await testApp.app.inject({
        method: 'GET',
        url: `/admin/clients/${ibsClientId}`,
        headers: adminHeaders,
      });
      assert.deepEqual(
        body.data.find((client: { _id: string }) => client._id === ibsClientId),
        one.json().data,
      );
    });

    it('pages with page (zero-based) and limit', async () => {
      const all = (await list('?limit=100'))
        .json()
        .data.map((client: { _id: string }) => client._id);
      const second = await list('?page=1&limit=1');
      assert.equal(second.statusCode, 200, second.body);
      assert.deepEqual(
        second.json().data.map((client: { _id: string }) => client._id),
        [all[1]],
      );
      assert.equal(second.json().pagination.pages, all.length);
      const beyond = await list(`?page=${all.length}&limit=1`);
      assert.deepEqual(beyond.json().data, []);
    });
  });

  describe('400: bad paging', () => {
    for (const query of ['?limit=0', '?limit=101', '?page=-1', '?page=x']) {
      it(`refuses ${query}`, async () => {
        assert.equal((await list(query)).statusCode, 400);
      });
    }
  });

  describeAdminAuthGuards(context, () => ({ method: 'GET', url: '/admin/clients' }));
});
