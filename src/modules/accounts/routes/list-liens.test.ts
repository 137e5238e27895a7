import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders, sandboxCredit, sendTransfer } from '../../../../test/factories.ts';
import { type LienPayload, liensOf } from '../../../../test/liens.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

describe('GET /accounts/:id/liens', () => {
  const context = useRouteContext();
  const request = (id: string) => ({ method: 'GET' as const, url: `/accounts/${id}/liens` });

  describe('200: what the account owes, and why; lockedBalance counts it', () => {
    it('none on a new account', async () => {
      const { testApp, headers, ownAccountId } = context();
      assert.deepEqual(await liensOf(testApp, headers, ownAccountId), []);
    });

    it('a recalled credit the account had spent: the lien with its reason, in lockedBalance', async () => {
      const { testApp, headers, ownAccountId, ownAccountNumber } = context();
      const credit = await sandboxCredit(testApp.app, ownAccountNumber, 200);
      const spent = await sendTransfer(testApp.app, headers, {
        debitAccountNumber: ownAccountNumber,
        amount: 150,
      });
      assert.equal(spent.statusCode, 200, spent.body);
      const recalled = await testApp.app.inject({
        method: 'POST',
        url: '/admin/sandbox/nip/recalls',
        headers: adminHeaders,
        payload: { sessionId: credit.sessionId, reason: 'Fraud' },
      });
      assert.equal(recalled.statusCode, 200, recalled.body);
      const liens = await liensOf(testApp, headers, ownAccountId);
      assert.deepEqual(
        liens.map(({ _id, account, reason, status, amount, outstanding }: LienPayload) => ({
          _id,
          account,
          reason,
          status,
          amount,
          outstanding,
        })),
        [
          {
            _id: recalled.json().data.lien._id,
            account: ownAccountId,
            reason: `Recall of ${credit.sessionId}: Fraud`,
            status: 'active',
            amount: 160.75,
            outstanding: 160.75,
          },
        ],
      );
      const account = await testApp.app.inject({
        ...request(ownAccountId),
        url: `/accounts/${ownAccountId}`,
        headers,
      });
      assert.equal(account.json().data.accountBalance, 0);
      assert.equal(account.json().data.lockedBalance, 160.75);
    });
  });

  describeAuthGuards(context, request);
  describeRecordIsolation(context, request);
});
