import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  createVirtualAccount,
  getAccount,
  payVirtualAccount,
  sandboxCredit,
  sendTransfer,
} from '../../../../test/factories.ts';
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

  describe("400: a payment into a virtual account is the virtual account's, not a transfer", () => {
    const STATUS_PATHS = ['/transfers/status', '/transfers/tqs'];
    const ownVirtualAccount = (amount: number) =>
      createVirtualAccount(context().testApp.app, context().headers, own.accountNumber, {
        amount,
      });
    const assertNotFound = async (payload: object, headers = context().headers) => {
      for (const url of STATUS_PATHS) {
        const response = await call(url, payload, headers);
        assert.equal(
          response.statusCode,
          400,
          `${url} ${JSON.stringify(payload)}: ${response.body}`,
        );
        assert.equal(response.json().message, 'Unable to locate record');
        assert.equal(response.json().code, 'RECORD_NOT_FOUND');
      }
    };

    it('answers 400 for a payment from another bank; /virtual-accounts/status answers it', async () => {
      const account = await ownVirtualAccount(30);
      const paid = await payVirtualAccount(context().testApp.app, account.accountNumber, 30);
      assert.equal(paid.statusCode, 201, paid.body);
      const { sessionId, paymentReference } = paid.json().data;
      // As the client sends them on a virtualAccount.transfer webhook: each key, and both.
      for (const key of [{ sessionId }, { paymentReference }, { sessionId, paymentReference }]) {
        await assertNotFound(key);
      }
      const fallback = await call('/virtual-accounts/status', { sessionId });
      assert.equal(fallback.statusCode, 200, fallback.body);
      assert.equal(fallback.json().data.status, 'Completed');
      assert.equal(fallback.json().data.externalReference, account.externalReference);
    });

    it("answers 400 to the owner for another client's intra-bank payment, 200 to the payer", async () => {
      const { testApp, otherHeaders, otherAccountNumber, headers } = context();
      const account = await ownVirtualAccount(40);
      await sandboxCredit(testApp.app, otherAccountNumber, 100);
      const sent = await sendTransfer(testApp.app, otherHeaders, {
        debitAccountNumber: otherAccountNumber,
        beneficiaryBankCode: '999240',
        beneficiaryAccountNumber: account.accountNumber,
        amount: 40,
        paymentReference: 'PAYS-YOUR-VA',
      });
      assert.equal(sent.json().data.status, 'Completed', sent.body);
      const { sessionId } = sent.json().data;
      await assertNotFound({ sessionId }, headers);
      // The payer's own transfer stays theirs to ask about.
      const payers = await call('/transfers/status', { sessionId }, otherHeaders);
      assert.equal(payers.statusCode, 200, payers.body);
      assert.equal(payers.json().data._id, sent.json().data._id);
      assert.equal(payers.json().data.type, 'Outwards');
    });

    it('answers 200 with the outward transfer when the caller paid its own virtual account', async () => {
      const account = await ownVirtualAccount(15);
      const sent = await nip(15, {
        beneficiaryBankCode: '999240',
        beneficiaryAccountNumber: account.accountNumber,
      });
      assert.equal(sent.json().data.status, 'Completed', sent.body);
      for (const url of STATUS_PATHS) {
        const response = await call(url, { sessionId: sent.json().data.sessionId });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json().data._id, sent.json().data._id);
        assert.equal(response.json().data.type, 'Outwards');
      }
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
