import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VAS } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

interface ProductItem {
  name: string;
  bundleCode: string;
  amount: number | null;
  duration: string;
  isAmountFixed: boolean;
}

describe('GET /vas/service-category/:id/products', () => {
  const context = useRouteContext();
  const request = (id: string) => ({
    method: 'GET' as const,
    url: `/vas/service-category/${id}/products`,
  });
  const productsOf = async (categoryId: string) => {
    const response = await context().testApp.app.inject({
      ...request(categoryId),
      headers: context().headers,
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().message, 'Service Category Products fetched successfully.');
    return response.json().data as ProductItem[];
  };

  describe('200: the products of a category, in catalogue order', () => {
    it('DStv: the bouquets from DStv Padi, ending with the Top Up whose amount the buyer chooses', async () => {
      const products = await productsOf(VAS.dstv);
      assert.deepEqual(products[0], {
        name: 'DStv Padi',
        bundleCode: 'db1',
        amount: 3600,
        duration: '1 month',
        isAmountFixed: true,
      });
      assert.deepEqual(
        products.find((product) => product.bundleCode === 'db1'),
        products[0],
      );
      const last = products.at(-1);
      assert.equal(last?.name, 'Top Up');
      assert.equal(last?.bundleCode, 'TOP_UP');
      assert.equal(last?.amount, null);
      assert.equal(last?.isAmountFixed, false);
      assert.equal(products.filter((product) => product.bundleCode === 'TOP_UP').length, 1);
      for (const product of products.slice(0, -1)) {
        assert.equal(product.isAmountFixed, true, product.bundleCode);
        assert.equal(typeof product.amount, 'number', product.bundleCode);
      }
    });

    it('MTN data: fixed-price bundles in the published shape, with unique codes', async () => {
      const products = await productsOf(VAS.mtnData);
      assert.ok(products.length > 0);
      assert.deepEqual(
        products.find((product) => product.bundleCode === 'mtn-1gb-1d'),
        {
          name: 'MTN 1GB Daily',
          bundleCode: 'mtn-1gb-1d',
          amount: 350,
          duration: '1 day',
          isAmountFixed: true,
        },
      );
      assert.equal(new Set(products.map((product) => product.bundleCode)).size, products.length);
      for (const product of products) {
        assert.deepEqual(Object.keys(product).sort(), [
          'amount',
          'bundleCode',
          'duration',
          'isAmountFixed',
          'name',
        ]);
        assert.equal(product.isAmountFixed, true, product.bundleCode);
        assert.ok((product.amount ?? 0) > 0, product.bundleCode);
      }
    });

    it('an airtime or electricity category has no products: []', async () => {
      assert.deepEqual(await productsOf(VAS.mtnAirtime), []);
      assert.deepEqual(await productsOf(VAS.ikeja), []);
    });
  });

  describe('400 "Unable to locate record": unknown and malformed category ids', () => {
    it('answers the same for every one, leaking nothing', async () => {
      const ids: [string, string][] = [
        ['unknown', 'ffffffffffffffffffffffff'],
        ['a service id, not a category id', VAS.cableTv],
        ['malformed', 'not-an-id'],
        ['injection attempt', "' OR '1'='1"],
        ['uppercase hex', VAS.dstv.toUpperCase()],
      ];
      for (const [label, id] of ids) {
        const response = await context().testApp.app.inject({
          ...request(encodeURIComponent(id)),
          headers: context().headers,
        });
        assert.equal(response.statusCode, 400, `${label}: ${response.body}`);
        assert.equal(response.json().message, 'Unable to locate record', label);
        assert.equal(response.json().code, 'RECORD_NOT_FOUND', label);
        assert.equal(response.json().data, undefined, label);
      }
    });
  });

  describeAuthGuards(context, () => request(VAS.dstv));
});
