import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminHeaders, sandboxCredit, sendTransfer } from '../../../test/factories.ts';
import {
  describeAdminAuthGuards,
  describeAdminRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

interface Item {
  _id: string;
  type: string;
  status: string;
  amount: number;
  providerChannel: string;
  createdAt: string;
}

describe('GET /admin/clients/:id/transfers', () => {
  const context = useRouteContext();
  const list = (clientId: string, query = '') =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/admin/clients/${clientId}/transfers${query}`,
      headers: adminHeaders,
    });
  const amounts = (items: Item[]) => items.map((item) => [item.type, item.amount, item.status]);

  // 1 March 10:00 a ₦5,000 credit in; then (2 March, from 09:01, a minute apart) ₦100
  // intra-bank to the other client, ₦30 over NIP, and ₦20.05 over NIP, which fails (05).
  const start = Date.parse('2026-03-02T09:00:00.000Z');
  before(async () => {
    const { testApp, headers, ownAccountNumber, otherAccountNumber } = context();
    const tokenIssuedAt = testApp.clock.now();
    assert.equal(tokenIssuedAt.getTime(), start);
    testApp.clock.set(new Date('2026-03-01T10:00:00.000Z'));
    await sandboxCredit(testApp.app, ownAccountNumber, 5_000);
    testApp.clock.set(tokenIssuedAt);
    const intraBank = {
      beneficiaryBankCode: testApp.config.institutionCode,
      beneficiaryAccountNumber: otherAccountNumber,
    };
    for (const [amount, to] of [
      [100, intraBank],
      [30, {}],
      [20.05, {}],
    ] as const) {
      testApp.clock.advanceSeconds(60);
      const response = await sendTransfer(testApp.app, headers, {
        debitAccountNumber: ownAccountNumber,
        amount,
        ...to,
      });
      assert.equal(response.statusCode, 200, response.body);
    }
  });

  describe("200: the client's transfers, in and out, newest first", () => {
    it('lists every transfer of the client in the published transfer object', async () => {
      const { ibsClientId, testApp, headers } = context();
      const response = await list(ibsClientId);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Transfers fetched successfully.');
      assert.deepEqual(amounts(body.data), [
        ['Outwards', 20.05, 'Failed'],
        ['Outwards', 30, 'Completed'],
        ['Outwards', 100, 'Completed'],
        ['Inwards', 5_000, 'Completed'],
      ]);
      assert.deepEqual(body.pagination, { total: 4, pages: 1, page: '0', limit: '25' });
      const theirs = await testApp.app.inject({ method: 'GET', url: '/transfers', headers });
      assert.deepEqual(body.data, theirs.json().data, 'as the client reads them');
    });

    it("lists the recipient's side of an intra-bank transfer under the recipient only", async () => {
      const { otherHeaders } = context();
      const theirs = (await list(otherHeaders.clientid ?? '')).json().data as Item[];
      assert.deepEqual(amounts(theirs), [['Inwards', 100, 'Completed']]);
    });

    it('filters by direction, status and date range', async () => {
      const { ibsClientId } = context();
      const filtered = async (query: string) =>
        amounts((await list(ibsClientId, query)).json().data);
      assert.deepEqual(await filtered('?direction=Inwards'), [['Inwards', 5_000, 'Completed']]);
      assert.deepEqual(await filtered('?status=Failed'), [['Outwards', 20.05, 'Failed']]);
      assert.deepEqual(await filtered('?direction=Outwards&status=Completed'), [
        ['Outwards', 30, 'Completed'],
        ['Outwards', 100, 'Completed'],
      ]);
      assert.deepEqual(await filtered('?fromDate=2026-03-01&toDate=2026-03-01'), [
        ['Inwards', 5_000, 'Completed'],
      ]);
      assert.deepEqual(
        await filtered('?fromDate=2026-03-02T09:01:30Z&toDate=2026-03-02T09:02:30Z'),
        [['Outwards', 30, 'Completed']],
      );
      assert.deepEqual(await filtered('?fromDate=2026-03-03'), []);
      assert.deepEqual(await filtered('?status=Processing'), []);
    });

    it('pages with page (zero-based) and limit', async () => {
      const { ibsClientId } = context();
      const second = (await list(ibsClientId, '?page=1&limit=3')).json();
      assert.deepEqual(amounts(second.data), [['Inwards', 5_000, 'Completed']]);
      assert.deepEqual(second.pagination, { total: 4, pages: 2, page: '1', limit: '3' });
    });
  });

  describe('400: bad filters', () => {
    for (const query of [
      '?status=Lost',
      '?direction=inward',
      '?fromDate=2026-03-04&toDate=2026-03-02',
      '?toDate=tomorrow',
      '?limit=0',
    ]) {
      it(`refuses ${query}`, async () => {
        const response = await list(context().ibsClientId, query);
        assert.equal(response.statusCode, 400, response.body);
      });
    }
  });

  const request = (id: string) => ({
    method: 'GET' as const,
    url: `/admin/clients/${id}/transfers`,
  });
  describeAdminAuthGuards(context, request);
  describeAdminRecordIsolation(context, request);
});
