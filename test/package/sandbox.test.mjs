// The published SDK (@specialman/safehaven) against a sandbox started from the installed package
// (openibs/testing): it signs in with a fixtures client's assertion, pays, and meets the
// sandbox's clock. payouts.test.mjs tests a team's own code the same way.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startSandbox } from 'openibs/testing';

const require = createRequire(import.meta.url);
const Auth = require('@specialman/safehaven/services/auth.js');
const base = require('@specialman/safehaven/lib/base.js');
const Transfer = require('@specialman/safehaven/services/transfer.js');
const VirtualAccount = require('@specialman/safehaven/services/virtualAccount.js');

const FIXTURES = fileURLToPath(new URL('./fixtures.json', import.meta.url));
const ACME_ACCOUNT = '0000001013';
const SHOP_ACCOUNT = '0000002027';
const OUR_BANK = '999240';

describe('a payout service tested against the OpenIBS sandbox', () => {
  let bank;
  before(async () => {
    bank = await startSandbox({ fixtures: FIXTURES, logLevel: 'silent' });
  });
  after(() => bank?.close());

  /** The SDK signed in as a fixtures client, pointed at the sandbox. */
  async function sdkAs(name) {
    const client = bank.client(name);
    const auth = new Auth({
      client_id: client.oauthClientId,
      client_assertion: await client.assertion(),
      env: 'sandbox',
    });
    auth.base_url = bank.url;
    await auth.authenticate();
    const request = base(auth);
    return { auth, transfers: new Transfer(request), virtualAccounts: new VirtualAccount(request) };
  }

  async function balance(accountNumber) {
    return (await bank.account(accountNumber)).accountBalance;
  }

  it('starts from the fixtures: fixed clients, accounts and balances', async () => {
    assert.equal(await balance(ACME_ACCOUNT), 500000);
    assert.equal(await balance(SHOP_ACCOUNT), 0);
    assert.equal(bank.client('Acme Payouts').ibsClientId, '65a000000000000000000a01');
  });

  it('the published SDK pays another client, and the transfer webhook is seen', async () => {
    const { auth, transfers } = await sdkAs('Acme Payouts');
    try {
      const enquiry = await transfers.nameEnquiry({
        bankCode: OUR_BANK,
        accountNumber: SHOP_ACCOUNT,
      });
      const sent = await transfers.create({
        nameEnquiryReference: enquiry.data.sessionId,
        debitAccountNumber: ACME_ACCOUNT,
        beneficiaryBankCode: OUR_BANK,
        beneficiaryAccountNumber: SHOP_ACCOUNT,
        amount: 2500,
        saveBeneficiary: false,
        narration: 'Payout 1',
      });
      assert.equal(sent.data.status, 'Completed');
      assert.equal(await balance(SHOP_ACCOUNT), 2500);
      const webhook = await bank.webhooks.waitFor(
        'transfer',
        (_record, payload) => payload.data?.sessionId === sent.data.sessionId,
        { timeoutMs: 10_000 },
      );
      assert.equal(webhook.clientId, '65a000000000000000000a01');
    } finally {
      auth.cleanup();
    }
  });

  it('moves the clock: a virtual account expires without waiting', async () => {
    const { auth, virtualAccounts } = await sdkAs('Corner Shop');
    try {
      const made = await virtualAccounts.create({
        validFor: 900,
        settlementAccount: { bankCode: OUR_BANK, accountNumber: SHOP_ACCOUNT },
        amountControl: 'Fixed',
        amount: 1000,
        callbackUrl: 'https://shop.example/hooks/va',
        externalReference: `VA-${Date.now()}`,
      });
      await bank.clock.advance('PT16M');
      const paid = await bank
        .payVirtualAccount({ accountNumber: made.data.accountNumber, amount: 1000 })
        .then(
          () => 'paid',
          (error) => error.message,
        );
      assert.notEqual(paid, 'paid', 'an expired virtual account takes no payment');
      assert.equal(await balance(SHOP_ACCOUNT), 2500);
    } finally {
      auth.cleanup();
    }
  });

  it('reset: the balances and lists are the fixtures again', async () => {
    await bank.reset();
    assert.equal(await balance(ACME_ACCOUNT), 500000);
    assert.equal(await balance(SHOP_ACCOUNT), 0);
    assert.deepEqual(await bank.webhooks.list(), []);
    const transfers = await fetch(`${bank.url}/transfers?page=0&limit=10`, {
      headers: await bank.client('Acme Payouts').headers(),
    });
    assert.deepEqual((await transfers.json()).data, []);
  });
});
