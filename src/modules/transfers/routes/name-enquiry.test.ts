import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nameEnquiry, OTHER_BANK, OTHER_BANK_ACCOUNT } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('POST /transfers/name-enquiry', () => {
  const context = useRouteContext();

  const call = (payload: object, headers = context().headers) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/transfers/name-enquiry',
      headers,
      payload,
    });
  const enquire = (bankCode: string, accountNumber: string) =>
    nameEnquiry(context().testApp.app, context().headers, bankCode, accountNumber);

  describe('200: the account name and a reference for the transfer', () => {
    it('resolves one of our accounts and another bank’s, with a 30-digit reference', async () => {
      const ours = await enquire('999240', context().otherAccountNumber);
      assert.equal(ours.accountName, 'RIVAL LTD');
      assert.match(ours.sessionId, /^999240\d{24}$/);
      const theirs = await enquire(OTHER_BANK, OTHER_BANK_ACCOUNT);
      assert.equal(theirs.accountName, 'YUSUF ABUBAKAR');
    });

    it('answers the NIBSS envelope, with the bank and account echoed', async () => {
      const response = await call({ bankCode: OTHER_BANK, accountNumber: OTHER_BANK_ACCOUNT });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Account name retrieved successfully.');
      assert.equal(body.data.bankCode, OTHER_BANK);
      assert.equal(body.data.accountNumber, OTHER_BANK_ACCOUNT);
      assert.notEqual(
        (await enquire(OTHER_BANK, OTHER_BANK_ACCOUNT)).sessionId,
        body.data.sessionId,
        'every enquiry is its own reference',
      );
    });
  });

  describe('400 and 402: what the rail refuses', () => {
    it('refuses an unknown bank, an invalid account, and an unavailable bank', async () => {
      const unknown = await call({ bankCode: '123456', accountNumber: OTHER_BANK_ACCOUNT });
      assert.equal(unknown.json().code, 'UNKNOWN_BANK');
      const invalid = await call({ bankCode: OTHER_BANK, accountNumber: '1234560000' });
      assert.equal(invalid.statusCode, 400);
      assert.equal(invalid.json().code, 'NAME_ENQUIRY_FAILED');
      const down = await call({ bankCode: OTHER_BANK, accountNumber: '1234569999' });
      assert.equal(down.statusCode, 402);
    });
  });

  describe('400: an unknown bank or a malformed body', () => {
    it('an unknown bank is 400 UNKNOWN_BANK', async () => {
      const response = await call({ bankCode: '123456', accountNumber: OTHER_BANK_ACCOUNT });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'UNKNOWN_BANK');
    });

    it('refuses a malformed account number or bank code, or a missing one', async () => {
      for (const payload of [
        { bankCode: OTHER_BANK, accountNumber: '12345' },
        { bankCode: '13', accountNumber: OTHER_BANK_ACCOUNT },
        { accountNumber: OTHER_BANK_ACCOUNT },
      ]) {
        const response = await call(payload);
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload)}: ${response.body}`);
        assert.equal(response.json().code, 'VALIDATION_ERROR');
      }
    });
  });

  describe('402: the destination bank does not answer', () => {
    it('answers 402 for a bank that is unavailable, and no reference', async () => {
      const response = await call({ bankCode: OTHER_BANK, accountNumber: '1234569999' });
      assert.equal(response.statusCode, 402, response.body);
      assert.equal(response.json().data, undefined);
    });
  });

  describeAuthGuards(context, () => ({
    method: 'POST',
    url: '/transfers/name-enquiry',
    payload: { bankCode: OTHER_BANK, accountNumber: OTHER_BANK_ACCOUNT },
  }));
});
