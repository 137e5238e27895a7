import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { getAccount, sandboxCredit, VAS, vasPurchase } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';
import { simulatedCard } from '../providers/biller-simulator.ts';

/** A DStv smart card that ends in no magic value (BILLER_MAGIC). */
const CARD = '7012345678';

describe('POST /vas/pay/cable-tv', () => {
  const context = useRouteContext();
  const buy = (
    bundleCode: string,
    amount: number | string,
    cardNumber = CARD,
    extra: Record<string, unknown> = {},
  ) =>
    vasPurchase(context().testApp.app, context().headers, 'cable-tv', {
      serviceCategoryId: VAS.dstv,
      amount,
      debitAccountNumber: context().ownAccountNumber,
      cardNumber,
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
    it('DStv Padi at its price: the receiver, and 1.5% commission credited back', async () => {
      const before = await balances();
      const response = await buy('db1', 3600);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Cable TV purchased successfully.');
      assert.equal(body.data.status, 'successful');
      assert.equal(body.data.amount, 3600);
      assert.equal(body.data.serviceCategoryId, VAS.dstv);
      assert.equal(body.data.clientId, context().ibsClientId);
      assert.match(body.data.reference, /^[0-9a-f]{32}$/);
      assert.match(body.data.id, /^[0-9a-f]{24}$/);
      assert.deepEqual(body.data.receiver, {
        number: CARD,
        name: simulatedCard(CARD).name,
        customerNumber: null,
        distribution: 'DSTV',
        vendType: '',
      });
      assert.equal(typeof body.data.receiver.name, 'string');
      assert.equal(body.data.utilityToken, undefined);
      const after = await balances();
      assert.equal(after.book, before.book - 3600 + 54);
      assert.equal(after.available, before.available - 3600 + 54);

      const read = await context().testApp.app.inject({
        method: 'GET',
        url: `/vas/transaction/${body.data.id}`,
        headers: context().headers,
      });
      assert.equal(read.json().data.service, 'CABLETV');
      assert.equal(read.json().data.serviceCategory, 'DSTV');
      assert.equal(read.json().data.bundleCode, 'db1');
      assert.equal(read.json().data.beneficiary, CARD);
      assert.equal(read.json().data.commission, 54);
      assert.deepEqual(read.json().data.receiver, body.data.receiver);
    });

    it('Top Up: an amount the buyer chooses, within the category bounds', async () => {
      const before = await balances();
      const response = await buy('TOP_UP', 2500);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().message, 'Cable TV purchased successfully.');
      assert.equal(response.json().data.amount, 2500);
      assert.equal(response.json().data.receiver.distribution, 'DSTV');
      assert.equal((await balances()).book, before.book - 2500 + 37.5);
    });
  });

  describe('400: refused before any money moves', () => {
    it('a bouquet at another amount than its price: INVALID_AMOUNT', async () => {
      const before = await balances();
      for (const amount of [3599, 3601, 5100]) {
        const response = await buy('db1', amount);
        assert.equal(response.statusCode, 400, `${amount}: ${response.body}`);
        assert.equal(response.json().code, 'INVALID_AMOUNT', String(amount));
      }
      assert.deepEqual(await balances(), before);
    });

    it('a Top Up above the category maximum: INVALID_AMOUNT', async () => {
      const before = await balances();
      const response = await buy('TOP_UP', 100_001);
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'INVALID_AMOUNT');
      assert.deepEqual(await balances(), before);
    });

    it("an unknown bouquet, another operator's, a category of another service", async () => {
      const before = await balances();
      const cases: [string, Record<string, unknown>][] = [
        ['db99', {}],
        ['gb7', {}],
        ['db1', { serviceCategoryId: VAS.mtnData }],
        ['db1', { serviceCategoryId: 'ffffffffffffffffffffffff' }],
        ['db1', { cardNumber: '70123' }],
        ['db1', { cardNumber: '70123456AB' }],
      ];
      for (const [bundleCode, extra] of cases) {
        const response = await buy(bundleCode, 3600, CARD, extra);
        assert.equal(response.statusCode, 400, `${bundleCode} ${JSON.stringify(extra)}`);
      }
      assert.deepEqual(await balances(), before);
    });
  });

  describe('the biller fails: nothing is charged', () => {
    it('a card ending 0404 is unknown to the biller: 400 VAS_PURCHASE_FAILED', async () => {
      const before = await balances();
      const response = await buy('db1', 3600, '7012340404');
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
      assert.equal(read.json().data.receiver.name, null);
    });
  });

  describeAuthGuards(context, () => ({
    method: 'POST',
    url: '/vas/pay/cable-tv',
    payload: {
      serviceCategoryId: VAS.dstv,
      amount: 3600,
      channel: 'WEB',
      debitAccountNumber: '0000000000',
      cardNumber: CARD,
      bundleCode: 'db1',
    },
  }));
});
