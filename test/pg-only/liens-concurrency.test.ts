// PostgreSQL only: recalls, reversals and liens under concurrency. A recall racing the account's
// own transfers (from two service graphs on one database, as two server processes would) takes
// what the account has under the batch's locks and liens the rest: money is conserved, nothing
// goes negative, the lien is what was missing. The same recall delivered 20 times at once debits
// once; a reversal asked 20 times at once reverses once; 20 credits racing to pay one lien pay
// it once, in full, and the rest stays available. Every ledger invariant holds after each
// (src/ledger/ledger-audit.ts: lien totals = Σ outstanding, lien receivable = −Σ outstanding).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { adminHeaders, nameEnquiry, sandboxCredit, signedInClient } from '../factories.ts';
import { buildSecondApp, buildTestApp, type TestApp } from '../harness.ts';
import { balancesOf, lienEvents, liensOf } from '../liens.ts';
import { assertLedgerInvariants, transferEvents } from '../nip-returns.ts';

const OUR_BANK = '999240';

describe('recalls, reversals and liens under concurrency (PostgreSQL)', () => {
  let testApp: TestApp;
  let second: FastifyInstance;
  let apps: FastifyInstance[];

  before(async () => {
    testApp = await buildTestApp({}, { poolSize: 30 });
    second = await buildSecondApp(testApp);
    apps = [testApp.app, second];
  });
  after(async () => {
    await second?.close();
    await testApp?.close();
  });

  async function customer(name: string, keyIndex: number) {
    const signedIn = await signedInClient(testApp, name, keyIndex);
    const accountId = signedIn.client.mainAccountId;
    const accountNumber = signedIn.client.mainAccountNumber;
    return {
      ...signedIn,
      accountId,
      accountNumber,
      balances: () => balancesOf(testApp, signedIn.headers, accountId),
      /** An intra-bank transfer of `amount` naira to `to`, through one of the two apps. */
      async pay(app: FastifyInstance, to: string, amount: number) {
        const enquiry = await nameEnquiry(testApp.app, signedIn.headers, OUR_BANK, to);
        return app.inject({
          method: 'POST',
          url: '/transfers',
          headers: signedIn.headers,
          payload: {
            nameEnquiryReference: enquiry.sessionId,
            debitAccountNumber: accountNumber,
            beneficiaryBankCode: OUR_BANK,
            beneficiaryAccountNumber: to,
            amount,
          },
        });
      },
    };
  }

  const recallThrough = (app: FastifyInstance, sessionId: string) =>
    app.inject({
      method: 'POST',
      url: '/admin/sandbox/nip/recalls',
      headers: adminHeaders,
      payload: { sessionId },
    });

  it("a recall racing the account's own transfers: conserved, none negative, the lien is what was missing", async () => {
    const spender = await customer('Spender Ltd', 0);
    const payee = await customer('Payee Ltd', 1);
    await sandboxCredit(testApp.app, spender.accountNumber, 500);
    const credit = await sandboxCredit(testApp.app, spender.accountNumber, 1_000);
    const [recalled, ...answers] = await Promise.all([
      recallThrough(second, credit.sessionId),
      ...Array.from({ length: 30 }, (_, index) =>
        spender.pay(apps[index % 2] as FastifyInstance, payee.accountNumber, 50),
      ),
    ]);
    assert.equal(recalled.statusCode, 200, recalled.body);
    for (const answer of answers) {
      if (answer.statusCode !== 200) {
        assert.equal(answer.json().code, 'INSUFFICIENT_FUNDS', answer.body);
      }
    }
    const paidKobo = answers.filter((answer) => answer.statusCode === 200).length * 5_000;
    const lien = recalled.json().data.lien as { amount: number; outstanding: number } | null;
    const lienKobo = lien === null ? 0 : Math.round(lien.outstanding * 100);
    const end = await spender.balances();
    // What it had (₦1,500), less what it paid and what went back: the lien is what it lacked.
    assert.equal(end.book - lienKobo, 50_000 - paidKobo, 'money conserved');
    assert.ok(end.available >= 0 && end.book >= 0, 'nothing negative');
    assert.equal(end.locked, lienKobo, 'lockedBalance is the lien');
    if (lienKobo > 0) {
      assert.equal(end.available, 0, 'a lien leaves nothing available');
    }
    assert.deepEqual(await payee.balances(), { available: paidKobo, book: paidKobo, locked: 0 });
    await assertLedgerInvariants(testApp.db);
  });

  it('the same recall delivered 20 times at once: one debit, one lien, one event', async () => {
    const holder = await customer('Twice Recalled Ltd', 0);
    const credit = await sandboxCredit(testApp.app, holder.accountNumber, 800);
    const spent = await holder.pay(
      testApp.app,
      (await customer('Elsewhere Ltd', 1)).accountNumber,
      300,
    );
    assert.equal(spent.statusCode, 200, spent.body);
    const notice = {
      sessionId: credit.sessionId,
      recallSessionId: `${credit.sessionId.slice(0, 6)}${'7'.repeat(24)}`,
      reason: 'Sent twice',
    };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => testApp.services.inboundRecalls.receive(notice)),
    );
    for (const answer of answers) {
      assert.equal(answer.transfer.status, 'Reversed');
      assert.equal(answer.transfer.reversalReference, notice.recallSessionId);
      assert.deepEqual(
        answer.liens.map((lien) => lien.amountKobo),
        [30_000n],
      );
    }
    assert.deepEqual(await holder.balances(), { available: 0, book: 0, locked: 30_000 });
    assert.equal((await liensOf(testApp, holder.headers, holder.accountId)).length, 1);
    const journals = await testApp.db.query<{ n: bigint }>(
      `SELECT count(*) AS n FROM ledger_journals WHERE kind = 'inbound_recall' AND transfer_id = $1`,
      [credit._id],
    );
    assert.equal(Number(journals[0]?.n), 1);
    assert.deepEqual(
      (await transferEvents(testApp.db, credit._id)).map((event) => event.status),
      ['Completed', 'Reversed'],
    );
    await assertLedgerInvariants(testApp.db);
  });

  it('a reversal asked 20 times at once, through two apps: reversed once, every answer the same', async () => {
    const sender = await customer('Mistaken Ltd', 0);
    const beneficiary = await customer('Lucky Ltd', 1);
    await sandboxCredit(testApp.app, sender.accountNumber, 1_000);
    const sent = await sender.pay(testApp.app, beneficiary.accountNumber, 600);
    assert.equal(sent.statusCode, 200, sent.body);
    const transferId: string = sent.json().data._id;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (apps[index % 2] as FastifyInstance).inject({
          method: 'POST',
          url: `/admin/transfers/${transferId}/reversal`,
          headers: { ...adminHeaders, 'x-operator': `ops${index}` },
          payload: { reason: 'Wrong beneficiary' },
        }),
      ),
    );
    const bodies = answers.map((answer) => {
      assert.equal(answer.statusCode, 200, answer.body);
      return JSON.stringify(answer.json().data);
    });
    assert.equal(new Set(bodies).size, 1, 'one reversal, answered alike');
    assert.deepEqual(await sender.balances(), { available: 100_000, book: 100_000, locked: 0 });
    assert.deepEqual(await beneficiary.balances(), { available: 0, book: 0, locked: 0 });
    const journals = await testApp.db.query<{ n: bigint }>(
      `SELECT count(*) AS n FROM ledger_journals WHERE kind = 'transfer_reversal' AND transfer_id = $1`,
      [transferId],
    );
    assert.equal(Number(journals[0]?.n), 1);
    assert.deepEqual(
      (await transferEvents(testApp.db, transferId)).map((event) => event.status),
      ['Completed', 'Reversed'],
    );
    await assertLedgerInvariants(testApp.db);
  });

  it('20 credits racing to pay one lien: paid once, in full, the rest available', async () => {
    const debtor = await customer('Debtor Ltd', 0);
    const credit = await sandboxCredit(testApp.app, debtor.accountNumber, 1_000);
    const spent = await debtor.pay(
      testApp.app,
      (await customer('Shop Ltd', 1)).accountNumber,
      1_000,
    );
    assert.equal(spent.statusCode, 200, spent.body);
    const recalled = await recallThrough(testApp.app, credit.sessionId);
    assert.equal(recalled.statusCode, 200, recalled.body);
    const lienId: string = recalled.json().data.lien._id;
    assert.equal(recalled.json().data.lien.amount, 1_000);
    // 20 credits of ₦70 (₦1,400) from two apps at once: the lien takes ₦1,000 of them.
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        sandboxCredit(apps[index % 2] as FastifyInstance, debtor.accountNumber, 70),
      ),
    );
    assert.deepEqual(await debtor.balances(), { available: 40_000, book: 40_000, locked: 0 });
    const [lien] = await liensOf(testApp, debtor.headers, debtor.accountId);
    assert.deepEqual([lien?.status, lien?.outstanding], ['filled', 0]);
    assert.deepEqual(
      (await lienEvents(testApp.db, lienId)).map((event) => [event.status, event.outstanding]),
      [
        ['active', 1_000],
        ['filled', 0],
      ],
      'one filled event',
    );
    const fills = await testApp.db.query<{ n: bigint }>(
      `SELECT count(*) AS n FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
        WHERE j.kind = 'lien_fill' AND e.account_id = $1`,
      [debtor.accountId],
    );
    assert.equal(Number(fills[0]?.n), 15, '₦1,000 paid by 14 credits of ₦70 and part of a 15th');
    await assertLedgerInvariants(testApp.db);
  });
});
