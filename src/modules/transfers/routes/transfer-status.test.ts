import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { getAccount, sandboxCredit, sendTransfer } from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

describe('POST /transfers/status and /transfers/tqs', () => {
  const context = useRouteContext();
  let own: { accountNumber: string; _id: string };

  const call = (url: string, payload: object, headers = context().headers) =>
    context().testApp.app.inject({ method: 'POST', url, headers, payload });
  const accountOf = (accountId: string) =>
    getAccount(context().testApp.app, context().headers, accountId);
  const nip = (amount: number, extra: Record<string, unknown> = {}) =>
    sendTransfer(context().testApp.app, context().headers, {
      debitAccountNumber: own.accountNumber,
      amount,
      ...extra,
    });

  before(async () => {
    const { testApp, ownAccountId, ownAccountNumber } = context();
    own = { _id: ownAccountId, accountNumber: ownAccountNumber };
    await sandboxCredit(testApp.app, own.accountNumber, 5_000);
  });

  describe('200: the transfer, by sessionId or paymentReference, at both paths', () => {
    it('answers a completed transfer at both paths, by either key', async () => {
      const sent = (await nip(50, { paymentReference: 'STATUS-1' })).json().data;
      assert.equal(sent.status, 'Completed');
      for (const url of ['/transfers/status', '/transfers/tqs']) {
        for (const key of [
          { sessionId: sent.sessionId },
          { paymentReference: 'STATUS-1' },
          { sessionId: sent.sessionId, paymentReference: 'STATUS-1' },
        ]) {
          const response = await call(url, key);
          assert.equal(response.statusCode, 200, `${url} ${JSON.stringify(key)}: ${response.body}`);
          assert.equal(response.json().message, 'Transfer fetched successfully.');
          assert.deepEqual(response.json().data, sent);
        }
      }
    });

    it('answers an inbound credit by its sessionId', async () => {
      const { testApp } = context();
      const credit = await sandboxCredit(testApp.app, own.accountNumber, 20);
      const response = await call('/transfers/tqs', { sessionId: credit.sessionId });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().data._id, credit._id);
      assert.equal(response.json().data.type, 'Inwards');
    });

    it('stays Processing on a timeout with the funds held, and settles on a status query', async () => {
      const before = await accountOf(own._id);
      const sent = (await nip(100.97)).json().data;
      assert.equal(sent.status, 'Processing');
      const held = await accountOf(own._id);
      assert.equal(held.lockedBalance, 111.72);
      assert.equal(held.bookBalance, before.bookBalance);
      const status = await call('/transfers/tqs', { sessionId: sent.sessionId });
      assert.equal(status.json().data.status, 'Completed', status.body);
      const settled = await accountOf(own._id);
      assert.equal(settled.lockedBalance, 0);
      assert.equal(settled.bookBalance, before.bookBalance - 111.72);
      const byReference = await call('/transfers/status', {
        paymentReference: sent.paymentReference,
      });
      assert.equal(byReference.json().data._id, sent._id);
    });
  });

  describe('400: no key, or keys that do not match one transfer', () => {
    it('refuses a body with neither sessionId nor paymentReference', async () => {
      for (const url of ['/transfers/status', '/transfers/tqs']) {
        const response = await call(url, {});
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'VALIDATION_ERROR');
      }
    });

    it('a sessionId with the paymentReference of another transfer is not found', async () => {
      const first = (await nip(11, { paymentReference: 'STATUS-A' })).json().data;
      await nip(12, { paymentReference: 'STATUS-B' });
      const response = await call('/transfers/status', {
        sessionId: first.sessionId,
        paymentReference: 'STATUS-B',
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().message, 'Unable to locate record');
    });

    it("another client's paymentReference is not found", async () => {
      const { testApp, otherHeaders, otherAccountNumber } = context();
      await sandboxCredit(testApp.app, otherAccountNumber, 100);
      const theirs = await sendTransfer(testApp.app, otherHeaders, {
        debitAccountNumber: otherAccountNumber,
        amount: 10,
        paymentReference: 'THEIRS-1',
      });
      assert.equal(theirs.statusCode, 200, theirs.body);
      const response = await call('/transfers/status', { paymentReference: 'THEIRS-1' });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().message, 'Unable to locate record');
    });
  });

  for (const url of ['/transfers/status', '/transfers/tqs']) {
    describe(url, () => {
      describeAuthGuards(context, () => ({ method: 'POST', url, payload: { sessionId: 'x' } }));
      describeRecordIsolation(
        context,
        (id) => ({ method: 'POST', url, payload: { sessionId: decodeURIComponent(id) } }),
        {
          // A transfer of the other client: a credit to its main account.
          foreignId: async () => {
            const { testApp, otherAccountNumber } = context();
            return (await sandboxCredit(testApp.app, otherAccountNumber, 10)).sessionId;
          },
        },
      );
    });
  }
});
