// PostgreSQL only: PGlite is one session, so concurrency there proves nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyLedger } from '../../src/ledger/ledger-audit.ts';
import {
  accountBalance,
  createVirtualAccount,
  nameEnquiry,
  payVirtualAccount,
  sandboxCredit,
  signedInClient,
} from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';

type Headers = Record<string, string>;

describe('virtual accounts under concurrency (PostgreSQL)', () => {
  let testApp: TestApp;
  let merchant: { headers: Headers; accountNumber: string };
  let payer: { headers: Headers; accountNumber: string };

  before(async () => {
    testApp = await buildTestApp({}, { poolSize: 40 });
    const own = await signedInClient(testApp, 'Merchant Ltd', 0);
    const other = await signedInClient(testApp, 'Payer Ltd', 1);
    merchant = { headers: own.headers, accountNumber: own.client.mainAccountNumber };
    payer = { headers: other.headers, accountNumber: other.client.mainAccountNumber };
    await sandboxCredit(testApp.app, payer.accountNumber, 1_000_000);
  });
  after(() => testApp?.close());

  const merchantBalance = () =>
    accountBalance(testApp.app, merchant.headers, merchant.accountNumber);
  const payerBalance = () => accountBalance(testApp.app, payer.headers, payer.accountNumber);

  async function assertLedgerHolds() {
    const violations = await verifyLedger(testApp.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
    );
  }

  async function intraBankPayment(accountNumber: string, amount: number) {
    const enquiry = await nameEnquiry(testApp.app, payer.headers, '999240', accountNumber);
    return testApp.app.inject({
      method: 'POST',
      url: '/transfers',
      headers: payer.headers,
      payload: {
        nameEnquiryReference: enquiry.sessionId,
        debitAccountNumber: payer.accountNumber,
        beneficiaryBankCode: '999240',
        beneficiaryAccountNumber: accountNumber,
        amount,
        saveBeneficiary: false,
      },
    });
  }

  it('50 parallel payments (NIP and intra-bank) into one Fixed account: exactly one lands', async () => {
    const account = await createVirtualAccount(
      testApp.app,
      merchant.headers,
      merchant.accountNumber,
      {
        amount: 1000,
        validFor: 3600,
      },
    );
    // Name enquiries first, so the race is between the payments themselves.
    const enquiries = await Promise.all(
      Array.from({ length: 25 }, () =>
        nameEnquiry(testApp.app, payer.headers, '999240', account.accountNumber),
      ),
    );
    const [merchantBefore, payerBefore] = [await merchantBalance(), await payerBalance()];
    const answers = await Promise.all([
      ...Array.from({ length: 25 }, () =>
        payVirtualAccount(testApp.app, account.accountNumber, 1000),
      ),
      ...enquiries.map((enquiry) =>
        testApp.app.inject({
          method: 'POST',
          url: '/transfers',
          headers: payer.headers,
          payload: {
            nameEnquiryReference: enquiry.sessionId,
            debitAccountNumber: payer.accountNumber,
            beneficiaryBankCode: '999240',
            beneficiaryAccountNumber: account.accountNumber,
            amount: 1000,
            saveBeneficiary: false,
          },
        }),
      ),
    ]);
    const accepted = answers.filter((answer) => answer.statusCode < 300);
    const refused = answers.filter((answer) => answer.statusCode === 400);
    assert.equal(accepted.length, 1, answers.map((answer) => answer.body).join('\n'));
    assert.equal(refused.length, 49);
    for (const answer of refused) {
      assert.equal(answer.json().code, 'VIRTUAL_ACCOUNT_CLOSED', answer.body);
    }
    const viaTransfer = accepted[0]?.json().data.type === 'Outwards';
    assert.equal(
      await payerBalance(),
      (payerBefore ?? 0) - (viaTransfer ? 1000 : 0),
      'the payer is debited once at most',
    );
    assert.equal(await merchantBalance(), (merchantBefore ?? 0) + 1000 - 5 - 0.38);
    const payments = await testApp.app.inject({
      method: 'GET',
      url: `/virtual-accounts/${account._id}/transaction`,
      headers: merchant.headers,
    });
    assert.equal(payments.json().data.length, 1);
    await assertLedgerHolds();
  });

  it('payments racing the expiry boundary are settled whole or refused whole', async () => {
    const accounts = await Promise.all(
      Array.from({ length: 40 }, () =>
        createVirtualAccount(testApp.app, merchant.headers, merchant.accountNumber, {
          amount: 10,
          validFor: 60,
        }),
      ),
    );
    const merchantBefore = await merchantBalance();
    const paying = accounts.map((account) =>
      payVirtualAccount(testApp.app, account.accountNumber, 10),
    );
    // The window closes while the payments are in flight.
    testApp.clock.advanceSeconds(60);
    const answers = await Promise.all(paying);
    testApp.clock.advanceSeconds(-60);
    let landed = 0;
    for (const [index, answer] of answers.entries()) {
      const account = accounts[index];
      assert.ok(account);
      const read = await testApp.app.inject({
        method: 'GET',
        url: `/virtual-accounts/${account._id}/transaction`,
        headers: merchant.headers,
      });
      const payments = read.json().data as { amount: number }[];
      if (answer.statusCode === 201) {
        landed += 1;
        assert.equal(payments.length, 1);
      } else {
        assert.equal(answer.statusCode, 400, answer.body);
        assert.equal(answer.json().code, 'VIRTUAL_ACCOUNT_CLOSED');
        assert.equal(payments.length, 0);
      }
    }
    // 0.05 fee, VAT rounds to nothing: each landed payment adds 9.95.
    assert.equal(
      Math.round(((await merchantBalance()) ?? 0) * 100),
      Math.round((merchantBefore ?? 0) * 100) + landed * 995,
    );
    await assertLedgerHolds();
  });

  it('a delete racing payments wins or loses whole: a deleted account never turns Paid', async () => {
    for (let round = 0; round < 10; round += 1) {
      const account = await createVirtualAccount(
        testApp.app,
        merchant.headers,
        merchant.accountNumber,
        { amount: 3, validFor: 3600 },
      );
      const [deleted, ...payments] = await Promise.all([
        testApp.app.inject({
          method: 'DELETE',
          url: `/virtual-accounts/${account._id}`,
          headers: merchant.headers,
        }),
        ...Array.from({ length: 5 }, () =>
          payVirtualAccount(testApp.app, account.accountNumber, 3),
        ),
      ]);
      assert.equal(deleted?.statusCode, 200, deleted?.body);
      assert.ok(payments.filter((answer) => answer.statusCode === 201).length <= 1);
      const rows = await testApp.db.query<{ status: string; payments: bigint }>(
        `SELECT status, (SELECT count(*) FROM virtual_account_payments p
                          WHERE p.virtual_account_id = v.id) AS payments
           FROM virtual_accounts v WHERE id = $1`,
        [account._id],
      );
      assert.equal(rows[0]?.status, 'Deleted');
      assert.equal(
        Number(rows[0]?.payments),
        payments.filter((answer) => answer.statusCode === 201).length,
      );
    }
    await assertLedgerHolds();
  });

  it('intra-bank payments into many accounts at once each land once', async () => {
    const accounts = await Promise.all(
      Array.from({ length: 30 }, () =>
        createVirtualAccount(testApp.app, merchant.headers, merchant.accountNumber, {
          amountControl: 'OverPayment',
          amount: 20,
          validFor: 3600,
        }),
      ),
    );
    const payerBefore = await payerBalance();
    const answers = await Promise.all(
      accounts.map((account) => intraBankPayment(account.accountNumber, 25)),
    );
    for (const answer of answers) {
      assert.equal(answer.statusCode, 200, answer.body);
    }
    assert.equal(await payerBalance(), (payerBefore ?? 0) - 30 * 25);
    await assertLedgerHolds();
  });
});
