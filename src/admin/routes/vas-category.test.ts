import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders, VAS } from '../../../test/factories.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('GET /admin/vas/service-categories/:id', () => {
  const context = useRouteContext();
  const get = (id: string) =>
    context().testApp.app.inject({
      url: `/admin/vas/service-categories/${id}`,
      headers: adminHeaders,
    });

  it("200: a category's terms and its products, as the client's catalogue shows them", async () => {
    const { testApp, headers } = context();
    const read = await get(VAS.mtnData);
    assert.equal(read.statusCode, 200, read.body);
    const { category, products } = read.json().data;
    assert.equal(category._id, VAS.mtnData);
    const clients = await testApp.app.inject({
      url: `/vas/service-category/${VAS.mtnData}/products`,
      headers,
    });
    assert.equal(clients.statusCode, 200, clients.body);
    assert.ok(products.length > 0);
    assert.deepEqual(products, clients.json().data);
  });

  it('400 RECORD_NOT_FOUND for an unknown category', async () => {
    const read = await get('0123456789abcdef01234567');
    assert.equal(read.statusCode, 400, read.body);
    assert.equal(read.json().code, 'RECORD_NOT_FOUND');
  });

  describeAdminAuthGuards(context, () => ({
    method: 'GET',
    url: `/admin/vas/service-categories/${VAS.mtnData}`,
  }));
});
