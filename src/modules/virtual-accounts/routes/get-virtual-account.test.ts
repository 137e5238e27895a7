import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createVirtualAccount, othersVirtualAccountId } from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

describe('GET /virtual-accounts/:id', () => {
  const context = useRouteContext();
  const request = (id: string) => ({ method: 'GET' as const, url: `/virtual-accounts/${id}` });
  const own = () =>
    createVirtualAccount(context().testApp.app, context().headers, context().ownAccountNumber);

  describe('200: the virtual account', () => {
    it('answers it as it was created, with the bank a client reads as bank.nipCode', async () => {
      const { testApp, headers } = context();
      const created = await own();
      const response = await testApp.app.inject({ ...request(created._id), headers });
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().message, 'Virtual account fetched successfully.');
      assert.deepEqual(response.json().data, created);
      assert.equal(response.json().data.bank.nipCode, '999240');
    });

    it('repeats accountName, accountNumber and bank at the top level, as a client reads them', async () => {
      const { testApp, headers } = context();
      const created = await own();
      const response = await testApp.app.inject({ ...request(created._id), headers });
      const body = response.json();
      assert.deepEqual(Object.keys(body), [
        'statusCode',
        'message',
        'accountName',
        'accountNumber',
        'bank',
        'data',
      ]);
      assert.equal(body.accountName, created.accountName);
      assert.equal(body.accountNumber, created.accountNumber);
      assert.deepEqual(body.bank, { name: body.data.bank.name, nipCode: '999240' });
      assert.equal(typeof body.bank.name, 'string');
      assert.equal(body.error, undefined);
    });

    it('shows Expired once its window has passed', async () => {
      const { testApp, headers } = context();
      const created = await own();
      testApp.clock.advanceSeconds(901);
      try {
        const response = await testApp.app.inject({ ...request(created._id), headers });
        assert.equal(response.json().data.status, 'Expired');
      } finally {
        testApp.clock.advanceSeconds(-901);
      }
    });
  });

  describeAuthGuards(context, request);
  describeRecordIsolation(context, request, { foreignId: othersVirtualAccountId(context) });
});
