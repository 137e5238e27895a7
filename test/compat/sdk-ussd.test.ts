// Compatibility: what the published PHP SDK's UssdPaymentService sends (amount as a string),
// through the published Node SDK's request function (@specialman/safehaven), pointed at OpenIBS
// over real HTTP, must work unchanged for the USSD payments API.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createClient, dialUssd, signAssertion, type TestClient } from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';
import {
  Account,
  AppError,
  Auth,
  base,
  type SdkAccountService,
  type SdkAuth,
  type SdkRequest,
  UssdPayment,
} from './safehaven-sdk.ts';

// The SDK is CommonJS without types; these describe only what the test touches.
interface WireUssdBank {
  bankName: string;
  ussdBankCode: string;
  ussdCode: string;
  bankCode: string;
}

interface WireUssdReference {
  _id: string;
  reference: string;
  ussdString: string;
  ussdBankCode: string;
  bankName: string;
  merchantName: string;
  amount: number;
  currencyCode: string;
  status: 'Pending' | 'Paid' | 'Expired';
  expiresAt: string;
  callbackUrl: string;
  settlementAccount: { bankCode: string; accountNumber: string };
  payment: {
    sessionId: string;
    amount: number;
    fees: number;
    vat: number;
    stampDuty: number;
    ussdBankCode: string;
    bankName: string;
    transferId: string;
  } | null;
}

interface WireAccount {
  _id: string;
  accountBalance: number;
}

const OUR_BANK = '999240';
const CALLBACK_URL = 'https://webhook.site/91558cc6-f879-45e8-af65-3a03a6d0cb86';

describe('USSD payments as the published SDKs call them, against OpenIBS', () => {
  let testApp: TestApp;
  let client: TestClient;
  let auth: SdkAuth;
  let request: SdkRequest;
  let ussd: UssdPayment;
  let accounts: SdkAccountService;

  before(async () => {
    testApp = await buildTestApp();
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = testApp.app.server.address() as AddressInfo;
    client = await createClient(testApp.app, 'Sdk Ussd Ltd');
    auth = new Auth({
      client_id: client.oauthClientId,
      // The server checks exp against the test clock (2026-03-02), so sign on that clock.
      client_assertion: await signAssertion(client, { now: testApp.clock.now() }),
      env: 'sandbox',
    });
    auth.base_url = `http://127.0.0.1:${port}`;
    await auth.authenticate();
    request = base(auth);
    ussd = new UssdPayment(request);
    accounts = new Account(request);
  });

  after(async () => {
    auth?.cleanup();
    await testApp?.close();
  });

  const settlementAccount = () => ({ bankCode: OUR_BANK, accountNumber: client.mainAccountNumber });

  test('UssdPaymentService.getBanks: 200, "Banks fetched Successfully", a bankName on every bank', async () => {
    const result = await ussd.getBanks();
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Banks fetched Successfully');
    // For an array the SDK returns everything but statusCode and message under `data`.
    const { data: banks } = result.data as { data: WireUssdBank[] };
    assert.ok(Array.isArray(banks) && banks.length > 0, JSON.stringify(result.data));
    for (const bank of banks) {
      assert.equal(typeof bank.bankName, 'string', JSON.stringify(bank));
      assert.ok(bank.bankName.trim().length > 0, JSON.stringify(bank));
      assert.match(bank.ussdBankCode, /^\d{3,4}$/);
      assert.equal(bank.ussdCode, `*${bank.ussdBankCode}#`);
    }
    assert.ok(banks.some((bank) => bank.ussdBankCode === '737'));
  });

  let created: WireUssdReference;

  test('UssdPaymentService.createReference with the amount as a string ("1500.00")', async () => {
    const result = await ussd.createReference(
      '1500.00',
      'Acme Stores',
      '737',
      CALLBACK_URL,
      settlementAccount(),
    );
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'USSD reference created successfully.');
    created = result.data as WireUssdReference;
    assert.match(created.reference, /^\d{10}$/);
    assert.equal(typeof created.ussdString, 'string');
    assert.ok(created.ussdString.endsWith('#'), created.ussdString);
    assert.equal(created.ussdString, `*737*000*${created.reference}#`);
    assert.equal(created.amount, 1500);
    assert.equal(created.merchantName, 'Acme Stores');
    assert.equal(created.bankName, 'Guaranty Trust Bank');
    assert.equal(created.callbackUrl, CALLBACK_URL);
    assert.deepEqual(created.settlementAccount, settlementAccount());
    assert.equal(created.status, 'Pending');
    assert.equal(created.payment, null);
  });

  test('PHP casts a number amount to a string: (string) 2500.5 is "2500.5", taken as ₦2,500.50', async () => {
    const result = await ussd.createReference(
      2500.5,
      'Acme Stores',
      '*901#',
      CALLBACK_URL,
      settlementAccount(),
    );
    const reference = result.data as WireUssdReference;
    assert.equal(reference.amount, 2500.5);
    assert.equal(reference.ussdBankCode, '901');
    assert.match(reference.ussdString, /^\*901\*000\*\d{10}#$/);
  });

  test('a bank not in the list rejects with the SDK error, 400, naming ussdBankCode', async () => {
    await assert.rejects(
      ussd.createReference('1500.00', 'Acme Stores', '000', CALLBACK_URL, settlementAccount()),
      (error: unknown) => {
        assert.ok(error instanceof AppError, `expected the SDK's AppError, got ${String(error)}`);
        assert.equal(error.statusCode, 400);
        assert.match(error.message, /ussdBankCode/);
        return true;
      },
    );
  });

  test('after a sandbox dial, GET /ussd-payment/:reference through the SDK shows it Paid', async () => {
    const before = ((await accounts.account(client.mainAccountId)).data as WireAccount)
      .accountBalance;
    const dialled = await dialUssd(testApp.app, created.reference, { ussdBankCode: '966' });
    assert.equal(dialled.statusCode, 200, dialled.body);
    assert.equal(dialled.json().data.outcome, 'paid', dialled.body);

    const result = await request(`/ussd-payment/${created.reference}`, { method: 'GET' });
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'USSD reference fetched successfully.');
    const paid = result.data as WireUssdReference;
    assert.equal(paid.status, 'Paid');
    assert.equal(paid.reference, created.reference);
    assert.equal(paid.payment?.sessionId, dialled.json().data.sessionId);
    assert.equal(paid.payment?.amount, 1500);
    assert.equal(paid.payment?.ussdBankCode, '966');
    assert.equal(paid.payment?.bankName, 'Zenith Bank');
    // ₦1,500 less the 0.5% fee (₦7.50) and 7.5% VAT on it (₦0.56).
    assert.deepEqual(
      [paid.payment?.fees, paid.payment?.vat, paid.payment?.stampDuty],
      [7.5, 0.56, 0],
    );
    const after = ((await accounts.account(client.mainAccountId)).data as WireAccount)
      .accountBalance;
    assert.equal(Math.round((after - before) * 100), 149_194);

    // Dialled again: paid already, refused; the gateway returns the money and nothing moves.
    const again = await dialUssd(testApp.app, created.reference, { ussdBankCode: '737' });
    assert.equal(again.json().data.outcome, 'reversed', again.body);
    assert.equal(again.json().data.code, 'USSD_REFERENCE_CLOSED');
    const still = (await request(`/ussd-payment/${created.reference}`, { method: 'GET' }))
      .data as WireUssdReference;
    assert.equal(still.payment?.sessionId, paid.payment?.sessionId);
  });
});
