// Compatibility: the published third-party Node SDK for the IBS API (@specialman/safehaven),
// pointed at OpenIBS over real HTTP, must work unchanged for the Accounts API.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createClient, sandboxCredit, signAssertion, type TestClient } from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';
import {
  Account,
  AppError,
  Auth,
  base,
  type SdkAccountService,
  type SdkAuth,
  sdkError,
  type WirePage,
} from './safehaven-sdk.ts';

// The SDK is CommonJS without types; these describe only what the test touches.
interface WireAccount {
  _id: string;
  client: string;
  accountNumber: string;
  accountName: string;
  accountType: string;
  currencyCode: string;
  accountBalance: number;
  bookBalance: number;
  lockedBalance: number;
  status: string;
  isSubAccount: boolean;
  metadata: Record<string, unknown>;
  notificationSettings: Record<string, boolean>;
}

interface WireStatementRow {
  entryNumber: number;
  type: 'Credit' | 'Debit';
  amount: number;
  balanceAfter: number;
  narration: string;
}

describe('@specialman/safehaven SDK against OpenIBS', () => {
  let testApp: TestApp;
  let baseUrl: string;
  let client: TestClient;
  let auth: SdkAuth;
  let accounts: SdkAccountService;

  before(async () => {
    testApp = await buildTestApp();
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = testApp.app.server.address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}`;
    client = await createClient(testApp.app, 'Sdk Fintech Ltd');
  });

  after(async () => {
    auth?.cleanup();
    await testApp?.close();
  });

  test('token exchange: form-encoded client assertion, the SDK keeps token and ClientID', async () => {
    auth = new Auth({
      client_id: client.oauthClientId,
      // The server checks exp against the test clock (2026-03-02), so sign on that clock.
      client_assertion: await signAssertion(client, { now: testApp.clock.now() }),
      env: 'sandbox',
    });
    assert.equal(auth.base_url, 'https://api.sandbox.safehavenmfb.com');
    auth.base_url = baseUrl;
    await auth.authenticate();
    assert.equal(typeof auth.access_token, 'string');
    assert.ok((auth.access_token ?? '').length > 20);
    assert.equal(auth.ibs_client_id, client.ibsClientId);
    // expires_in was a number of seconds: the SDK computed a finite expiry from it.
    assert.ok(Number.isFinite(auth.token_expiry) && (auth.token_expiry ?? 0) > Date.now());
    accounts = new Account(base(auth));
  });

  test('a bad assertion makes authenticate() reject with the SDK error', async () => {
    const stranger = new Auth({
      client_id: client.oauthClientId,
      client_assertion: 'not.a.jwt',
      env: 'sandbox',
    });
    stranger.base_url = baseUrl;
    stranger.MAX_RETRIES = 0;
    try {
      await assert.rejects(stranger.authenticate(), (error: unknown) => {
        assert.ok(error instanceof AppError);
        assert.equal(error.statusCode, 401);
        // The token endpoint's error is the OAuth error code, which the SDK keeps.
        assert.equal(error.error, 'invalid_client');
        return true;
      });
      assert.equal(stranger.access_token, null);
    } finally {
      stranger.cleanup();
    }
  });

  test('Account.accounts lists main accounts with pagination', async () => {
    const result = await accounts.accounts({ isSubAccount: false, page: 0, limit: 10 });
    assert.equal(result.statusCode, 200);
    assert.equal(typeof result.message, 'string');
    // For a list the SDK returns everything but statusCode and message under `data`.
    const page = result.data as WirePage<WireAccount>;
    assert.ok(Array.isArray(page.data));
    assert.equal(page.data.length, 1);
    const main = page.data[0] as WireAccount;
    assert.equal(main._id, client.mainAccountId);
    assert.equal(main.accountNumber, client.mainAccountNumber);
    assert.equal(main.client, client.ibsClientId);
    assert.equal(main.accountBalance, 0);
    assert.equal(main.isSubAccount, false);
    assert.deepEqual(page.pagination, { total: 1, pages: 1, page: '0', limit: '10' });
  });

  test('Account.account fetches one account', async () => {
    const result = await accounts.account(client.mainAccountId);
    assert.equal(result.statusCode, 200);
    assert.equal(typeof result.message, 'string');
    const account = result.data as WireAccount;
    assert.equal(account._id, client.mainAccountId);
    assert.equal(account.accountNumber, client.mainAccountNumber);
    assert.match(account.accountNumber, /^\d{10}$/);
    assert.equal(account.accountBalance, 0);
    assert.equal(account.bookBalance, 0);
    assert.equal(account.lockedBalance, 0);
    assert.equal(account.currencyCode, 'NGN');
    assert.equal(account.status, 'Active');
  });

  test('Account.account with a malformed id rejects with 400 "Unable to locate record"', async () => {
    await assert.rejects(accounts.account('not-an-id'), sdkError(400, 'Unable to locate record'));
  });

  test('Account.account with an unknown well-formed id rejects the same way', async () => {
    await assert.rejects(
      accounts.account('0123456789abcdef01234567'),
      sdkError(400, 'Unable to locate record'),
    );
  });

  let savings: WireAccount;

  test('Account.create opens a Savings account with suffix and metadata', async () => {
    const metadata = { customerRef: 'cust-42', tier: 2, tags: ['sdk', 'compat'] };
    const result = await accounts.create({
      accountType: 'Savings',
      suffix: 'Wallet 12345',
      metadata,
    });
    assert.equal(result.statusCode, 200);
    assert.equal(typeof result.message, 'string');
    savings = result.data as WireAccount;
    assert.match(savings._id, /^[0-9a-f]{24}$/);
    assert.notEqual(savings._id, client.mainAccountId);
    assert.match(savings.accountNumber, /^\d{10}$/);
    assert.equal(savings.accountType, 'Savings');
    assert.equal(savings.accountName, 'SDK FINTECH LTD / Wallet 12345');
    assert.equal(savings.accountBalance, 0);
    assert.equal(savings.isSubAccount, false);
    assert.deepEqual(savings.metadata, metadata);

    const listed = await accounts.accounts({ isSubAccount: false, page: 0, limit: 10 });
    const page = listed.data as WirePage<WireAccount>;
    assert.equal(page.pagination.total, 2);
    assert.deepEqual(
      page.data.map((account) => account._id).sort(),
      [client.mainAccountId, savings._id].sort(),
    );
  });

  test('Account.update changes notification settings; account_id and other body fields are ignored', async () => {
    const result = await accounts.update({
      account_id: savings._id,
      notificationSettings: { smsNotification: true, emailMonthlyStatement: false },
      // Protected fields a client might send back: they must not change anything.
      accountBalance: 1_000_000,
      status: 'Frozen',
    });
    assert.equal(result.statusCode, 200);
    const updated = result.data as WireAccount;
    assert.equal(updated._id, savings._id);
    assert.deepEqual(updated.notificationSettings, {
      ...savings.notificationSettings,
      smsNotification: true,
      emailMonthlyStatement: false,
    });
    assert.equal(updated.accountBalance, 0);
    assert.equal(updated.status, 'Active');

    const fetched = (await accounts.account(savings._id)).data as WireAccount;
    assert.deepEqual(fetched.notificationSettings, updated.notificationSettings);
  });

  test('Account.update of an unknown account rejects with 400 "Unable to locate record"', async () => {
    await assert.rejects(
      accounts.update({ account_id: 'not-an-id', notificationSettings: { smsNotification: true } }),
      sdkError(400, 'Unable to locate record'),
    );
  });

  test('Account.statement pages the entries of a sandbox credit', async () => {
    await sandboxCredit(testApp.app, client.mainAccountNumber, 15_000);
    const result = await accounts.statement({
      account_id: client.mainAccountId,
      page: 0,
      limit: 10,
    });
    assert.equal(result.statusCode, 200);
    assert.equal(typeof result.message, 'string');
    const page = result.data as WirePage<WireStatementRow>;
    assert.ok(Array.isArray(page.data));
    // ₦15,000 in, then ₦50 stamp duty out (inbound credits of ₦10,000 or more); newest first.
    assert.deepEqual(
      page.data.map(({ entryNumber, type, amount, balanceAfter }) => ({
        entryNumber,
        type,
        amount,
        balanceAfter,
      })),
      [
        { entryNumber: 2, type: 'Debit', amount: 50, balanceAfter: 14_950 },
        { entryNumber: 1, type: 'Credit', amount: 15_000, balanceAfter: 15_000 },
      ],
    );
    assert.ok(page.data.every((row) => typeof row.narration === 'string'));
    assert.equal(page.pagination.total, page.data.length);
    assert.equal(page.pagination.page, '0');
    assert.equal(page.pagination.limit, '10');

    const account = (await accounts.account(client.mainAccountId)).data as WireAccount;
    assert.equal(account.accountBalance, 14_950);
  });

  test('Account.statement of an unknown account rejects with 400 "Unable to locate record"', async () => {
    await assert.rejects(
      accounts.statement({ account_id: '0123456789abcdef01234567', page: 0, limit: 10 }),
      sdkError(400, 'Unable to locate record'),
    );
  });
});
