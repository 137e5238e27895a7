import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { getAccount, sandboxCredit, VAS, vasPurchase } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';
import { simulatedToken } from '../providers/biller-simulator.ts';

/** An IKEJA meter that ends in no magic value (BILLER_MAGIC). */
const METER = '45678912345';

describe('POST /vas/pay/utility', () => {
  const context = useRouteContext();
  const buy = (amount: number | string, meterNumber = METER, extra: Record<string, unknown> = {}) =>
    vasPurchase(context().testApp.app, context().headers, 'utility', {
      serviceCategoryId: VAS.ikeja,
      amount,
      debitAccountNumber: context().ownAccountNumber,
      meterNumber,
      vendType: 'PREPAID',
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
  const read = (id: string) =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/vas/transaction/${id}`,
      headers: context().headers,
    });

  before(() =>
    sandboxCredit(context().testApp.app, context().ownAccountNumber, 50_000).then(() => {}),
  );

  describe('200: successful', () => {
    it('₦5,000 on an IKEJA meter: the token, and 0.8% commission (under the ₦100 cap)', async () => {
      const before = await balances();
      const response = await buy(5000);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Utility Package purchased successfully.');
      assert.equal(body.data.status, 'successful');
      assert.equal(body.data.amount, 5000);
      assert.equal(body.data.serviceCategoryId, VAS.ikeja);
      assert.equal(body.data.clientId, context().ibsClientId);
      assert.match(body.data.reference, /^[0-9a-f]{32}$/);
      assert.match(body.data.id, /^[0-9a-f]{24}$/);
      assert.match(body.data.utilityToken, /^\d{4}-\d{4}-\d{4}-\d{4}-\d{4}$/);
      assert.equal(body.data.utilityToken, simulatedToken(body.data.reference));
      assert.equal(body.data.receiver, undefined);
      const after = await balances();
      assert.equal(after.book, before.book - 5000 + 40);
      assert.equal(after.available, before.available - 5000 + 40);

      const transaction = (await read(body.data.id)).json().data;
      assert.equal(transaction.service, 'UTILITY');
      assert.equal(transaction.serviceCategory, 'IKEJA');
      assert.equal(transaction.beneficiary, METER);
      assert.equal(transaction.commission, 40);
      assert.equal(transaction.utilityToken, body.data.utilityToken);
    });

    it('the commission stops at the ₦100 cap: ₦12,500 reaches it, ₦20,000 stays at it', async () => {
      for (const amount of [12_500, 20_000]) {
        const before = await balances();
        const response = await buy(amount);
        assert.equal(response.statusCode, 200, response.body);
        assert.equal((await balances()).book, before.book - amount + 100, String(amount));
        assert.equal((await read(response.json().data.id)).json().data.commission, 100);
      }
    });

    it('the vend type defaults to PREPAID when left out', async () => {
      const response = await vasPurchase(context().testApp.app, context().headers, 'utility', {
        serviceCategoryId: VAS.ikeja,
        amount: 500,
        debitAccountNumber: context().ownAccountNumber,
        meterNumber: METER,
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.match(response.json().data.utilityToken, /^\d{4}(-\d{4}){4}$/);
    });
  });

  describe('400: refused before any money moves', () => {
    it('an amount below ₦500 or above ₦1,000,000: INVALID_AMOUNT', async () => {
      const before = await balances();
      for (const amount of [499.99, 100, 1_000_001]) {
        const response = await buy(amount);
        assert.equal(response.statusCode, 400, `${amount}: ${response.body}`);
        assert.equal(response.json().code, 'INVALID_AMOUNT', String(amount));
      }
      assert.deepEqual(await balances(), before);
    });

    it('a category of another service, an unknown one, a malformed meter number', async () => {
      const before = await balances();
      const cases: Record<string, unknown>[] = [
        { serviceCategoryId: VAS.dstv },
        { serviceCategoryId: VAS.mtnAirtime },
        { serviceCategoryId: 'ffffffffffffffffffffffff' },
        { meterNumber: '12345' },
        { meterNumber: '4567891234X' },
        { vendType: '' },
      ];
      for (const extra of cases) {
        const response = await buy(5000, METER, extra);
        assert.equal(response.statusCode, 400, `${JSON.stringify(extra)}: ${response.body}`);
      }
      assert.deepEqual(await balances(), before);
    });
  });

  describe('the biller fails: nothing is charged', () => {
    it('a meter ending 0000 is declined: 400 VAS_PURCHASE_FAILED, no token', async () => {
      const before = await balances();
      const response = await buy(5000, '45678910000');
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'VAS_PURCHASE_FAILED');
      assert.deepEqual(await balances(), before);
      const transaction = (await read(response.json().details[0].message)).json().data;
      assert.equal(transaction.status, 'failed');
      assert.equal(transaction.utilityToken, null);
      assert.ok(transaction.failureReason);
    });
  });

  describeAuthGuards(context, () => ({
    method: 'POST',
    url: '/vas/pay/utility',
    payload: {
      serviceCategoryId: VAS.ikeja,
      amount: 5000,
      channel: 'WEB',
      debitAccountNumber: '0000000000',
      meterNumber: METER,
      vendType: 'PREPAID',
    },
  }));
});
