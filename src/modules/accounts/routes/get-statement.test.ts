import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sandboxCredit } from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

interface Row {
  entryNumber: number;
  type: string;
  amount: number;
  balanceAfter: number;
  narration: string;
  reference: string;
  transferId: string;
}

describe('GET /accounts/:id/statement', () => {
  const context = useRouteContext();
  const request = (id: string, query = '') => ({
    method: 'GET' as const,
    url: `/accounts/${id}/statement${query}`,
  });
  const statement = async (query: string) => {
    const response = await context().testApp.app.inject({
      ...request(context().ownAccountId, query),
      headers: context().headers,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as { data: Row[]; pagination: Record<string, unknown> };
  };
  const numbers = (rows: Row[]) => rows.map((row) => row.entryNumber);

  // Entries: 2 March #1-#3 credits of ₦100; 3 March #4 ₦20,000, #5 its ₦50 stamp duty,
  // #6 ₦20,000, #7 its stamp duty; 4 March #8 ₦50.
  before(async () => {
    const { testApp, headers, ownAccountId } = context();
    const account = await testApp.app.inject({
      method: 'GET',
      url: `/accounts/${ownAccountId}`,
      headers,
    });
    const accountNumber: string = account.json().data.accountNumber;
    const tokenIssuedAt = testApp.clock.now();
    testApp.clock.set(new Date('2026-03-02T10:00:00.000Z'));
    for (const amount of [100, 100, 100]) {
      await sandboxCredit(testApp.app, accountNumber, amount);
    }
    testApp.clock.set(new Date('2026-03-03T10:00:00.000Z'));
    await sandboxCredit(testApp.app, accountNumber, 20000);
    await sandboxCredit(testApp.app, accountNumber, 20000);
    testApp.clock.set(new Date('2026-03-04T23:59:59.000Z'));
    await sandboxCredit(testApp.app, accountNumber, 50);
    // Back to when the test tokens were issued, so they are still valid.
    testApp.clock.set(tokenIssuedAt);
  });

  describe('200: newest first, with running balance', () => {
    it('pages through every entry with the published pagination', async () => {
      const first = await statement('?page=0&limit=3');
      assert.deepEqual(numbers(first.data), [8, 7, 6]);
      assert.deepEqual(first.pagination, { total: 8, pages: 3, page: '0', limit: '3' });
      assert.deepEqual(numbers((await statement('?page=2&limit=3')).data), [2, 1]);
      assert.deepEqual((await statement('?page=3&limit=3')).data, []);
    });

    it('still counts the entries on a page past the end, for every filter', async () => {
      const past = await statement('?page=3&limit=3');
      assert.deepEqual(past.data, []);
      assert.deepEqual(past.pagination, { total: 8, pages: 3, page: '3', limit: '3' });
      const debits = await statement('?type=Debit&page=1&limit=2');
      assert.deepEqual(debits.data, []);
      assert.equal(debits.pagination.total, 2);
      const day = await statement('?fromDate=2026-03-03&toDate=2026-03-03&page=9&limit=2');
      assert.deepEqual(day.data, []);
      assert.equal(day.pagination.total, 4);
    });

    it('shows the running balance, amounts, narration and the originating transfer', async () => {
      const rows = (await statement('')).data;
      assert.deepEqual(
        rows.map((row) => row.balanceAfter),
        [40250, 40200, 40250, 20250, 20300, 300, 200, 100],
      );
      const duty = rows.find((row) => row.entryNumber === 5);
      const credit = rows.find((row) => row.entryNumber === 4);
      assert.equal(duty?.type, 'Debit');
      assert.equal(duty?.amount, 50);
      assert.match(duty?.narration ?? '', /^Stamp duty on \d{30}$/);
      assert.equal(credit?.type, 'Credit');
      assert.equal(credit?.amount, 20000);
      assert.equal(credit?.transferId, duty?.transferId);
      assert.match(credit?.reference ?? '', /^\d{30}$/);
    });

    it('filters by type, by numbering range rather than offset', async () => {
      const debits = await statement('?type=Debit');
      assert.deepEqual(numbers(debits.data), [7, 5]);
      assert.equal(debits.pagination.total, 2);
      const credits = await statement('?type=Credit&limit=2&page=1');
      assert.deepEqual(numbers(credits.data), [4, 3]);
      assert.equal(credits.pagination.total, 6);
    });

    it('filters by whole UTC days: toDate includes its whole day', async () => {
      assert.deepEqual(numbers((await statement('?fromDate=2026-03-04')).data), [8]);
      assert.deepEqual(numbers((await statement('?toDate=2026-03-02')).data), [3, 2, 1]);
      const day = await statement('?fromDate=2026-03-03&toDate=2026-03-03&type=Credit');
      assert.deepEqual(numbers(day.data), [6, 4]);
      assert.equal(day.pagination.total, 2);
      const timed = await statement(
        '?fromDate=2026-03-03T10:00:00.000Z&toDate=2026-03-04T00:00:00Z',
      );
      assert.deepEqual(numbers(timed.data), [7, 6, 5, 4]);
    });

    it('answers an empty page for a range with no entries', async () => {
      const empty = await statement('?fromDate=2026-01-01&toDate=2026-01-31');
      assert.deepEqual(empty.data, []);
      assert.equal(empty.pagination.total, 0);
      const future = await statement('?fromDate=2027-01-01&type=Debit');
      assert.deepEqual(future.data, []);
    });
  });

  describe('400: bad filters', () => {
    for (const query of [
      '?fromDate=2026-03-05&toDate=2026-03-01',
      '?fromDate=yesterday',
      '?toDate=2026-13-45',
      '?type=Both',
      '?limit=101',
    ]) {
      it(`refuses ${query}`, async () => {
        const response = await context().testApp.app.inject({
          ...request(context().ownAccountId, query),
          headers: context().headers,
        });
        assert.equal(response.statusCode, 400, response.body);
      });
    }
  });

  describeAuthGuards(context, (id) => request(id));
  describeRecordIsolation(context, (id) => request(id));
});
