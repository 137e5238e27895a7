import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  individualSubAccountBody,
  openSubAccount,
  SANDBOX_BVN,
  sandboxCredit,
  verifyIdentity,
} from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

describe('PUT /accounts/:id/subaccount', () => {
  const context = useRouteContext();
  let main: { _id: string; accountNumber: string };
  let sub: { _id: string; externalReference: string };

  const call = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
    headers = context().headers,
  ) => context().testApp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const update = (id: string, payload: object, headers = context().headers) =>
    call('PUT', `/accounts/${id}/subaccount`, payload, headers);

  before(async () => {
    const { testApp, ownAccountId, ownAccountNumber, headers } = context();
    main = { _id: ownAccountId, accountNumber: ownAccountNumber };
    await sandboxCredit(testApp.app, main.accountNumber, 9_000);
    sub = await openSubAccount(testApp.app, headers, main.accountNumber);
  });

  describe('200: contact details, metadata, callback URL, auto-sweep and reference change', () => {
    it('changes contact details, metadata, callback URL and auto-sweep, never identity', async () => {
      const identityId = await verifyIdentity(context().testApp.app, context().headers, {
        type: 'BVN',
        number: SANDBOX_BVN,
        debitAccountNumber: main.accountNumber,
      });
      const created = (
        await call('POST', '/accounts/subaccount', individualSubAccountBody(identityId))
      ).json().data;
      const response = await call('PUT', `/accounts/${created._id}/subaccount`, {
        phoneNumber: '+2348112345679',
        emailAddress: 'mat.doe@example.com',
        externalReference: created.externalReference,
        metadata: { updated: true },
        callbackUrl: 'http://127.0.0.1:9/hooks',
        autoSweep: true,
        autoSweepDetails: { destinationAccountNumber: main.accountNumber, retainAmount: 100 },
        accountBalance: 1_000_000,
        kycLevel: '3',
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().message, 'Sub account updated successfully.');
      const data = response.json().data;
      assert.equal(data.phoneNumber, '+2348112345679');
      assert.equal(data.emailAddress, 'mat.doe@example.com');
      assert.deepEqual(data.metadata, { updated: true });
      assert.equal(data.callbackUrl, 'http://127.0.0.1:9/hooks');
      assert.equal(data.autoSweep, true);
      assert.deepEqual(data.autoSweepDetails, {
        destinationAccountNumber: main.accountNumber,
        retainAmount: 100,
        minimumAmount: 1,
      });
      assert.equal(data.accountBalance, 0);
      assert.equal(data.kycLevel, '2');
      const identityChange = await call('PUT', `/accounts/${created._id}/subaccount`, {
        identityId: '0'.repeat(24),
      });
      assert.equal(identityChange.statusCode, 400);
      const referenceChange = await call('PUT', `/accounts/${created._id}/subaccount`, {
        externalReference: `NEW-${created._id}`,
      });
      assert.equal(referenceChange.statusCode, 200, referenceChange.body);
      assert.equal(referenceChange.json().data.externalReference, `NEW-${created._id}`);
      const taken = (
        await call('POST', '/accounts/subaccount', individualSubAccountBody(identityId))
      ).json().data;
      const clash = await call('PUT', `/accounts/${created._id}/subaccount`, {
        externalReference: taken.externalReference,
      });
      assert.equal(clash.statusCode, 409);
      assert.equal(clash.json().code, 'DUPLICATE_REFERENCE');
      const mainAccount = await call('PUT', `/accounts/${main._id}/subaccount`, {
        phoneNumber: '+2348112345679',
      });
      assert.equal(mainAccount.statusCode, 400);
    });

    it('an empty body changes nothing', async () => {
      const before = (await call('GET', `/accounts/${sub._id}`)).json().data;
      const response = await update(sub._id, {});
      assert.equal(response.statusCode, 200, response.body);
      const { updatedAt: _before, ...unchanged } = before;
      const { updatedAt: _after, ...after } = response.json().data;
      assert.deepEqual(after, unchanged);
    });
  });

  describe('400: what may not change, or is malformed', () => {
    it('refuses malformed contact details and a callback URL that is not one', async () => {
      for (const payload of [
        { phoneNumber: 'call me' },
        { emailAddress: 'not-an-email' },
        { callbackUrl: 'not a url' },
      ]) {
        const response = await update(sub._id, payload);
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload)}: ${response.body}`);
      }
    });

    it("refuses another client's account as the auto-sweep destination", async () => {
      const response = await update(sub._id, {
        autoSweep: true,
        autoSweepDetails: { destinationAccountNumber: context().otherAccountNumber },
      });
      assert.equal(response.statusCode, 400, response.body);
      const account = (await call('GET', `/accounts/${sub._id}`)).json().data;
      assert.equal(account.autoSweep, false, 'nothing changed');
    });
  });

  describe('409: an externalReference another sub-account holds', () => {
    it('answers DUPLICATE_REFERENCE and keeps the reference', async () => {
      const other = await openSubAccount(
        context().testApp.app,
        context().headers,
        main.accountNumber,
      );
      const clash = await update(sub._id, { externalReference: other.externalReference });
      assert.equal(clash.statusCode, 409);
      assert.equal(clash.json().code, 'DUPLICATE_REFERENCE');
      const account = (await call('GET', `/accounts/${sub._id}`)).json().data;
      assert.equal(account.externalReference, sub.externalReference);
    });
  });

  const request = (id: string) => ({
    method: 'PUT' as const,
    url: `/accounts/${id}/subaccount`,
    payload: { phoneNumber: '+2348112345679' },
  });
  // On a real sub-account, so the answer past the guards is 200.
  describeAuthGuards(context, () => request(sub._id));
  describeRecordIsolation(context, request, {
    // The other client's sub-account, not only its main account.
    foreignId: async () => {
      const { testApp, otherHeaders, otherAccountNumber } = context();
      await sandboxCredit(testApp.app, otherAccountNumber, 100);
      return (await openSubAccount(testApp.app, otherHeaders, otherAccountNumber))._id;
    },
  });
});
