// PostgreSQL only: PGlite is one session, so concurrency there proves nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyLedger } from '../../src/ledger/ledger-audit.ts';
import {
  accountBalance,
  type CheckoutPageSession,
  checkoutPageCall,
  dialUssd,
  openCheckoutSession,
  payVirtualAccount,
  signedInClient,
} from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';

/**
 * A checkout order is paid once, however its payments race: the payment that completes a session
 * does so in its own transaction, under a lock of the order (client and referenceCode), so two
 * payments for one session (its two methods) or for two sessions of one referenceCode (two
 * configs) are decided one after the other, on any number of connections.
 */
describe('checkout payments under concurrency (PostgreSQL)', () => {
  let testApp: TestApp;
  let merchant: { headers: Record<string, string>; accountNumber: string; oauthClientId: string };
  let serial = 0;

  before(async () => {
    testApp = await buildTestApp({}, { poolSize: 40 });
    const own = await signedInClient(testApp, 'Merchant Ltd', 0);
    merchant = {
      headers: own.headers,
      accountNumber: own.client.mainAccountNumber,
      oauthClientId: own.client.oauthClientId,
    };
  });
  after(() => testApp?.close());

  const open = (referenceCode: string, extra: Record<string, unknown>) =>
    openCheckoutSession(
      testApp.app,
      { oauthClientId: merchant.oauthClientId, accountNumber: merchant.accountNumber },
      referenceCode,
      { remoteAddress: `10.90.${Math.floor(++serial / 250)}.${serial % 250}`, extra },
    );
  const method = async (
    session: CheckoutPageSession,
    path: '/bank-transfer' | '/ussd',
  ): Promise<string> => {
    const response = await checkoutPageCall(
      testApp.app,
      session,
      path,
      path === '/ussd' ? { ussdBankCode: '737' } : undefined,
    );
    assert.equal(response.statusCode, 200, response.body);
    const data = response.json().data;
    return path === '/ussd' ? data.reference : data.accountNumber;
  };
  const balanceKobo = async () =>
    Math.round(
      ((await accountBalance(testApp.app, merchant.headers, merchant.accountNumber)) ?? NaN) * 100,
    );
  /** The order's sessions as stored, and the checkout.payment events queued for it. */
  const booksOf = async (referenceCode: string) => {
    const sessions = await testApp.db.query<{ id: string; status: string; channel: string }>(
      `SELECT id, status, channel FROM checkout_sessions WHERE reference_code = $1 ORDER BY id`,
      [referenceCode],
    );
    const events = await testApp.db.query<{ id: string }>(
      `SELECT id FROM webhook_events WHERE type = 'checkout.payment'
          AND payload -> 'data' ->> 'referenceCode' = $1`,
      [referenceCode],
    );
    return { sessions, events };
  };
  /** What a ₦amount payment leaves the merchant by either method (defaults: 0.5% fee, VAT). */
  const netKobo = (amountKobo: number) => {
    const fee = Math.min(Math.floor((amountKobo * 50 + 5_000) / 10_000), 30_000);
    return amountKobo - fee - Math.floor((fee * 750 + 5_000) / 10_000);
  };
  /** Starts every payment at once. */
  const payAtOnce = (payments: (() => Promise<{ statusCode: number; body: string }>)[]) =>
    Promise.all(payments.map((pay) => pay()));

  it("two sessions of one referenceCode, paid at once by their accounts: one is, the other's payment is refused", async () => {
    const orders = Array.from({ length: 8 }, (_, i) => `RACE-VA-${i}`);
    const accounts = await Promise.all(
      orders.map(async (referenceCode) => {
        const first = await open(referenceCode, { amount: 1000 });
        const second = await open(referenceCode, { amount: 1000, metadata: { tab: 2 } });
        return Promise.all([method(first, '/bank-transfer'), method(second, '/bank-transfer')]);
      }),
    );
    const before = await balanceKobo();
    const answers = await payAtOnce(
      accounts
        .flat()
        .map((accountNumber) => () => payVirtualAccount(testApp.app, accountNumber, 1000)),
    );
    const landed = answers.filter((answer) => answer.statusCode === 201);
    assert.equal(landed.length, orders.length, 'one payment per order');
    for (const refused of answers.filter((answer) => answer.statusCode !== 201)) {
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(JSON.parse(refused.body).code, 'VIRTUAL_ACCOUNT_CLOSED');
    }
    assert.equal((await balanceKobo()) - before, orders.length * netKobo(100_000));
    for (const referenceCode of orders) {
      const { sessions, events } = await booksOf(referenceCode);
      assert.deepEqual(
        sessions.map((session) => session.status).sort(),
        ['Completed', 'Pending'],
        referenceCode,
      );
      assert.equal(events.length, 1, referenceCode);
    }
  });

  it('one session paid at once by transfer and by USSD: one payment completes it, the other moves nothing', async () => {
    const orders = Array.from({ length: 8 }, (_, i) => `RACE-BOTH-${i}`);
    const methods = await Promise.all(
      orders.map(async (referenceCode) => {
        const session = await open(referenceCode, { amount: 1200 });
        return {
          accountNumber: await method(session, '/bank-transfer'),
          reference: await method(session, '/ussd'),
        };
      }),
    );
    const before = await balanceKobo();
    const answers = await payAtOnce(
      methods.flatMap(({ accountNumber, reference }) => [
        () => payVirtualAccount(testApp.app, accountNumber, 1200),
        () => dialUssd(testApp.app, reference),
      ]),
    );
    let landed = 0;
    for (const [i, answer] of answers.entries()) {
      if (i % 2 === 0) {
        landed += answer.statusCode === 201 ? 1 : 0;
        assert.ok([201, 400].includes(answer.statusCode), answer.body);
      } else {
        assert.equal(answer.statusCode, 200, answer.body);
        const { outcome } = JSON.parse(answer.body).data;
        assert.ok(['paid', 'reversed'].includes(outcome), outcome);
        landed += outcome === 'paid' ? 1 : 0;
      }
    }
    assert.equal(landed, orders.length, 'one payment per session');
    assert.equal((await balanceKobo()) - before, orders.length * netKobo(120_000));
    for (const referenceCode of orders) {
      const { sessions, events } = await booksOf(referenceCode);
      assert.equal(sessions[0]?.status, 'Completed', referenceCode);
      assert.equal(events.length, 1, referenceCode);
    }
  });

  it('many sessions paid at once each complete once, and the ledger balances', async () => {
    const orders = Array.from({ length: 24 }, (_, i) => `MANY-${i}`);
    const accounts = await Promise.all(
      orders.map(async (referenceCode) =>
        method(await open(referenceCode, { amount: 900 }), '/bank-transfer'),
      ),
    );
    const answers = await payAtOnce(
      accounts.map((accountNumber) => () => payVirtualAccount(testApp.app, accountNumber, 900)),
    );
    for (const answer of answers) {
      assert.equal(answer.statusCode, 201, answer.body);
    }
    for (const referenceCode of orders) {
      const { sessions, events } = await booksOf(referenceCode);
      assert.equal(sessions[0]?.status, 'Completed', referenceCode);
      assert.equal(sessions[0]?.channel, 'BANK_TRANSFER', referenceCode);
      assert.equal(events.length, 1, referenceCode);
    }
    const violations = await verifyLedger(testApp.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
    );
  });
});
