import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  getAccount,
  individualSubAccountBody,
  OTHER_BANK,
  OTHER_BANK_ACCOUNT,
  sandboxCredit,
  sendTransfer,
  signedInClient,
  VAS,
  vasPurchase,
  verifyIdentity,
} from '../../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../../test/harness.ts';
import { createVasStatusQueryWorker } from '../vas-status-query-worker.ts';

// A KYC level 2 account (a sub-account) moves ₦1,000 per transfer and ₦3,000 a day for its
// identity; a client's own account ₦5,000 a day (the general limit).
const LIMITS = { TRANSFER_LIMITS_BY_KYC_NAIRA: '2:1000/3000', TRANSFER_LIMIT_DAILY_NAIRA: '5000' };
const OUR_BANK = '999240';
/** An IKEJA meter the biller simulator sells to at once (docs/vas.md, Sandbox). */
const METER = '45678912345';
/** Phone numbers by their simulated outcome: the last four digits decide. */
const PHONE = {
  successful: '08031234567',
  failed: '08031230000',
  pendingThenFailed: '08031232222',
  pendingThenSuccessful: '08031231111',
};

type Headers = Record<string, string>;
interface Opened {
  readonly _id: string;
  readonly accountNumber: string;
}

/**
 * Money leaves the bank by a transfer or by a VAS purchase: the daily limit of an account's KYC
 * level, counted per identity, sees both (docs/vas.md, "The daily limit").
 */
