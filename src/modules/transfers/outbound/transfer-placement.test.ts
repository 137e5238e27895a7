import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountBalance, sandboxCredit, signedInClient } from '../../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../../test/harness.ts';

/** How a repeated request is recognised: by Idempotency-Key, by paymentReference, or both. */
describe('transfer placement: replays', () => {
  let testApp: TestApp;
  let headers: Record<string, string>;
  let debitAccountNumber: string;
  let payee: string;

  const post = (url: string, payload: object, extra: Record<string, string> = {}) =>
    testApp.app.inject({ method: 'POST', url, headers: { ...headers, ...extra }, payload });

  async function body(amount: number, paymentReference?: string) {
    const enquiry = await post('/transfers/name-enquiry', {
      bankCode: '999240',
      accountNumber: payee,
    });
    return {
      nameEnquiryReference: enquiry.json().data.sessionId,
      debitAccountNumber,
      beneficiaryBankCode: '999240',
      beneficiaryAccountNumber: payee,
      amount,
      ...(paymentReference === undefined ? {} : { paymentReference }),
    };
  }

  const balance = () => accountBalance(testApp.app, headers, debitAccountNumber);

  before(async () => {
    testApp = await buildTestApp();
    const signedIn = await signedInClient(testApp);
    headers = signedIn.headers;
    debitAccountNumber = signedIn.client.mainAccountNumber;
    await sandboxCredit(testApp.app, debitAccountNumber, 1_000);
    payee = (await post('/accounts', { suffix: 'Payee' })).json().data.accountNumber;
  });
  after(() => testApp.close());

  it('a new key on a repeated paymentReference replays it, and the key then names that transfer', async () => {
    const first = await post('/transfers', await body(7, 'REF-KEYED'));
    assert.equal(first.statusCode, 200, first.body);
    const afterFirst = await balance();
    const byReference = await post('/transfers', await body(7, 'REF-KEYED'), {
      'idempotency-key': 'key-late',
    });
    assert.equal(byReference.json().data._id, first.json().data._id);
    // The key now replays the same transfer, even without the reference.
    const byKey = await post('/transfers', await body(7, 'REF-KEYED'), {
      'idempotency-key': 'key-late',
    });
    assert.equal(byKey.json().data._id, first.json().data._id);
    assert.equal(await balance(), afterFirst, 'nothing moved twice');
  });

  it('a key used for another request is 422, and nothing moves', async () => {
    const first = await post('/transfers', await body(3), { 'idempotency-key': 'key-once' });
    assert.equal(first.statusCode, 200, first.body);
    const before = await balance();
    const other = await post('/transfers', await body(4), { 'idempotency-key': 'key-once' });
    assert.equal(other.statusCode, 422, other.body);
    assert.equal(other.json().code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal(await balance(), before);
  });
});
