import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { OTHER_BANK_ACCOUNT, sandboxCredit, sendTransfer } from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

const OTHER_ACCOUNT = OTHER_BANK_ACCOUNT;

describe('DELETE /transfers/beneficiaries/:id', () => {
  const context = useRouteContext();

  const call = (
    method: 'GET' | 'DELETE',
    url: string,
    payload?: object,
    headers = context().headers,
  ) => context().testApp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  /** Pays the account with saveBeneficiary and answers the saved beneficiary. */
  async function savedBeneficiary(
    accountNumber: string,
    headers = context().headers,
    debitAccountNumber = context().ownAccountNumber,
  ): Promise<{ _id: string; accountNumber: string }> {
    const sent = await sendTransfer(context().testApp.app, headers, {
      debitAccountNumber,
      beneficiaryAccountNumber: accountNumber,
      amount: 30,
      saveBeneficiary: true,
    });
    assert.equal(sent.json().data?.status, 'Completed', sent.body);
    const list = (
      await call('GET', '/transfers/beneficiaries?limit=100', undefined, headers)
    ).json();
    const saved = list.data.find(
      (item: { accountNumber: string }) => item.accountNumber === accountNumber,
    );
    assert.ok(saved, `${accountNumber} was saved`);
    return saved;
  }

  before(async () => {
    const { testApp, ownAccountNumber, otherAccountNumber } = context();
    await sandboxCredit(testApp.app, ownAccountNumber, 5_000);
    await sandboxCredit(testApp.app, otherAccountNumber, 5_000);
  });

  describe('200: the deleted beneficiary, gone from the list', () => {
    it('saves, lists and deletes; another client cannot delete', async () => {
      await sendTransfer(context().testApp.app, context().headers, {
        debitAccountNumber: context().ownAccountNumber,
        amount: 30,
        saveBeneficiary: true,
      });
      const list = (await call('GET', '/transfers/beneficiaries')).json();
      const saved = list.data.find(
        (item: { accountNumber: string }) => item.accountNumber === OTHER_ACCOUNT,
      );
      assert.ok(saved);
      assert.equal(saved.bankName.length > 0, true);
      const foreign = await call(
        'DELETE',
        `/transfers/beneficiaries/${saved._id}`,
        undefined,
        context().otherHeaders,
      );
      assert.equal(foreign.statusCode, 400);
      const removed = await call('DELETE', `/transfers/beneficiaries/${saved._id}`);
      assert.equal(removed.statusCode, 200);
      const after = (await call('GET', '/transfers/beneficiaries')).json();
      assert.equal(after.data.length, list.data.length - 1);
    });

    it('answers the beneficiary it deleted', async () => {
      const saved = await savedBeneficiary('0000000012');
      const response = await call('DELETE', `/transfers/beneficiaries/${saved._id}`);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Beneficiary deleted successfully.');
      assert.deepEqual(body.data, saved);
    });
  });

  describe('400 "Unable to locate record": already deleted, or not yours', () => {
    it("refuses another client's beneficiary and leaves it saved", async () => {
      const { otherHeaders, otherAccountNumber } = context();
      const theirs = await savedBeneficiary('0000000015', otherHeaders, otherAccountNumber);
      const response = await call('DELETE', `/transfers/beneficiaries/${theirs._id}`);
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().message, 'Unable to locate record');
      const list = (await call('GET', '/transfers/beneficiaries', undefined, otherHeaders)).json();
      assert.ok(list.data.some((item: { _id: string }) => item._id === theirs._id));
    });

    it('a second delete of the same beneficiary is not found', async () => {
      const saved = await savedBeneficiary('0000000013');
      assert.equal((await call('DELETE', `/transfers/beneficiaries/${saved._id}`)).statusCode, 200);
      const again = await call('DELETE', `/transfers/beneficiaries/${saved._id}`);
      assert.equal(again.statusCode, 400);
      assert.equal(again.json().message, 'Unable to locate record');
    });
  });

  const request = (id: string) => ({
    method: 'DELETE' as const,
    url: `/transfers/beneficiaries/${id}`,
  });
  describeAuthGuards(context, request);
  describeRecordIsolation(context, request, {
    // A beneficiary the other client saved, not only its account id.
    foreignId: async () => {
      const { otherHeaders, otherAccountNumber } = context();
      return (await savedBeneficiary('0000000014', otherHeaders, otherAccountNumber))._id;
    },
  });
});
