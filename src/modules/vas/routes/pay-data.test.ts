import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { getAccount, sandboxCredit, VAS, vasPurchase } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('POST /vas/pay/data', () => {
  const context = useRouteContext();
  const buy = (bundleCode: string, amount: number | string, extra: Record<string, unknown> = {}) =>
    vasPurchase(context().testApp.app, context().headers, 'data', {
      serviceCategoryId: VAS.mtnData,
      amount,
      debitAccountNumber: context().ownAccountNumber,
      phoneNumber: '08031234567',
      bundleCode,
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

  before(() =>
    sandboxCredit(context().testApp.app, context().ownAccountNumber, 50_000).then(() => {}),
  );

  describe('200: successful', () => {
    it('charges the bundle price, credits 3% MTN commission back', async () => {
      const before = await balances();
      const response = await buy('mtn-2gb-30d', 1500);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Data Bundle purchased successfully.');
      assert.equal(body.data.status, 'successful');
      assert.equal(body.data.amount, 1500);
      assert.equal(body.data.serviceCategoryId, VAS.mtnData);
      assert.equal(body.data.clientId, context().ibsClientId);
      assert.match(body.data.reference, /^[0-9a-f]{32}$/);
      assert.match(body.data.id, /^[0-9a-f]{24}$/);
      assert.equal(body.data.receiver, undefined);
      assert.equal(body.data.utilityToken, undefined);
      const after = await balances();
      assert.equal(after.book, before.book - 1500 + 45);
      assert.equal(after.available, before.available - 1500 + 45);

      const read = await context().testApp.app.inject({
        method: 'GET',
        url: `/vas/transaction/${body.data.id}`,
        headers: context().headers,
      });
      assert.equal(read.statusCode, 200, read.body);
      assert.equal(read.json().data.service, 'DATA');
      assert.equal(read.json().data.serviceCategory, 'MTN');
      assert.equal(read.json().data.bundleCode, 'mtn-2gb-30d');
      assert.equal(read.json().data.beneficiary, '08031234567');
      assert.equal(read.json().data.commission, 45);
    });

    it('takes the price as a string of naira too, and a 234 phone number', async () => {
      const before = await balances();
      const response = await buy('mtn-1gb-1d', '350.00', { phoneNumber: '2348031234567' });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().data.amount, 350);
      assert.equal((await balances()).book, before.book - 350 + 10.5);
    });
  });

  describe('400: refused before any money moves', () => {
    it('a fixed-price bundle at another amount: INVALID_AMOUNT', async () => {
      const before = await balances();
      for (const amount of [1499, 1501, 1500.01, 150]) {
        const response = await buy('mtn-2gb-30d', amount);
        assert.equal(response.statusCode, 400, `${amount}: ${response.body}`);
        assert.equal(response.json().code, 'INVALID_AMOUNT', String(amount));
      }
      assert.deepEqual(await balances(), before);
    });

    it('an unknown bundle code, or one of another network', async () => {
      const before = await balances();
      for (const bundleCode of ['mtn-999gb-1d', 'airtel-1gb-1d', 'TOP_UP']) {
        const response = await buy(bundleCode, 350);
        assert.equal(response.statusCode, 400, `${bundleCode}: ${response.body}`);
        assert.equal(response.json().code, 'VALIDATION_ERROR', bundleCode);
      }
      assert.deepEqual(await balances(), before);
    });

    it('a category of another service (airtime, cable), or an unknown one', async () => {
      const before = await balances();
      for (const serviceCategoryId of [VAS.mtnAirtime, VAS.dstv, 'ffffffffffffffffffffffff']) {
        const response = await buy('mtn-2gb-30d', 1500, { serviceCategoryId });
        assert.equal(response.statusCode, 400, `${serviceCategoryId}: ${response.body}`);
      }
      assert.deepEqual(await balances(), before);
    });

    it('a missing bundle code or a malformed phone number', async () => {
      const before = await balances();
      const missing = await vasPurchase(context().testApp.app, context().headers, 'data', {
        serviceCategoryId: VAS.mtnData,
        amount: 1500,
        debitAccountNumber: context().ownAccountNumber,
        phoneNumber: '08031234567',
      });
      assert.equal(missing.statusCode, 400, missing.body);
      const badPhone = await buy('mtn-2gb-30d', 1500, { phoneNumber: '0803123' });
      assert.equal(badPhone.statusCode, 400, badPhone.body);
      assert.deepEqual(await balances(), before);
    });
  });

  describeAuthGuards(context, () => ({
    method: 'POST',
    url: '/vas/pay/data',
    payload: {
      serviceCategoryId: VAS.mtnData,
      amount: 350,
      channel: 'WEB',
      debitAccountNumber: '0000000000',
      phoneNumber: '08031234567',
      bundleCode: 'mtn-1gb-1d',
    },
  }));
});
