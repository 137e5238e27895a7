// Compatibility: the published third-party Node SDK for the IBS API (@specialman/safehaven),
// pointed at OpenIBS over real HTTP, must work unchanged for the Virtual Accounts API.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createClient, payVirtualAccount, signAssertion, type TestClient } from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';
import {
  Account,
  AppError,
  Auth,
  base,
  type SdkAccountService,
  type SdkAuth,
  type SdkVirtualAccountService,
  sdkError,
  VirtualAccount,
} from './safehaven-sdk.ts';

// The SDK is CommonJS without types; these describe only what the test touches.
interface WireVirtualAccount {
  _id: string;
  client: string;
  accountNumber: string;
  accountName: string;
  bankCode: string;
  bank: { name: string; nipCode: string };
  currencyCode: string;
  validFor: number;
  amountControl: 'Fixed' | 'UnderPayment' | 'OverPayment';
  amount: number;
  amountPaid: number;
  expiryDate: string;
  callbackUrl: string | null;
  settlementAccount: { bankCode: string; accountNumber: string };
  externalReference: string | null;
  status: 'Active' | 'Paid' | 'Expired' | 'Deleted';
  isDeleted: boolean;
  createdAt: string;
}

interface WireVirtualAccountTransfer {
  _id: string;
  client: string;
  virtualAccount: string;
  sessionId: string;
  paymentReference: string;
  creditAccountNumber: string;
  creditAccountName: string;
  amount: number;
  fees: number;
  vat: number;
  stampDuty: number;
  responseCode: string | null;
  status: string;
  externalReference: string | null;
}

interface WireAccount {
  _id: string;
  accountBalance: number;
}

const OUR_BANK = '999240';
const OBJECT_ID = /^[0-9a-f]{24}$/;
const CALLBACK_URL = 'https://webhook.site/91558cc6-f879-45e8-af65-3a03a6d0cb86';
const NEW_CALLBACK_URL = 'https://webhook.site/91558cc6-f879-45e8-af65-3a03a6d0cb87';

