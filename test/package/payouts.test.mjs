// payouts.test.mjs: the team's payout code under node:test, against a sandbox bank started
// from the fixtures.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startSandbox } from 'openibs/testing';
import { createPayouts } from './payouts.mjs';

const FIXTURES = fileURLToPath(new URL('./fixtures.json', import.meta.url));
const ACME_ACCOUNT = '0000001013';
const SHOP_ACCOUNT = '0000002027';
const SANDBOX_BANK = '999240';

describe('payouts', () => {
  let bank;
  let payouts;
  before(async () => {
    bank = await startSandbox({ fixtures: FIXTURES, logLevel: 'silent' });
    const acme = bank.client('Acme Payouts');
    payouts = createPayouts({
      baseUrl: bank.url,
      oauthClientId: acme.oauthClientId,
      ibsClientId: acme.ibsClientId,
      clientAssertion: () => acme.assertion(),
      debitAccountNumber: ACME_ACCOUNT,
    });
  });
  beforeEach(() => bank.reset());
  after(() => bank?.close());

  const balance = async (accountNumber) => (await bank.account(accountNumber)).accountBalance;

  it('pays the supplier once, and the transfer webhook tells Acme', async () => {
    const paid = await payouts.pay({
      accountNumber: SHOP_ACCOUNT,
      bankCode: SANDBOX_BANK,
      amount: 2500,
      reference: 'PAYOUT-1',
    });
    assert.equal(paid.status, 'Completed');
    assert.equal(await balance(ACME_ACCOUNT), 497500);
    assert.equal(await balance(SHOP_ACCOUNT), 2500);
    const webhook = await bank.webhooks.waitFor(
      'transfer',
      (_record, payload) => payload.data.sessionId === paid.sessionId,
    );
    assert.equal(webhook.clientId, bank.client('Acme Payouts').ibsClientId);
  });

  it('recovers a lost answer (the transfer committed, then a 504) without paying twice', async () => {
    await bank.faults.inject({
      clientId: bank.client('Acme Payouts').ibsClientId,
      route: 'POST /transfers',
      fault: 'commit-then-504',
    });
    const paid = await payouts.pay({
      accountNumber: SHOP_ACCOUNT,
      bankCode: SANDBOX_BANK,
      amount: 700,
      reference: 'PAYOUT-2',
    });
    assert.equal(paid.status, 'Completed');
    assert.deepEqual(await bank.faults.list(), [], 'the fault was met');
    assert.equal(await balance(ACME_ACCOUNT), 499300, 'debited once');
    assert.equal(await balance(SHOP_ACCOUNT), 700);
  });
});
