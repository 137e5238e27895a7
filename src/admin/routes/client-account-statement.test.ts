import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminHeaders, sandboxCredit } from '../../../test/factories.ts';
import {
  describeAdminAuthGuards,
  describeAdminRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

describe('GET /admin/clients/:id/accounts/:accountId/statement', () => {
  const context = useRouteContext();
  const adminStatement = (clientId: string, accountId: string, query = '') =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/admin/clients/${clientId}/accounts/${encodeURIComponent(accountId)}/statement${query}`,
      headers: adminHeaders,
    });
  const clientStatement = (query = '') => {
    const { testApp, headers, ownAccountId } = context();
    return testApp.app.inject({
      method: 'GET',
      url: `/accounts/${ownAccountId}/statement${query}`,
      headers,
    });
  };

  // 2 March: two credits of ₦100; 3 March: ₦20,000 and its ₦50 stamp duty.
  before(async () => {
    const { testApp, ownAccountNumber } = context();
    const tokenIssuedAt = testApp.clock.now();
    testApp.clock.set(new Date('2026-03-02T10:00:00.000Z'));
    await sandboxCredit(testApp.app, ownAccountNumber, 100);
    await sandboxCredit(testApp.app, ownAccountNumber, 100);
    testApp.clock.set(new Date('2026-03-03T10:00:00.000Z'));
    await sandboxCredit(testApp.app, ownAccountNumber, 20_000);
    testApp.clock.set(tokenIssuedAt);
  });

  describe('200: the statement the client reads', () => {
    for (const query of [
      '',
      '?page=1&limit=2',
      '?fromDate=2026-03-02&toDate=2026-03-02',
      '?type=Debit',
    ]) {
      it(`answers what GET /accounts/:id/statement${query} answers`, async () => {
        const { ibsClientId, ownAccountId } = context();
        const response = await adminStatement(ibsClientId, ownAccountId, query);
        assert.equal(response.statusCode, 200, response.body);
        const mine = await clientStatement(query);
        assert.equal(mine.statusCode, 200, mine.body);
        assert.deepEqual(response.json(), mine.json());
      });
    }

    it('newest entry first, with the running balance, filtered by date', async () => {
      const { ibsClientId, ownAccountId } = context();
      const all = (await adminStatement(ibsClientId, ownAccountId)).json();
      assert.deepEqual(
        all.data.map((row: { entryNumber: number }) => row.entryNumber),
        [4, 3, 2, 1],
      );
      assert.deepEqual(
        all.data.map((row: { type: string; amount: number }) => [row.type, row.amount]),
        [
          ['Debit', 50],
          ['Credit', 20_000],
          ['Credit', 100],
          ['Credit', 100],
        ],
      );
      assert.equal(all.data[0].balanceAfter, 20_150);
      const day = (
        await adminStatement(ibsClientId, ownAccountId, '?fromDate=2026-03-03&toDate=2026-03-03')
      ).json();
      assert.equal(day.pagination.total, 2);
    });
  });

  describe('400 "Unable to locate record": the account must be that client\'s', () => {
    it("answers another client's account as an unknown one", async () => {
      const { ibsClientId, otherAccountId, otherHeaders } = context();
      for (const accountId of [otherAccountId, 'f'.repeat(24), 'not-an-id']) {
        const response = await adminStatement(ibsClientId, accountId);
        assert.equal(response.statusCode, 400, `${accountId}: ${response.body}`);
        assert.equal(response.json().code, 'RECORD_NOT_FOUND');
        assert.equal(response.json().message, 'Unable to locate record');
      }
      // The same account under its own client answers.
      const theirs = await adminStatement(otherHeaders.clientid ?? '', otherAccountId);
      assert.equal(theirs.statusCode, 200, theirs.body);
    });
  });

  describe('400: bad filters', () => {
    it('refuses fromDate after toDate, a malformed date and a bad limit', async () => {
      const { ibsClientId, ownAccountId } = context();
      const reversed = await adminStatement(
        ibsClientId,
        ownAccountId,
        '?fromDate=2026-03-04&toDate=2026-03-02',
      );
      assert.equal(reversed.statusCode, 400);
      assert.equal(reversed.json().code, 'INVALID_DATE_RANGE');
      for (const query of ['?fromDate=yesterday', '?limit=101']) {
        assert.equal((await adminStatement(ibsClientId, ownAccountId, query)).statusCode, 400);
      }
    });
  });

  const request = (id: string) => ({
    method: 'GET' as const,
    url: `/admin/clients/${id}/accounts/${context().ownAccountId}/statement`,
  });
  describeAdminAuthGuards(context, request);
  describeAdminRecordIsolation(context, request);
});
