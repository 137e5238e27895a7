import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createVirtualAccount, othersVirtualAccountId } from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

describe('PUT /virtual-accounts/:id', () => {
  const context = useRouteContext();
  const request = (id: string, payload: object = {}) => ({
    method: 'PUT' as const,
    url: `/virtual-accounts/${id}`,
    payload,
  });
  const own = () =>
    createVirtualAccount(context().testApp.app, context().headers, context().ownAccountNumber);

  describe('200: the account with its new callbackUrl', () => {
    it('changes the callbackUrl (the published SDK sends account_id in the body too)', async () => {
      const { testApp, headers } = context();
      const created = await own();
      const callbackUrl = 'https://merchant.example.com/hooks/new';
      const response = await testApp.app.inject({
        ...request(created._id, { account_id: created._id, callbackUrl }),
        headers,
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().message, 'Virtual account updated successfully.');
      assert.equal(response.json().data.callbackUrl, callbackUrl);
    });

    it('changes nothing for a body of [] or {}', async () => {
      const { testApp, headers } = context();
      const created = await own();
      for (const payload of [[], {}]) {
        const response = await testApp.app.inject({ ...request(created._id, payload), headers });
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json().data, created);
      }
    });
  });

  describe('400', () => {
    it('refuses a callbackUrl the destination guard refuses', async () => {
      const { testApp, headers } = context();
      const created = await own();
      const response = await testApp.app.inject({
        ...request(created._id, { callbackUrl: 'ftp://merchant.example.com/x' }),
        headers,
      });
      assert.equal(response.statusCode, 400);
    });
  });

  describeAuthGuards(context, request);
  describeRecordIsolation(context, request, { foreignId: othersVirtualAccountId(context) });
});
