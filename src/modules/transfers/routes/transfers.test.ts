import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sandboxCredit } from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

const OTHER_BANK = '000013';
const OTHER_ACCOUNT = '0123456789';

describe('transfers API', () => {
  const context = useRouteContext();
  let own: { accountNumber: string; _id: string };
  let other: { accountNumber: string; _id: string };

  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
    headers = context().headers,
  ) => context().testApp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  async function accountOf(accountId: string, headers = context().headers) {
    return (await call('GET', `/accounts/${accountId}`, undefined, headers)).json().data;
  }

  async function enquire(bankCode: string, accountNumber: string) {
    const response = await call('POST', '/transfers/name-enquiry', { bankCode, accountNumber });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data as { sessionId: string; accountName: string };
  }

  async function transfer(
    body: Record<string, unknown>,
    headers: Record<string, string> = context().headers,
  ) {
    return call(
      'POST',
      '/transfers',
      { debitAccountNumber: own.accountNumber, saveBeneficiary: false, ...body },
      headers,
    );
  }

  async function nip(amount: number, extra: Record<string, unknown> = {}) {
    const { sessionId } = await enquire(OTHER_BANK, OTHER_ACCOUNT);
    return transfer({
      nameEnquiryReference: sessionId,
      beneficiaryBankCode: OTHER_BANK,
      beneficiaryAccountNumber: OTHER_ACCOUNT,
      amount,
      ...extra,
    });
  }

  before(async () => {
    const { testApp, ownAccountId, otherAccountId, otherHeaders } = context();
    own = await accountOf(ownAccountId);
    other = await accountOf(otherAccountId, otherHeaders);
    await sandboxCredit(testApp.app, own.accountNumber, 5_000);
  });

  describe('POST /transfers/name-enquiry', () => {
    it('resolves one of our accounts and another bank’s, with a 30-digit reference', async () => {
      const ours = await enquire('999240', other.accountNumber);
      assert.equal(ours.accountName, 'RIVAL LTD');
      assert.match(ours.sessionId, /^999240\d{24}$/);
      const theirs = await enquire(OTHER_BANK, OTHER_ACCOUNT);
      assert.equal(theirs.accountName, 'YUSUF ABUBAKAR');
    });

    it('refuses an unknown bank, an invalid account, and an unavailable bank', async () => {
      const unknown = await call('POST', '/transfers/name-enquiry', {
        bankCode: '123456',
        accountNumber: OTHER_ACCOUNT,
      });
      assert.equal(unknown.json().code, 'UNKNOWN_BANK');
      const invalid = await call('POST', '/transfers/name-enquiry', {
        bankCode: OTHER_BANK,
        accountNumber: '1234560000',
      });
      assert.equal(invalid.statusCode, 400);
      assert.equal(invalid.json().code, 'NAME_ENQUIRY_FAILED');
      const down = await call('POST', '/transfers/name-enquiry', {
        bankCode: OTHER_BANK,
        accountNumber: '1234569999',
      });
      assert.equal(down.statusCode, 402);
    });
  });

  describe('POST /transfers: intra-bank', () => {
    it('moves money at once, shows both sides, and replays a repeated paymentReference', async () => {
      const before = await accountOf(own._id);
      const { sessionId } = await enquire('999240', other.accountNumber);
      const body = {
        nameEnquiryReference: sessionId,
        beneficiaryBankCode: '999240',
        beneficiaryAccountNumber: other.accountNumber,
        amount: 100.5,
        paymentReference: 'INTRA-1',
        narration: 'Rent',
      };
      const first = await transfer(body);
      assert.equal(first.statusCode, 200, first.body);
      const sent = first.json().data;
      assert.equal(sent.status, 'Completed');
      assert.equal(sent.type, 'Outwards');
      assert.equal(sent.fees, 0);
      assert.equal(sent.providerChannel, 'TRANSFER');
      const replay = (await transfer(body)).json().data;
      assert.equal(replay._id, sent._id);
      assert.equal((await accountOf(own._id)).accountBalance, before.accountBalance - 100.5);
      const conflict = await transfer({ ...body, amount: 200 });
      assert.equal(conflict.statusCode, 409);
      const theirs = await call(
        'GET',
        `/transfers?type=Inwards&accountId=${other._id}`,
        undefined,
        context().otherHeaders,
      );
      assert.ok(
        theirs.json().data.some((item: { sessionId: string }) => item.sessionId === sent.sessionId),
      );
    });

    it('refuses a transfer to the same account', async () => {
      const { sessionId } = await enquire('999240', own.accountNumber);
      const response = await transfer({
        nameEnquiryReference: sessionId,
        beneficiaryBankCode: '999240',
        beneficiaryAccountNumber: own.accountNumber,
        amount: 1,
      });
      assert.equal(response.json().code, 'SAME_ACCOUNT');
    });
  });

  describe('POST /transfers: NIP two-phase', () => {
    it('completes on 00 with the fee and VAT posted', async () => {
      const before = await accountOf(own._id);
      const response = await nip(100);
      const sent = response.json().data;
      assert.equal(sent.status, 'Completed', response.body);
      assert.equal(sent.responseCode, '00');
      assert.equal(sent.fees, 10);
      assert.equal(sent.vat, 0.75);
      const after = await accountOf(own._id);
      assert.equal(after.accountBalance, before.accountBalance - 110.75);
      assert.equal(after.lockedBalance, 0);
    });

    it('fails on a definitive code and releases the hold', async () => {
      const before = await accountOf(own._id);
      const sent = (await nip(100.05)).json().data;
      assert.equal(sent.status, 'Failed');
      assert.equal(sent.responseCode, '05');
      assert.deepEqual(await accountOf(own._id), before);
    });

    it('stays Processing on a timeout with the funds held, and settles on a status query', async () => {
      const before = await accountOf(own._id);
      const sent = (await nip(100.97)).json().data;
      assert.equal(sent.status, 'Processing');
      const held = await accountOf(own._id);
      assert.equal(held.lockedBalance, 111.72);
      assert.equal(held.bookBalance, before.bookBalance);
      const status = await call('POST', '/transfers/tqs', { sessionId: sent.sessionId });
      assert.equal(status.json().data.status, 'Completed', status.body);
      const settled = await accountOf(own._id);
      assert.equal(settled.lockedBalance, 0);
      assert.equal(settled.bookBalance, before.bookBalance - 111.72);
      const byReference = await call('POST', '/transfers/status', {
        paymentReference: sent.paymentReference,
      });
      assert.equal(byReference.json().data._id, sent._id);
    });

    it('refuses what the account cannot cover with 402 and records nothing', async () => {
      const response = await nip(1_000_000, { paymentReference: 'TOO-MUCH' });
      assert.equal(response.statusCode, 402);
      assert.equal(response.json().code, 'INSUFFICIENT_FUNDS');
      const history = await call('POST', '/transfers/status', { paymentReference: 'TOO-MUCH' });
      assert.equal(history.statusCode, 400);
    });

    it('refuses an amount over the per-transfer limit with 402', async () => {
      const response = await nip(5_000_001);
      assert.equal(response.statusCode, 402);
      assert.equal(response.json().code, 'TRANSFER_LIMIT_EXCEEDED');
    });
  });

  describe('idempotency and references', () => {
    it('replays an Idempotency-Key and refuses it with another body (422)', async () => {
      const { sessionId } = await enquire(OTHER_BANK, OTHER_ACCOUNT);
      const body = {
        nameEnquiryReference: sessionId,
        beneficiaryBankCode: OTHER_BANK,
        beneficiaryAccountNumber: OTHER_ACCOUNT,
        amount: 20,
      };
      const headers = { ...context().headers, 'idempotency-key': 'key-1' };
      const first = (await transfer(body, headers)).json().data;
      const again = (await transfer(body, headers)).json().data;
      assert.equal(again._id, first._id);
      const other = await transfer({ ...body, amount: 21 }, headers);
      assert.equal(other.statusCode, 422);
    });

    it('refuses a stale, foreign or mismatched name enquiry reference', async () => {
      const { sessionId } = await enquire(OTHER_BANK, OTHER_ACCOUNT);
      const mismatched = await transfer({
        nameEnquiryReference: sessionId,
        beneficiaryBankCode: OTHER_BANK,
        beneficiaryAccountNumber: '0123456788',
        amount: 1,
      });
      assert.equal(mismatched.json().code, 'NAME_ENQUIRY_INVALID');
      const { testApp } = context();
      const restore = testApp.clock.now();
      testApp.clock.advanceSeconds(testApp.config.transfers.nameEnquiryTtlSeconds + 1);
      const stale = await transfer({
        nameEnquiryReference: sessionId,
        beneficiaryBankCode: OTHER_BANK,
        beneficiaryAccountNumber: OTHER_ACCOUNT,
        amount: 1,
      });
      testApp.clock.set(restore);
      assert.equal(stale.statusCode, 400);
      assert.equal(stale.json().code, 'NAME_ENQUIRY_INVALID');
    });

    it("refuses another client's debit account as unknown", async () => {
      const { sessionId } = await enquire(OTHER_BANK, OTHER_ACCOUNT);
      const response = await transfer({
        nameEnquiryReference: sessionId,
        beneficiaryBankCode: OTHER_BANK,
        beneficiaryAccountNumber: OTHER_ACCOUNT,
        amount: 1,
        debitAccountNumber: other.accountNumber,
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().message, 'Unable to locate record');
    });
  });

  describe('beneficiaries', () => {
    it('saves, lists and deletes; another client cannot delete', async () => {
      await nip(30, { saveBeneficiary: true });
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
  });

  describe('beneficiaries are saved only after a successful transfer', () => {
    async function nipTo(accountNumber: string, amount: number) {
      const { sessionId } = await enquire(OTHER_BANK, accountNumber);
      return (
        await transfer({
          nameEnquiryReference: sessionId,
          beneficiaryBankCode: OTHER_BANK,
          beneficiaryAccountNumber: accountNumber,
          amount,
          saveBeneficiary: true,
        })
      ).json().data;
    }
    async function saved(accountNumber: string) {
      const list = (await call('GET', '/transfers/beneficiaries?limit=100')).json();
      return list.data.some(
        (item: { accountNumber: string }) => item.accountNumber === accountNumber,
      );
    }

    it('a failed NIP transfer saves nothing', async () => {
      assert.equal((await nipTo('0123456781', 20.05)).status, 'Failed');
      assert.equal(await saved('0123456781'), false);
    });

    it('a Processing NIP transfer saves it when the status query answers 00', async () => {
      const sent = await nipTo('0123456782', 20.97);
      assert.equal(sent.status, 'Processing');
      assert.equal(await saved('0123456782'), false);
      const settled = await call('POST', '/transfers/tqs', { sessionId: sent.sessionId });
      assert.equal(settled.json().data.status, 'Completed');
      assert.equal(await saved('0123456782'), true);
    });
  });

  describe('GET /transfers', () => {
    it('lists history by account, direction and status, only the caller’s', async () => {
      const outwards = (
        await call('GET', `/transfers?accountId=${own._id}&type=Outwards&status=Completed`)
      ).json();
      assert.ok(outwards.data.length >= 2);
      assert.ok(
        outwards.data.every(
          (item: { type: string; status: string }) =>
            item.type === 'Outwards' && item.status === 'Completed',
        ),
      );
      const foreign = (
        await call('GET', `/transfers?accountId=${own._id}`, undefined, context().otherHeaders)
      ).json();
      assert.deepEqual(foreign.data, []);
    });
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/transfers' }));
  describeRecordIsolation(context, (id) => ({
    method: 'DELETE',
    url: `/transfers/beneficiaries/${id}`,
  }));
});