describe('@specialman/safehaven SDK virtual accounts against OpenIBS', () => {
  let testApp: TestApp;
  let baseUrl: string;
  let client: TestClient;
  let auth: SdkAuth;
  let virtualAccounts: SdkVirtualAccountService;
  let accounts: SdkAccountService;
  let reference = 0;

  /** The body of the SDK's documented example, settling to the client's main account. */
  function createBody(extra: Record<string, unknown> = {}) {
    return {
      validFor: 600,
      callbackUrl: CALLBACK_URL,
      settlementAccount: { bankCode: OUR_BANK, accountNumber: client.mainAccountNumber },
      amountControl: 'UnderPayment',
      amount: 100,
      externalReference: `TXN_REF ${Date.now()}-${++reference}`,
      ...extra,
    };
  }

  before(async () => {
    testApp = await buildTestApp();
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = testApp.app.server.address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}`;
    client = await createClient(testApp.app, 'Sdk Collections Ltd');
    auth = new Auth({
      client_id: client.oauthClientId,
      // The server checks exp against the test clock (2026-03-02), so sign on that clock.
      client_assertion: await signAssertion(client, { now: testApp.clock.now() }),
      env: 'sandbox',
    });
    auth.base_url = baseUrl;
    await auth.authenticate();
    const request = base(auth);
    virtualAccounts = new VirtualAccount(request);
    accounts = new Account(request);
  });

  after(async () => {
    auth?.cleanup();
    await testApp?.close();
  });

  let created: WireVirtualAccount;
  let body: ReturnType<typeof createBody>;

  test('VirtualAccount.create opens a virtual account with the documented body', async () => {
    body = createBody();
    const result = await virtualAccounts.create(body);
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Virtual account created successfully.');
    created = result.data as WireVirtualAccount;
    assert.match(created._id, OBJECT_ID);
    assert.match(created.accountNumber, /^\d{10}$/);
    assert.notEqual(created.accountNumber, client.mainAccountNumber);
    // Named after the client, in capitals like every account of the client.
    assert.equal(created.accountName, 'SDK COLLECTIONS LTD');
    assert.equal(created.client, client.ibsClientId);
    assert.equal(created.validFor, 600);
    assert.equal(created.amountControl, 'UnderPayment');
    assert.equal(created.amount, 100);
    assert.equal(created.amountPaid, 0);
    assert.equal(created.callbackUrl, CALLBACK_URL);
    assert.deepEqual(created.settlementAccount, {
      bankCode: OUR_BANK,
      accountNumber: client.mainAccountNumber,
    });
    assert.equal(created.externalReference, body.externalReference);
    assert.equal(created.status, 'Active');
    assert.equal(created.isDeleted, false);
    assert.equal(Date.parse(created.expiryDate) - Date.parse(created.createdAt), 600_000);
  });

  test('VirtualAccount.create with a settlement account at another bank rejects with 400', async () => {
    await assert.rejects(
      virtualAccounts.create(
        createBody({
          settlementAccount: { bankCode: '090286', accountNumber: client.mainAccountNumber },
        }),
      ),
      (error: unknown) => {
        assert.ok(error instanceof AppError, `expected the SDK's AppError, got ${String(error)}`);
        assert.equal(error.statusCode, 400);
        assert.match(error.message, /999240/);
        return true;
      },
    );
  });

  test('VirtualAccount.account reads it back, with the bank as bank.nipCode', async () => {
    const result = await virtualAccounts.account(created._id);
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Virtual account fetched successfully.');
    const fetched = result.data as WireVirtualAccount;
    assert.deepEqual(fetched, created);
    assert.equal(fetched.bank.nipCode, OUR_BANK);
    assert.equal(fetched.bankCode, OUR_BANK);
  });

  let payment: WireVirtualAccountTransfer;

  test('VirtualAccount.transaction lists no payment before one arrives', async () => {
    const result = await virtualAccounts.transaction({ virtualAccountId: created._id });
    assert.equal(result.statusCode, 200);
    // For an array the SDK returns everything but statusCode and message under `data`.
    assert.deepEqual(result.data, { data: [] });
  });

  test('a payment from another bank settles, and VirtualAccount.transaferStatus finds it', async () => {
    const paid = await payVirtualAccount(testApp.app, created.accountNumber, 100);
    assert.equal(paid.statusCode, 201, paid.body);
    payment = paid.json().data as WireVirtualAccountTransfer;

    const result = await virtualAccounts.transaferStatus({ sessionId: payment.sessionId });
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Virtual account transfer fetched successfully.');
    const status = result.data as WireVirtualAccountTransfer;
    assert.equal(status.status, 'Completed');
    assert.equal(status.externalReference, body.externalReference);
    assert.equal(status.paymentReference, payment.sessionId);
    assert.equal(status.sessionId, payment.sessionId);
    assert.equal(status.virtualAccount, created._id);
    assert.equal(status.client, client.ibsClientId);
    assert.equal(status.creditAccountNumber, created.accountNumber);
    assert.equal(status.amount, 100);
    assert.equal(status.responseCode, '00');
    assert.deepEqual(status, payment);

    const settlement = (await accounts.account(client.mainAccountId)).data as WireAccount;
    assert.equal(settlement.accountBalance, 100 - payment.fees - payment.vat - payment.stampDuty);
    const after = (await virtualAccounts.account(created._id)).data as WireVirtualAccount;
    assert.equal(after.status, 'Paid');
    assert.equal(after.amountPaid, 100);
  });

  test('VirtualAccount.transaferStatus of an unknown session rejects with 400', async () => {
    await assert.rejects(
      virtualAccounts.transaferStatus({ sessionId: '999140261122022127924499186164' }),
      sdkError(400, 'Unable to locate record'),
    );
  });

  test('VirtualAccount.transaction lists the one payment', async () => {
    const result = await virtualAccounts.transaction({ virtualAccountId: created._id });
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Virtual account transactions fetched successfully.');
    const { data } = result.data as { data: WireVirtualAccountTransfer[] };
    assert.equal(data.length, 1);
    assert.deepEqual(data[0], payment);
  });

  test('VirtualAccount.update changes callbackUrl; the account_id in the body is ignored', async () => {
    const result = await virtualAccounts.update({
      account_id: created._id,
      callbackUrl: NEW_CALLBACK_URL,
    });
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Virtual account updated successfully.');
    const updated = result.data as WireVirtualAccount;
    assert.equal(updated._id, created._id);
    assert.equal(updated.callbackUrl, NEW_CALLBACK_URL);
    const fetched = (await virtualAccounts.account(created._id)).data as WireVirtualAccount;
    assert.equal(fetched.callbackUrl, NEW_CALLBACK_URL);
  });

  test('VirtualAccount.delete deletes it; then VirtualAccount.account rejects with 400', async () => {
    const result = await virtualAccounts.delete(created._id);
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Virtual account deleted successfully.');
    assert.equal((result.data as WireVirtualAccount)._id, created._id);
    await assert.rejects(
      virtualAccounts.account(created._id),
      sdkError(400, 'Unable to locate record'),
    );
  });
});
