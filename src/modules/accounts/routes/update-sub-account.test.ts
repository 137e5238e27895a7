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

  describe("200: the id slot takes the sub-account's externalReference too", () => {
    it('updates the sub-account found by its externalReference, and answers it', async () => {
      const target = await openSubAccount(
        context().testApp.app,
        context().headers,
        main.accountNumber,
        { externalReference: 'CUSTOMER 42/A' },
      );
      const response = await update(encodeURIComponent(target.externalReference), {
        phoneNumber: '+2348112340042',
        metadata: { by: 'reference' },
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().message, 'Sub account updated successfully.');
      const data = response.json().data;
      assert.equal(data._id, target._id);
      assert.equal(data.phoneNumber, '+2348112340042');
      assert.deepEqual(data.metadata, { by: 'reference' });
      const stored = (await call('GET', `/accounts/${target._id}`)).json().data;
      assert.equal(stored.phoneNumber, '+2348112340042');
    });

    it('takes a new externalReference by the old one; the old one is then unknown', async () => {
      const target = await openSubAccount(
        context().testApp.app,
        context().headers,
        main.accountNumber,
      );
      const renamed = await update(target.externalReference, {
        externalReference: `${target.externalReference}-V2`,
      });
      assert.equal(renamed.statusCode, 200, renamed.body);
      assert.equal(renamed.json().data.externalReference, `${target.externalReference}-V2`);
      const byNew = await update(`${target.externalReference}-V2`, {
        emailAddress: 'n@example.com',
      });
      assert.equal(byNew.json().data._id, target._id);
      const byOld = await update(target.externalReference, { emailAddress: 'o@example.com' });
      assert.equal(byOld.statusCode, 400);
      assert.equal(byOld.json().code, 'RECORD_NOT_FOUND');
    });

    it('an id wins over a reference shaped like one; an id-shaped reference is found when no id matches', async () => {
      const { testApp, headers } = context();
      const first = await openSubAccount(testApp.app, headers, main.accountNumber);
      // A reference that is the _id of another of the caller's sub-accounts, and one that is no id.
      const shadowing = await openSubAccount(testApp.app, headers, main.accountNumber, {
        externalReference: first._id,
      });
      const idShaped = 'abcdefabcdefabcdefabcdef';
      const lookalike = await openSubAccount(testApp.app, headers, main.accountNumber, {
        externalReference: idShaped,
      });
      const byId = await update(first._id, { metadata: { hit: 'id' } });
      assert.equal(byId.json().data._id, first._id, byId.body);
      const shadowed = (await call('GET', `/accounts/${shadowing._id}`)).json().data;
      assert.deepEqual(shadowed.metadata, { customer: 'jane' }, 'the id won; nothing else changed');
      const byReference = await update(idShaped, { metadata: { hit: 'reference' } });
      assert.equal(byReference.statusCode, 200, byReference.body);
      assert.equal(byReference.json().data._id, lookalike._id);
    });
  });

  describe('400 "Unable to locate record": a reference that is not one of yours', () => {
    it("answers another client's externalReference and an unknown one alike, changing nothing", async () => {
      const { testApp, otherHeaders, otherAccountNumber } = context();
      await sandboxCredit(testApp.app, otherAccountNumber, 100);
      const theirs = await openSubAccount(testApp.app, otherHeaders, otherAccountNumber, {
        externalReference: 'THEIR-CUSTOMER-1',
      });
      const answers = [];
      for (const reference of ['THEIR-CUSTOMER-1', 'NO-SUCH-REFERENCE']) {
        const response = await update(reference, { phoneNumber: '+2348000000001' });
        assert.equal(response.statusCode, 400, `${reference}: ${response.body}`);
        answers.push(response.json());
      }
      assert.deepEqual(answers[0], answers[1]);
      assert.equal(answers[0].message, 'Unable to locate record');
      assert.equal(answers[0].code, 'RECORD_NOT_FOUND');
      const stored = (await call('GET', `/accounts/${theirs._id}`, undefined, otherHeaders)).json()
        .data;
      assert.equal(stored.phoneNumber, '+2348112345678');
    });

    it('answers a reference over 100 characters as unknown', async () => {
      const response = await update('R'.repeat(101), { phoneNumber: '+2348000000001' });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'RECORD_NOT_FOUND');
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
