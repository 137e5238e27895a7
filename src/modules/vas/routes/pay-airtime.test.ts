import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { getAccount, sandboxCredit, VAS, vasPurchase } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';
import { createVasStatusQueryWorker } from '../vas-status-query-worker.ts';

/**
 * Airtime, and through it every outcome class of the biller (BILLER_MAGIC in
 * providers/biller-simulator.ts): each checked for the final status, the debit account's
 * balance and statement, and the GL postings.
 */
describe('POST /vas/pay/airtime', () => {
  const context = useRouteContext();
  const buy = (phoneNumber: string, amount = 1000, extra: Record<string, unknown> = {}) =>
    vasPurchase(context().testApp.app, context().headers, 'airtime', {
      serviceCategoryId: VAS.mtnAirtime,
      amount,
      debitAccountNumber: context().ownAccountNumber,
      phoneNumber,
      ...extra,
    });
  const balances = async () => {
    const account = await getAccount(
      context().testApp.app,
      context().headers,
      context().ownAccountId,
    );
    return { available: account.accountBalance as number, book: account.bookBalance as number };
  };
  const glBalance = async (id: string) => {
    const rows = await context().testApp.db.query<{ balance_kobo: bigint }>(
      'SELECT balance_kobo FROM ledger_accounts WHERE id = $1',
      [id],
    );
    return Number(rows[0]?.balance_kobo ?? 0n) / 100;
  };
  const settlePending = async () => {
    const { testApp } = context();
    // Past the first status query (10 s), well within the access token's life.
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
      return await worker.runOnce();
    } finally {
      testApp.clock.advanceSeconds(-30);
    }
  };

  before(() =>
    sandboxCredit(context().testApp.app, context().ownAccountNumber, 50_000).then(() => {}),
  );

  describe('200: successful', () => {
    it('debits the price, credits 3% MTN commission back, and posts to the biller GL', async () => {
      const before = await balances();
      const billerBefore = await glBalance('gl.vas_biller_settlement');
      const commissionBefore = await glBalance('gl.vas_commission_receivable');
      const response = await buy('08031234567', 1000);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Airtime has been purchased successfully.');
      assert.equal(body.data.status, 'successful');
      assert.equal(body.data.amount, 1000);
      assert.equal(body.data.serviceCategoryId, VAS.mtnAirtime);
      assert.equal(body.data.clientId, context().ibsClientId);
      assert.match(body.data.reference, /^[0-9a-f]{32}$/);
      assert.match(body.data.id, /^[0-9a-f]{24}$/);
      const after = await balances();
      assert.equal(after.available, before.available - 1000 + 30);
      assert.equal(after.book, before.book - 1000 + 30);
      assert.equal(await glBalance('gl.vas_biller_settlement'), billerBefore + 1000);
      assert.equal(await glBalance('gl.vas_commission_receivable'), commissionBefore - 30);
      const statement = await context().testApp.app.inject({
        method: 'GET',
        url: `/accounts/${context().ownAccountId}/statement?limit=2`,
        headers: context().headers,
      });
      const lines = statement
        .json()
        .data.map((row: { narration: string; amount: number }) => [row.narration, row.amount]);
      assert.deepEqual(lines, [
        [`Commission on ${body.data.reference}`, 30],
        [`Airtime MTN 08031234567 ${body.data.reference}`, 1000],
      ]);
    });

    it('replays the same Idempotency-Key and body, and refuses it with another body', async () => {
      const before = await balances();
      const key = { 'idempotency-key': 'airtime-replay-1' };
      const first = await buy('08031230001', 200, {});
      assert.equal(first.statusCode, 200);
      const keyed = await vasPurchase(
        context().testApp.app,
        context().headers,
        'airtime',
        {
          serviceCategoryId: VAS.mtnAirtime,
          amount: 300,
          debitAccountNumber: context().ownAccountNumber,
          phoneNumber: '08031230002',
        },
        key,
      );
      const again = await vasPurchase(
        context().testApp.app,
        context().headers,
        'airtime',
        {
          phoneNumber: '08031230002',
          debitAccountNumber: context().ownAccountNumber,
          amount: 300,
          serviceCategoryId: VAS.mtnAirtime,
        },
        key,
      );
      assert.equal(again.statusCode, 200);
      assert.equal(again.json().data.id, keyed.json().data.id);
      const other = await vasPurchase(
        context().testApp.app,
        context().headers,
        'airtime',
        {
          serviceCategoryId: VAS.mtnAirtime,
          amount: 301,
          debitAccountNumber: context().ownAccountNumber,
          phoneNumber: '08031230002',
        },
        key,
      );
      assert.equal(other.statusCode, 422);
      assert.equal((await balances()).book, before.book - 200 + 6 - 300 + 9);
    });

    it('buys data through this path for a data category with a bundle code (a real client does)', async () => {
      const response = await buy('08031234568', 350, {
        serviceCategoryId: VAS.mtnData,
        bundleCode: 'mtn-1gb-1d',
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().message, 'Data Bundle purchased successfully.');
    });
  });

  describe('the biller fails: nothing is charged', () => {
    it('a definitive failure (ending 0000) answers 400 and voids the hold', async () => {
      const before = await balances();
      const response = await buy('08031230000', 500);
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'VAS_PURCHASE_FAILED');
      assert.deepEqual(await balances(), before);
      const id = response.json().details[0].message;
      const read = await context().testApp.app.inject({
        method: 'GET',
        url: `/vas/transaction/${id}`,
        headers: context().headers,
      });
      assert.equal(read.json().data.status, 'failed');
      assert.ok(read.json().data.failureReason);
    });
  });

  describe('pending, settled later by the status-query worker', () => {
    for (const [ending, final, label] of [
      ['1111', 'successful', 'pending then delivered'],
      ['2222', 'failed', 'pending then declined'],
      ['3333', 'successful', 'biller down, the sale had happened'],
      ['4444', 'failed', 'biller down, the sale had not happened'],
    ] as const) {
      it(`${label} (ending ${ending}): held, then ${final}, and the webhook tells it`, async () => {
        const before = await balances();
        const response = await buy(`0803123${ending}`, 700, {
          statusUrl: 'https://merchant.example.com/vas-status',
        });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json().data.status, 'pending');
        const held = await balances();
        assert.equal(held.available, before.available - 700);
        assert.equal(held.book, before.book);
        assert.ok((await settlePending()) >= 1);
        const after = await balances();
        const expected = final === 'successful' ? before.book - 700 + 21 : before.book;
        assert.deepEqual(after, { available: expected, book: expected });
        const id = response.json().data.id;
        const read = await context().testApp.app.inject({
          method: 'GET',
          url: `/vas/transaction/${id}`,
          headers: context().headers,
        });
        assert.equal(read.json().data.status, final);
        const deliveries = await context().testApp.app.inject({
          method: 'GET',
          url: '/webhooks/deliveries?type=vas.transaction&limit=100',
          headers: context().headers,
        });
        const events = deliveries
          .json()
          .data.filter(
            (item: { payload: { data: { id: string } } }) => item.payload.data.id === id,
          );
        assert.deepEqual(
          events.map((item: { callbackUrl: string | null }) => item.callbackUrl).sort(),
          ['https://merchant.example.com/vas-status', null].sort(),
        );
        assert.equal(events[0].payload.data.status, final);
      });
    }
  });

  describe('400 and 402: refused before any money moves', () => {
    it('an amount outside the category bounds, a category of another service, an unknown one', async () => {
      const before = await balances();
      const cases: [Record<string, unknown>, number][] = [
        [{ amount: 49 }, 400],
        [{ amount: 50_001 }, 400],
        [{ serviceCategoryId: VAS.dstv }, 400],
        [{ serviceCategoryId: 'ffffffffffffffffffffffff' }, 400],
        [{ phoneNumber: '12345' }, 400],
        [{ debitAccountNumber: context().otherAccountNumber }, 400],
      ];
      for (const [extra, status] of cases) {
        const response = await buy('08031234567', 1000, extra);
        assert.equal(response.statusCode, status, `${JSON.stringify(extra)}: ${response.body}`);
      }
      assert.deepEqual(await balances(), before);
    });

    it('more than the available balance: 402, nothing recorded as charged', async () => {
      const before = await balances();
      // Funded ₦50,000 and spent some: the category's largest purchase is more than is left.
      assert.ok(before.available < 50_000, `available ${before.available}`);
      const response = await buy('08031234567', 50_000, {});
      assert.equal(response.statusCode, 402, response.body);
      assert.equal(response.json().code, 'INSUFFICIENT_FUNDS');
      assert.deepEqual(await balances(), before);
    });
  });

  describeAuthGuards(context, () => ({
    method: 'POST',
    url: '/vas/pay/airtime',
    payload: {
      serviceCategoryId: VAS.mtnAirtime,
      amount: 100,
      channel: 'WEB',
      debitAccountNumber: '0000000000',
      phoneNumber: '08031234567',
    },
  }));
});
