// vitest/payouts.test.mjs: the same payout code under Vitest, against a sandbox bank started
// from the fixtures.
import { fileURLToPath } from 'node:url';
import { startSandbox } from 'openibs/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createPayouts, PayoutRefused } from '../payouts.mjs';

const FIXTURES = fileURLToPath(new URL('../fixtures.json', import.meta.url));
const ACME_ACCOUNT = '0000001013';
const SHOP_ACCOUNT = '0000002027';
const SANDBOX_BANK = '999240';

describe('payouts', () => {
  let bank;
  let payouts;
  // A start loads the whole bank: give it longer than Vitest's default 10 s for a hook.
  beforeAll(async () => {
    bank = await startSandbox({ fixtures: FIXTURES, logLevel: 'silent' });
    const acme = bank.client('Acme Payouts');
    payouts = createPayouts({
      baseUrl: bank.url,
      oauthClientId: acme.oauthClientId,
      ibsClientId: acme.ibsClientId,
      clientAssertion: () => acme.assertion(),
      debitAccountNumber: ACME_ACCOUNT,
    });
  }, 60_000);
  beforeEach(() => bank.reset());
  afterAll(() => bank?.close());

  const balance = async (accountNumber) => (await bank.account(accountNumber)).accountBalance;
  const payShop = (amount, reference) =>
    payouts.pay({ accountNumber: SHOP_ACCOUNT, bankCode: SANDBOX_BANK, amount, reference });

  test('pays the supplier, and the transfer webhook tells Acme', async () => {
    expect(await balance(ACME_ACCOUNT)).toBe(500000);
    const paid = await payShop(2500, 'PAYOUT-1');
    expect(paid.status).toBe('Completed');
    expect(await balance(ACME_ACCOUNT)).toBe(497500);
    expect(await balance(SHOP_ACCOUNT)).toBe(2500);
    const webhook = await bank.webhooks.waitFor(
      'transfer',
      (_record, payload) => payload.data.sessionId === paid.sessionId,
    );
    expect(JSON.parse(webhook.requestBody).data.amount).toBe(2500);
  });

  test('refuses a payout larger than the balance, and nothing moves', async () => {
    const refused = await payShop(600000, 'PAYOUT-2').catch((error) => error);
    expect(refused).toBeInstanceOf(PayoutRefused);
    expect(refused.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balance(ACME_ACCOUNT)).toBe(500000);
    expect(await balance(SHOP_ACCOUNT)).toBe(0);
  });

  test('pays it once money has arrived from another bank', async () => {
    await bank.credit({ accountNumber: ACME_ACCOUNT, amount: 150000, narration: 'Top-up' });
    const toppedUp = await balance(ACME_ACCOUNT); // the credit less the bank's charges on it
    expect(toppedUp).toBeGreaterThan(600000);
    await payShop(600000, 'PAYOUT-3');
    expect(await balance(ACME_ACCOUNT)).toBe(toppedUp - 600000);
    expect(await balance(SHOP_ACCOUNT)).toBe(600000);
  });
});
