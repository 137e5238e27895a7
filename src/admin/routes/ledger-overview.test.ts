import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders, sandboxCredit, sendTransfer } from '../../../test/factories.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';
import { GL_ACCOUNTS } from '../../ledger/gl-accounts.ts';

interface Overview {
  ok: boolean;
  violations: Record<string, number>;
  glAccounts: { _id: string; name: string; balance: number; entryCount: number }[];
  totals: {
    customerBalances: number;
    glBalances: number;
    allBalances: number;
    lockedBalances: number;
    ledgerAccounts: number;
  };
}

describe('GET /admin/ledger', () => {
  const context = useRouteContext();
  const overview = async (): Promise<Overview> => {
    const response = await context().testApp.app.inject({
      method: 'GET',
      url: '/admin/ledger',
      headers: adminHeaders,
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().message, 'Ledger fetched successfully.');
    return response.json().data;
  };
  const gl = (view: Overview, id: string) => view.glAccounts.find((account) => account._id === id);

  describe('200: the GL accounts, the totals and the audit', () => {
    it('lists every GL account; a sound ledger sums to zero and breaks no invariant', async () => {
      const view = await overview();
      assert.deepEqual(
        view.glAccounts.map((account) => account._id).sort(),
        Object.values(GL_ACCOUNTS).sort(),
      );
      assert.equal(view.ok, true);
      assert.deepEqual(view.violations, {
        unbalancedJournals: 0,
        journalsWithoutEntries: 0,
        accountCountersWrong: 0,
        runningBalanceOrTimeWrong: 0,
        overdrawnEntries: 0,
        lienTotalsWrong: 0,
        lienReceivableWrong: 0,
        liensWithFundsLeft: 0,
      });
      assert.equal(view.totals.allBalances, 0);
      // Two clients, one main account each, and the GL accounts.
      assert.equal(view.totals.ledgerAccounts, 2 + view.glAccounts.length);
    });

    it('follows the money: a credit in and a transfer out move the GL and customer totals', async () => {
      const { testApp, headers, ownAccountNumber } = context();
      const before = await overview();
      await sandboxCredit(testApp.app, ownAccountNumber, 20_000);
      const credited = await overview();
      assert.equal(credited.totals.customerBalances, before.totals.customerBalances + 20_000 - 50);
      assert.equal(credited.totals.glBalances, before.totals.glBalances - 20_000 + 50);
      assert.equal(
        gl(credited, GL_ACCOUNTS.sandboxExternalFloat)?.balance,
        (gl(before, GL_ACCOUNTS.sandboxExternalFloat)?.balance ?? 0) - 20_000,
      );
      assert.equal(
        gl(credited, GL_ACCOUNTS.stampDutyPayable)?.balance,
        (gl(before, GL_ACCOUNTS.stampDutyPayable)?.balance ?? 0) + 50,
      );
      const sent = await sendTransfer(testApp.app, headers, {
        debitAccountNumber: ownAccountNumber,
        amount: 1_000,
      });
      assert.equal(sent.statusCode, 200, sent.body);
      const after = await overview();
      assert.equal(
        gl(after, GL_ACCOUNTS.nipSettlement)?.balance,
        (gl(credited, GL_ACCOUNTS.nipSettlement)?.balance ?? 0) + 1_000,
      );
      const fee = sent.json().data.fees + sent.json().data.vat;
      assert.equal(after.totals.customerBalances, credited.totals.customerBalances - 1_000 - fee);
      assert.equal(after.totals.allBalances, 0);
      assert.equal(after.ok, true);
    });
  });

  describe('200 with ok false: a broken invariant is counted', () => {
    it('counts an account whose balance is not the sum of its entries', async () => {
      const { testApp, ownAccountId } = context();
      // Corrupt one balance behind the ledger's back, then put it back.
      const corrupt = (delta: number) =>
        testApp.db.query(
          'UPDATE ledger_accounts SET balance_kobo = balance_kobo + $2 WHERE id = $1',
          [ownAccountId, delta],
        );
      await corrupt(100);
      try {
        const view = await overview();
        assert.equal(view.ok, false);
        assert.equal(view.violations.accountCountersWrong, 1);
        assert.equal(view.totals.allBalances, 1);
      } finally {
        await corrupt(-100);
      }
      assert.equal((await overview()).ok, true);
    });
  });

  describeAdminAuthGuards(context, () => ({ method: 'GET', url: '/admin/ledger' }));
});
