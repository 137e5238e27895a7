// PostgreSQL only: PGlite is one session, so concurrency there proves nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyLedger } from '../../src/ledger/ledger-audit.ts';
import { getAccount, sandboxCredit, signedInClient, VAS, vasPurchase } from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';

describe('VAS purchases under concurrency (PostgreSQL)', () => {
  let testApp: TestApp;
  let headers: Record<string, string>;

  before(async () => {
    testApp = await buildTestApp({}, { poolSize: 40 });
    headers = (await signedInClient(testApp, 'Airtime Ltd', 0)).headers;
  });
  after(() => testApp?.close());

  async function fundedAccount(naira: number) {
    const opened = await testApp.app.inject({
      method: 'POST',
      url: '/accounts',
      headers,
      payload: {},
    });
    const account = opened.json().data as { _id: string; accountNumber: string };
    await sandboxCredit(testApp.app, account.accountNumber, naira);
    return account;
  }

  const buy = (accountNumber: string, phoneNumber: string, amount: number) =>
    vasPurchase(testApp.app, headers, 'airtime', {
      serviceCategoryId: VAS.mtnAirtime,
      amount,
      debitAccountNumber: accountNumber,
      phoneNumber,
    });

  async function assertLedgerHolds() {
    const violations = await verifyLedger(testApp.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
    );
  }

  it('20 parallel purchases on an account that can afford 7: exactly 7 succeed', async () => {
    // ₦7,500 buys seven ₦1,000 purchases (the commission comes back only once each lands).
    const account = await fundedAccount(7_500);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        buy(account.accountNumber, `0803100${String(index).padStart(4, '5')}`, 1000),
      ),
    );
    const codes = answers.map((answer) => answer.statusCode).sort();
    assert.equal(
      codes.filter((code) => code === 200).length,
      7,
      answers.map((a) => a.body).join('\n'),
    );
    assert.equal(codes.filter((code) => code === 402).length, 13);
    const after = await getAccount(testApp.app, headers, account._id);
    assert.equal(after.bookBalance, 7_500 - 7 * 1000 + 7 * 30);
    assert.equal(after.lockedBalance, 0);
    await assertLedgerHolds();
  });

  it('a biller failure after the hold leaves the balance as it was', async () => {
    const account = await fundedAccount(5_000);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        buy(account.accountNumber, `080310${index}0000`, 400),
      ),
    );
    for (const answer of answers) {
      assert.equal(answer.statusCode, 400, answer.body);
      assert.equal(answer.json().code, 'VAS_PURCHASE_FAILED');
    }
    const after = await getAccount(testApp.app, headers, account._id);
    assert.deepEqual(
      [after.accountBalance, after.bookBalance, after.lockedBalance],
      [5_000, 5_000, 0],
    );
    await assertLedgerHolds();
  });
});