describe('VAS purchases count towards the daily limit, with transfers', () => {
  let testApp: TestApp;
  let headers: Headers;
  let main: Opened;

  before(async () => {
    testApp = await buildTestApp(LIMITS);
    const signedIn = await signedInClient(testApp);
    headers = signedIn.headers;
    main = { _id: signedIn.client.mainAccountId, accountNumber: signedIn.client.mainAccountNumber };
    await sandboxCredit(testApp.app, main.accountNumber, 50_000);
  });
  after(() => testApp?.close());

  /** A sub-account on a fresh check of `bvn`, funded beyond the limit (₦10,000). */
  async function subAccount(bvn: string): Promise<Opened> {
    const identityId = await verifyIdentity(testApp.app, headers, {
      type: 'BVN',
      number: bvn,
      debitAccountNumber: main.accountNumber,
    });
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/accounts/subaccount',
      headers,
      payload: individualSubAccountBody(identityId, { identityNumber: bvn }),
    });
    assert.equal(response.statusCode, 200, response.body);
    const opened = response.json().data as Opened;
    await sandboxCredit(testApp.app, opened.accountNumber, 10_000);
    return opened;
  }

  const airtime = (from: Opened, amount: number, phoneNumber = PHONE.successful, extra = {}) =>
    vasPurchase(
      testApp.app,
      headers,
      'airtime',
      {
        serviceCategoryId: VAS.mtnAirtime,
        amount,
        debitAccountNumber: from.accountNumber,
        phoneNumber,
      },
      extra,
    );
  const electricity = (from: Opened, amount: number) =>
    vasPurchase(testApp.app, headers, 'utility', {
      serviceCategoryId: VAS.ikeja,
      amount,
      debitAccountNumber: from.accountNumber,
      meterNumber: METER,
    });
  const toMain = (from: Opened, amount: number) =>
    sendTransfer(testApp.app, headers, {
      debitAccountNumber: from.accountNumber,
      beneficiaryBankCode: OUR_BANK,
      beneficiaryAccountNumber: main.accountNumber,
      amount,
    });
  const nip = (from: Opened, amount: number) =>
    sendTransfer(testApp.app, headers, {
      debitAccountNumber: from.accountNumber,
      beneficiaryBankCode: OTHER_BANK,
      beneficiaryAccountNumber: OTHER_BANK_ACCOUNT,
      amount,
    });
  const available = async (account: Opened) =>
    (await getAccount(testApp.app, headers, account._id)).accountBalance as number;

  async function assertOk(answer: Promise<{ statusCode: number; body: string }>, what: string) {
    const response = await answer;
    assert.equal(response.statusCode, 200, `${what}: ${response.body}`);
  }

  async function assertOverTheLimit(
    answer: Promise<{
      statusCode: number;
      body: string;
      json(): { code: string; message: string };
    }>,
    what: string,
  ) {
    const response = await answer;
    assert.equal(response.statusCode, 402, `${what}: ${response.body}`);
    assert.equal(response.json().code, 'TRANSFER_LIMIT_EXCEEDED', what);
    return response.json().message;
  }

  async function dailyTotal(account: Opened): Promise<bigint> {
    const [row] = await testApp.db.query<{ total_kobo: bigint }>(
      `SELECT d.total_kobo FROM daily_outbound_totals d
         JOIN accounts a ON d.limit_key = coalesce(a.daily_limit_key, a.id)
        WHERE a.id = $1 AND d.day = $2::date`,
      [account._id, testApp.clock.now().toISOString().slice(0, 10)],
    );
    return row?.total_kobo ?? 0n;
  }

  async function settlePending() {
    testApp.clock.advanceSeconds(30);
    const worker = createVasStatusQueryWorker({
      db: testApp.db,
      clock: testApp.clock,
      purchases: testApp.services.vasPurchaseService,
      batchSize: 50,
      pollIntervalMs: 1000,
      claimSeconds: 60,
    });
    try {
      await worker.runOnce();
    } finally {
      testApp.clock.advanceSeconds(-30);
    }
  }

  it("a VAS purchase is refused (402) once transfers spent the identity's day: nothing held", async () => {
    const [payer, sibling] = [await subAccount('22212345671'), await subAccount('22212345671')];
    for (let count = 0; count < 3; count += 1) {
      await assertOk(toMain(payer, 1000), 'a ₦1,000 transfer');
    }
    const before = { payer: await available(payer), sibling: await available(sibling) };
    const purchases = await testApp.db.query('SELECT id FROM vas_purchases');
    // Three ₦100k electricity purchases once went through after the identity's limit was spent.
    for (const from of [payer, sibling, sibling]) {
      const message = await assertOverTheLimit(electricity(from, 500), 'electricity');
      assert.match(message, /daily limit that the accounts opened on this identity share/);
    }
    await assertOverTheLimit(airtime(sibling, 50), 'airtime');
    assert.deepEqual(
      { payer: await available(payer), sibling: await available(sibling) },
      before,
      'nothing held',
    );
    assert.deepEqual(await testApp.db.query('SELECT id FROM vas_purchases'), purchases);
    assert.equal(await dailyTotal(payer), 300_000n);
  });

  it('a transfer is refused (402), intra-bank and NIP alike, once VAS purchases spent the day', async () => {
    const [buyer, sibling] = [await subAccount('22212345682'), await subAccount('22212345682')];
    for (let count = 0; count < 3; count += 1) {
      await assertOk(electricity(buyer, 1000), 'a ₦1,000 electricity purchase');
    }
    assert.equal(await dailyTotal(buyer), 300_000n, 'the price counts, not net of commission');
    for (const from of [buyer, sibling]) {
      await assertOverTheLimit(toMain(from, 1), 'intra-bank');
      await assertOverTheLimit(nip(from, 1), 'NIP');
      await assertOverTheLimit(airtime(from, 50), 'airtime');
    }
  });

  it('purchases and transfers share the limit up to the kobo; a replay counts once', async () => {
    const buyer = await subAccount('22212345693');
    const key = { 'Idempotency-Key': 'airtime-once' };
    await assertOk(airtime(buyer, 1999.99, PHONE.successful, key), 'airtime');
    await assertOk(airtime(buyer, 1999.99, PHONE.successful, key), 'the same purchase again');
    assert.equal(await dailyTotal(buyer), 199_999n);
    await assertOk(toMain(buyer, 1000), 'a ₦1,000 transfer');
    await assertOverTheLimit(airtime(buyer, 50), 'airtime over the last kobo');
    await assertOk(toMain(buyer, 0.01), 'the last kobo');
    assert.equal(await dailyTotal(buyer), 300_000n);
    await assertOverTheLimit(toMain(buyer, 0.01), 'past the limit');
  });

  it('a failed purchase gives its amount back: at once, or when a status query finds it', async () => {
    const buyer = await subAccount('22212345604');
    const declined = await airtime(buyer, 3000, PHONE.failed);
    assert.equal(declined.statusCode, 400, declined.body);
    assert.equal(declined.json().code, 'VAS_PURCHASE_FAILED');
    assert.equal(await dailyTotal(buyer), 0n);

    await assertOk(airtime(buyer, 3000, PHONE.pendingThenFailed), 'pending');
    assert.equal(await dailyTotal(buyer), 300_000n, 'a held purchase counts');
    await assertOverTheLimit(toMain(buyer, 1), 'while it is held');
    await settlePending();
    assert.equal(await dailyTotal(buyer), 0n, 'failed: given back');

    await assertOk(airtime(buyer, 2000, PHONE.pendingThenSuccessful), 'pending');
    await settlePending();
    assert.equal(await dailyTotal(buyer), 200_000n, 'successful: it still counts');
    await assertOk(toMain(buyer, 1000), 'the rest of the day');
    await assertOverTheLimit(toMain(buyer, 0.01), 'past the limit');
  });

  it('a purchase placed before purchases counted gives nothing back', async () => {
    const buyer = await subAccount('22212345626');
    const pending = await airtime(buyer, 500, PHONE.pendingThenFailed);
    assert.equal(pending.statusCode, 200, pending.body);
    // As such a purchase stands after the migration: no key, and nothing in the day's total.
    await testApp.db.query('UPDATE vas_purchases SET daily_limit_key = NULL WHERE id = $1', [
      pending.json().data.id,
    ]);
    await testApp.db.query(
      `UPDATE daily_outbound_totals SET total_kobo = total_kobo - 50000
        WHERE limit_key = (SELECT daily_limit_key FROM accounts WHERE id = $1)`,
      [buyer._id],
    );
    await assertOk(toMain(buyer, 1000), 'a transfer');
    await settlePending();
    assert.equal(await dailyTotal(buyer), 100_000n, 'the transfer alone, nothing taken off');
  });

  it("a client's own account: its own limit counts its purchases too", async () => {
    const opened = await testApp.app.inject({
      method: 'POST',
      url: '/accounts',
      headers,
      payload: {},
    });
    const own = opened.json().data as Opened;
    await sandboxCredit(testApp.app, own.accountNumber, 10_000);
    await assertOk(electricity(own, 4000), 'electricity');
    await assertOk(toMain(own, 1000), 'a transfer');
    assert.equal(await dailyTotal(own), 500_000n);
    await assertOverTheLimit(airtime(own, 50), 'airtime');
    await assertOverTheLimit(nip(own, 1), 'NIP');
  });
});
