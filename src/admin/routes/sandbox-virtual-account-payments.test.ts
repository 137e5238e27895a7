import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  accountBalance,
  adminHeaders,
  createVirtualAccount,
  payVirtualAccount,
} from '../../../test/factories.ts';
import { buildTestApp } from '../../../test/harness.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('POST /admin/sandbox/virtual-account-payments', () => {
  const context = useRouteContext();
  const balance = () => {
    const { testApp, headers, ownAccountNumber } = context();
    return accountBalance(testApp.app, headers, ownAccountNumber);
  };
  const open = (extra: Record<string, unknown> = {}) => {
    const { testApp, headers, ownAccountNumber } = context();
    return createVirtualAccount(testApp.app, headers, ownAccountNumber, extra);
  };
  const pay = (accountNumber: string, amount: number, extra: Record<string, unknown> = {}) =>
    payVirtualAccount(context().testApp.app, accountNumber, amount, extra);

  describe('201: the payment arrives and settles', () => {
    it('answers the payment and credits the settlement account', async () => {
      const account = await open({ amount: 2500 });
      const before = await balance();
      const response = await pay(account.accountNumber, 2500, {
        payerName: 'JANE DOE',
        narration: 'Order 42',
      });
      assert.equal(response.statusCode, 201, response.body);
      const { data, message } = response.json();
      assert.equal(message, 'Virtual account payment received successfully.');
      assert.equal(data.amount, 2500);
      assert.match(JSON.stringify(data), new RegExp(account.accountNumber));
      assert.match(JSON.stringify(data), /JANE DOE/);
      const after = await balance();
      assert.ok(after !== undefined && before !== undefined);
      assert.ok(after > before, `${before} -> ${after}`);
      assert.ok(after <= before + 2500, `${before} -> ${after}`);
    });

    it('duplicateSession: the network delivers twice, the account is credited once', async () => {
      const account = await open({ amount: 1000 });
      const single = await open({ amount: 1000 });
      const before = await balance();
      assert.equal((await pay(single.accountNumber, 1000)).statusCode, 201);
      const once = (await balance()) ?? 0;
      const response = await pay(account.accountNumber, 1000, { scenario: 'duplicateSession' });
      assert.equal(response.statusCode, 201, response.body);
      assert.equal(await balance(), Number((once + (once - (before ?? 0))).toFixed(2)));
    });
  });

  describe('400: refused payments move no money', () => {
    it('a wrong amount on a Fixed account: VIRTUAL_ACCOUNT_AMOUNT_REFUSED', async () => {
      const account = await open({ amount: 2500 });
      const before = await balance();
      const response = await pay(account.accountNumber, 2400);
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'VIRTUAL_ACCOUNT_AMOUNT_REFUSED');
      assert.equal(await balance(), before);
    });

    it('afterExpiry: VIRTUAL_ACCOUNT_CLOSED', async () => {
      const account = await open({ amount: 2500 });
      const before = await balance();
      const response = await pay(account.accountNumber, 2500, { scenario: 'afterExpiry' });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'VIRTUAL_ACCOUNT_CLOSED');
      assert.equal(await balance(), before);
    });

    const invalid: [string, string, number, Record<string, unknown>][] = [
      ['a malformed account number', '12345', 10, {}],
      ['an unknown account', '9999999999', 10, {}],
      ['a negative amount', '', -5, {}],
      ['three decimals', '', 10.005, {}],
      ['an unknown scenario', '', 2500, { scenario: 'sometime' }],
    ];
    for (const [label, number, amount, extra] of invalid) {
      it(`refuses ${label}`, async () => {
        const accountNumber = number === '' ? (await open({ amount: 2500 })).accountNumber : number;
        const before = await balance();
        const response = await pay(accountNumber, amount, extra);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(await balance(), before);
      });
    }
  });

  describe('403: sandbox only', () => {
    it('is refused outside sandbox', async () => {
      const production = await buildTestApp({
        IBS_ENV: 'production',
        DATABASE_URL: 'postgres://unused.invalid/db',
        ADMIN_TOKEN: 'test-admin-token-0123456789abcdefghijklmnop',
        TOKEN_SIGNING_SECRET: 'test-signing-secret-0123456789abcdefghijklmnop',
        OPERATOR_SECRETS_KEY: 'c'.repeat(64),
        PUBLIC_BASE_URL: 'https://bank.example',
        INSTITUTION_CODE: '090286',
      });
      try {
        const response = await production.app.inject({
          method: 'POST',
          url: '/admin/sandbox/virtual-account-payments',
          headers: adminHeaders,
          payload: { accountNumber: '1234567890', amount: 10 },
        });
        assert.equal(response.statusCode, 403, response.body);
        assert.equal(response.json().code, 'SANDBOX_ONLY');
      } finally {
        await production.close();
      }
    });
  });

  describeAdminAuthGuards(context, () => ({
    method: 'POST',
    url: '/admin/sandbox/virtual-account-payments',
    payload: { accountNumber: '9999999999', amount: 10 },
  }));
});
