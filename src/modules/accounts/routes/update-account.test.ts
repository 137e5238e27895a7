import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

describe('PUT /accounts/:id', () => {
  const context = useRouteContext();
  const request = (
    id: string,
    payload: Record<string, unknown> = { notificationSettings: {} },
  ) => ({
    method: 'PUT' as const,
    url: `/accounts/${id}`,
    payload,
  });
  const update = (id: string, payload: Record<string, unknown>) =>
    context().testApp.app.inject({ ...request(id, payload), headers: context().headers });

  describe('200: notification settings change, nothing else', () => {
    it('merges the given settings and ignores account_id and protected fields', async () => {
      const { ownAccountId } = context();
      const response = await update(ownAccountId, {
        account_id: ownAccountId,
        notificationSettings: { smsNotification: true },
        accountBalance: 99,
        accountName: 'Hacked',
      });
      assert.equal(response.statusCode, 200, response.body);
      const { data } = response.json();
      assert.deepEqual(data.notificationSettings, {
        smsNotification: true,
        emailNotification: true,
        smsMonthlyStatement: false,
        emailMonthlyStatement: true,
      });
      assert.equal(data.accountName, 'ACME LTD');
      assert.equal(data.accountBalance, 0);
    });

    it("leaves another client's account untouched when addressed", async () => {
      const { testApp, otherAccountId, otherHeaders } = context();
      await update(otherAccountId, { notificationSettings: { smsNotification: true } });
      const theirs = await testApp.app.inject({
        method: 'GET',
        url: `/accounts/${otherAccountId}`,
        headers: otherHeaders,
      });
      assert.equal(theirs.json().data.notificationSettings.smsNotification, false);
    });
  });

  describe('400: bad input', () => {
    it('refuses a non-boolean setting', async () => {
      const response = await update(context().ownAccountId, {
        notificationSettings: { smsNotification: 'yes please' },
      });
      assert.equal(response.statusCode, 400);
    });

    it('an empty body changes nothing', async () => {
      const before = await update(context().ownAccountId, { notificationSettings: {} });
      const response = await update(context().ownAccountId, {});
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(
        response.json().data.notificationSettings,
        before.json().data.notificationSettings,
      );
    });
  });

  describeAuthGuards(context, (id) => request(id));
  describeRecordIsolation(context, (id) => request(id));
});
