import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createUssdReference } from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

describe('GET /ussd-payment/:reference', () => {
  const context = useRouteContext();
  const get = (reference: string) =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/ussd-payment/${reference}`,
      headers: context().headers,
    });

  it('answers the reference as it was created, with no payment yet', async () => {
    const { testApp, headers, ownAccountNumber } = context();
    const created = await createUssdReference(testApp.app, headers, ownAccountNumber);
    const response = await get(created.reference);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().message, 'USSD reference fetched successfully.');
    assert.deepEqual(response.json().data, created);
  });

  it('reads Expired once the reference is past its expiry, unpaid', async () => {
    const { testApp, headers, ownAccountNumber } = context();
    const created = await createUssdReference(testApp.app, headers, ownAccountNumber);
    testApp.clock.advanceSeconds(899);
    assert.equal((await get(created.reference)).json().data.status, 'Pending');
    testApp.clock.advanceSeconds(1);
    assert.equal((await get(created.reference)).json().data.status, 'Expired');
  });

  describeRecordIsolation(
    context,
    (reference) => ({ method: 'GET', url: `/ussd-payment/${reference}` }),
    {
      foreignId: async () => {
        const { testApp, otherHeaders, otherAccountNumber } = context();
        return (await createUssdReference(testApp.app, otherHeaders, otherAccountNumber)).reference;
      },
    },
  );

  describeAuthGuards(context, () => ({ method: 'GET', url: '/ussd-payment/0000000000' }));
});
