import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders, sandboxCredit, VAS, vasPurchase } from '../../../test/factories.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('admin: the VAS catalogue', () => {
  const context = useRouteContext();
  const put = (url: string, payload: object) =>
    context().testApp.app.inject({ method: 'PUT', url, headers: adminHeaders, payload });

  it("changes a category's commission and bounds, and purchases follow them", async () => {
    const { testApp, headers, ownAccountNumber } = context();
    const changed = await put(`/admin/vas/service-categories/${VAS.mtnAirtime}`, {
      providerCommission: { flatAmount: 1, percentageAmount: 0, minCap: null, maxCap: null },
      minAmount: 100,
      maxAmount: 2000,
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(changed.json().data.minAmount, 100);
    assert.deepEqual(changed.json().data.providerCommission, {
      flatAmount: 1,
      percentageAmount: 0,
      minCap: null,
      maxCap: null,
    });
    await sandboxCredit(testApp.app, ownAccountNumber, 5000);
    const buy = (amount: number) =>
      vasPurchase(testApp.app, headers, 'airtime', {
        serviceCategoryId: VAS.mtnAirtime,
        amount,
        debitAccountNumber: ownAccountNumber,
        phoneNumber: '08031234567',
      });
    assert.equal((await buy(99)).statusCode, 400);
    assert.equal((await buy(2001)).statusCode, 400);
    const bought = await buy(150);
    assert.equal(bought.statusCode, 200, bought.body);
    const read = await testApp.app.inject({
      method: 'GET',
      url: `/vas/transaction/${bought.json().data.id}`,
      headers,
    });
    assert.equal(read.json().data.commission, 1);
  });

  it("replaces a category's products; a purchase must then name a new one", async () => {
    const { testApp, headers } = context();
    const replaced = await put(`/admin/vas/service-categories/${VAS.mtnData}/products`, {
      products: [
        {
          name: 'MTN 2GB Weekly',
          bundleCode: 'mtn-2gb-7d',
          amount: 700,
          duration: '1 week',
          isAmountFixed: true,
        },
      ],
    });
    assert.equal(replaced.statusCode, 200, replaced.body);
    const listed = await testApp.app.inject({
      method: 'GET',
      url: `/vas/service-category/${VAS.mtnData}/products`,
      headers,
    });
    assert.deepEqual(listed.json().data, [
      {
        name: 'MTN 2GB Weekly',
        bundleCode: 'mtn-2gb-7d',
        amount: 700,
        duration: '1 week',
        isAmountFixed: true,
      },
    ]);
  });

  it('ten identical replacements sent at once: all 200, the catalogue as the body says', async () => {
    // On PostgreSQL they race for real (test/pg-only/vas-catalogue-concurrency.test.ts).
    const { testApp, headers } = context();
    const products = Array.from({ length: 8 }, (_, index) => ({
      name: `MTN ${index + 1}GB Monthly`,
      bundleCode: `mtn-${index + 1}gb-30d-x`,
      amount: 300 * (index + 1),
      duration: '30 days',
      isAmountFixed: true,
    }));
    const url = `/admin/vas/service-categories/${VAS.mtnData}/products`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => put(url, { products })));
    assert.deepEqual(
      answers.map((answer) => answer.statusCode),
      Array.from({ length: 10 }, () => 200),
    );
    const listed = await testApp.app.inject({
      method: 'GET',
      url: `/vas/service-category/${VAS.mtnData}/products`,
      headers,
    });
    assert.deepEqual(listed.json().data, products);
  });

  it('refuses a minimum above the maximum, duplicate bundle codes, and an unknown category', async () => {
    assert.equal(
      (
        await put(`/admin/vas/service-categories/${VAS.mtnAirtime}`, {
          minAmount: 500,
          maxAmount: 100,
        })
      ).statusCode,
      400,
    );
    const product = {
      name: 'X',
      bundleCode: 'x',
      amount: 1,
      duration: '1 day',
      isAmountFixed: true,
    };
    assert.equal(
      (
        await put(`/admin/vas/service-categories/${VAS.mtnData}/products`, {
          products: [product, product],
        })
      ).statusCode,
      400,
    );
    const unknown = await put('/admin/vas/service-categories/ffffffffffffffffffffffff', {
      description: 'x',
    });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().message, 'Unable to locate record');
  });

  describeAdminAuthGuards(context, () => ({
    method: 'PUT',
    url: `/admin/vas/service-categories/${VAS.mtnAirtime}`,
    payload: { description: 'x' },
  }));
});
