// Compatibility: the published third-party Node SDK for the IBS API (@specialman/safehaven),
// pointed at OpenIBS over real HTTP, must work unchanged for the Transfers and Beneficiaries API.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createClient, sandboxCredit, signAssertion, type TestClient } from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';
import {
  Account,
  Auth,
  base,
  type SdkAccountService,
  type SdkAuth,
  type SdkTransferService,
  sdkError,
  Transfer,
  type WirePage,
} from './safehaven-sdk.ts';

// The SDK is CommonJS without types; these describe only what the test touches.
interface WireAccount {
  _id: string;
  accountNumber: string;
  accountBalance: number;
  bookBalance: number;
  lockedBalance: number;
}

interface WireBank {
  name: string;
  bankCode: string;
  routingKey: string;
}

interface WireNameEnquiry {
  sessionId: string;
  bankCode: string;
  bankName: string;
  accountNumber: string;
  accountName: string;
  kycLevel: string;
  responseCode: string;
  responseMessage: string;
}

interface WireTransfer {
  _id: string;
  client: string;
  account: string;
  type: 'Inwards' | 'Outwards';
  sessionId: string;
  nameEnquiryReference: string | null;
  paymentReference: string;
  isReversed: boolean;
  provider: string;
  providerChannel: string;
  providerChannelCode: string;
  destinationInstitutionCode: string;
  creditAccountName: string;
  creditAccountNumber: string;
  debitAccountName: string;
  debitAccountNumber: string;
  narration: string;
  amount: number;
  fees: number;
  vat: number;
  stampDuty: number;
  responseCode: string | null;
  responseMessage: string | null;
  status: 'Created' | 'Processing' | 'Completed' | 'Failed' | 'Reversed';
  approvedAt?: string;
  declinedAt?: string;
}

interface WireBeneficiary {
  _id: string;
  client: string;
  bankCode: string;
  bankName: string;
  accountNumber: string;
  accountName: string;
}

const OUR_BANK = '999240';
// The sandbox NIP simulator resolves any 10-digit account at another bank (docs/sandbox-nip.md):
// 0123456789 is YUSUF ABUBAKAR, KYC level (9 mod 3) + 1 = 1.
const OTHER_BANK = '000013';
const OTHER_ACCOUNT = '0123456789';
const OTHER_NAME = 'YUSUF ABUBAKAR';
const SESSION_ID = /^999240\d{24}$/;
const OBJECT_ID = /^[0-9a-f]{24}$/;

describe('@specialman/safehaven SDK transfers against OpenIBS', () => {
  let testApp: TestApp;
  let baseUrl: string;
  let payer: TestClient;
  let payee: TestClient;
  const auths: SdkAuth[] = [];
  let transfers: SdkTransferService;
  let accounts: SdkAccountService;
  let payeeTransfers: SdkTransferService;
  let payeeAccounts: SdkAccountService;

  /** An SDK session for one client, authenticated against this server as the SDK does it. */
  async function sdkFor(client: TestClient) {
    const auth = new Auth({
      client_id: client.oauthClientId,
      // The server checks exp against the test clock (2026-03-02), so sign on that clock.
      client_assertion: await signAssertion(client, { now: testApp.clock.now() }),
      env: 'sandbox',
    });
    auths.push(auth);
    auth.base_url = baseUrl;
    await auth.authenticate();
    const request = base(auth);
    return { transfers: new Transfer(request), accounts: new Account(request) };
  }

  async function balanceOf(service: SdkAccountService, accountId: string) {
    return (await service.account(accountId)).data as WireAccount;
  }

  async function enquire(bankCode: string, accountNumber: string) {
    const result = await transfers.nameEnquiry({ bankCode, accountNumber });
    return result.data as WireNameEnquiry;
  }

  /** A NIP transfer to OTHER_ACCOUNT; the kobo part of `amount` picks the simulator's outcome. */
  async function nipTransfer(amount: number, extra: Record<string, unknown> = {}) {
    // History is newest first by creation time: a second apart, transfers have a fixed order.
    testApp.clock.advanceSeconds(1);
    const { sessionId } = await enquire(OTHER_BANK, OTHER_ACCOUNT);
    const result = await transfers.create({
      nameEnquiryReference: sessionId,
      debitAccountNumber: payer.mainAccountNumber,
      beneficiaryBankCode: OTHER_BANK,
      beneficiaryAccountNumber: OTHER_ACCOUNT,
      amount,
      saveBeneficiary: false,
      ...extra,
    });
    assert.equal(result.statusCode, 200);
    return { enquiry: sessionId, sent: result.data as WireTransfer };
  }

  before(async () => {
    testApp = await buildTestApp();
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = testApp.app.server.address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}`;
    payer = await createClient(testApp.app, 'Sdk Payer Ltd');
    payee = await createClient(testApp.app, 'Sdk Payee Ltd');
    // Under ₦10,000, so no stamp duty: the payer starts with exactly ₦5,000.
    await sandboxCredit(testApp.app, payer.mainAccountNumber, 5_000);
    ({ transfers, accounts } = await sdkFor(payer));
    ({ transfers: payeeTransfers, accounts: payeeAccounts } = await sdkFor(payee));
  });

  after(async () => {
    for (const auth of auths) {
      auth.cleanup();
    }
    await testApp?.close();
  });

  test('Transfer.banks lists every institution, ours included, in one unpaginated envelope', async () => {
    const result = await transfers.banks();
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Banks fetched successfully.');
    // An array `data` makes the SDK hand back the rest of the body under `data`: only `data`
    // here, since the bank list has no pagination.
    const body = result.data as { data: WireBank[] };
    assert.deepEqual(Object.keys(body), ['data']);
    assert.ok(body.data.length > 50, `only ${body.data.length} banks`);
    const byCode = new Map(body.data.map((bank) => [bank.bankCode, bank]));
    assert.equal(byCode.size, body.data.length);
    assert.equal(byCode.get(OUR_BANK)?.name, 'Safe Haven Sandbox Bank');
    assert.equal(byCode.get(OTHER_BANK)?.name, 'Guaranty Trust Bank');
    assert.equal(byCode.get(OTHER_BANK)?.routingKey, OTHER_BANK);
  });

  test('Transfer.nameEnquiry resolves an OpenIBS account with a 30-digit session id', async () => {
    const result = await transfers.nameEnquiry({
      bankCode: OUR_BANK,
      accountNumber: payee.mainAccountNumber,
    });
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Account name retrieved successfully.');
    const enquiry = result.data as WireNameEnquiry;
    assert.match(enquiry.sessionId, SESSION_ID);
    assert.equal(enquiry.accountName, 'SDK PAYEE LTD');
    assert.equal(enquiry.accountNumber, payee.mainAccountNumber);
    assert.equal(enquiry.bankCode, OUR_BANK);
    assert.equal(enquiry.bankName, 'Safe Haven Sandbox Bank');
    assert.equal(enquiry.responseCode, '00');
  });

  test('Transfer.nameEnquiry resolves an account at another bank through the NIP rail', async () => {
    const enquiry = await enquire(OTHER_BANK, OTHER_ACCOUNT);
    assert.match(enquiry.sessionId, SESSION_ID);
    assert.equal(enquiry.accountName, OTHER_NAME);
    assert.equal(enquiry.accountNumber, OTHER_ACCOUNT);
    assert.equal(enquiry.bankCode, OTHER_BANK);
    assert.equal(enquiry.bankName, 'Guaranty Trust Bank');
    assert.equal(enquiry.kycLevel, '1');
    assert.equal(enquiry.responseCode, '00');
  });

  test('Transfer.nameEnquiry rejects an unknown bank, an invalid account and a bank that is down', async () => {
    await assert.rejects(
      transfers.nameEnquiry({ bankCode: '123456', accountNumber: OTHER_ACCOUNT }),
      sdkError(400, 'Unknown bank code.'),
    );
    // The simulator refuses accounts ending 0000 (07) and cannot reach those ending 9999 (91).
    await assert.rejects(
      transfers.nameEnquiry({ bankCode: OTHER_BANK, accountNumber: '1234560000' }),
      sdkError(400, 'Invalid account'),
    );
    await assert.rejects(
      transfers.nameEnquiry({ bankCode: OTHER_BANK, accountNumber: '1234569999' }),
      sdkError(402, 'Beneficiary bank not available'),
    );
  });

  let intra: WireTransfer;
  let intraBody: Record<string, unknown>;

  test('Transfer.create to another OpenIBS account completes at once and moves the money', async () => {
    testApp.clock.advanceSeconds(1);
    const { sessionId: reference } = await enquire(OUR_BANK, payee.mainAccountNumber);
    // The SDK's own example reference has a space in it ("TXN_REF 123"): accepted as is.
    intraBody = {
      nameEnquiryReference: reference,
      debitAccountNumber: payer.mainAccountNumber,
      beneficiaryBankCode: OUR_BANK,
      beneficiaryAccountNumber: payee.mainAccountNumber,
      amount: 1_250.5,
      saveBeneficiary: false,
      paymentReference: 'TXN_REF 100001',
      narration: 'Test Transfer',
    };
    const result = await transfers.create(intraBody);
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Transfer processed.');
    intra = result.data as WireTransfer;
    assert.match(intra._id, OBJECT_ID);
    assert.equal(intra.client, payer.ibsClientId);
    assert.equal(intra.account, payer.mainAccountId);
    assert.equal(intra.type, 'Outwards');
    assert.match(intra.sessionId, SESSION_ID);
    assert.notEqual(intra.sessionId, reference);
    assert.equal(intra.nameEnquiryReference, reference);
    assert.equal(intra.paymentReference, 'TXN_REF 100001');
    assert.equal(intra.status, 'Completed');
    assert.equal(intra.responseCode, '00');
    assert.equal(intra.responseMessage, 'Approved or completed successfully');
    assert.equal(intra.amount, 1_250.5);
    assert.equal(intra.fees, 0);
    assert.equal(intra.vat, 0);
    assert.equal(intra.stampDuty, 0);
    assert.equal(intra.isReversed, false);
    assert.deepEqual(
      [intra.provider, intra.providerChannel, intra.providerChannelCode],
      ['BANK', 'TRANSFER', 'IBS'],
    );
    assert.equal(intra.destinationInstitutionCode, OUR_BANK);
    assert.equal(intra.creditAccountNumber, payee.mainAccountNumber);
    assert.equal(intra.creditAccountName, 'SDK PAYEE LTD');
    assert.equal(intra.debitAccountNumber, payer.mainAccountNumber);
    assert.equal(intra.debitAccountName, 'SDK PAYER LTD');
    assert.equal(intra.narration, 'Test Transfer');
    assert.equal(typeof intra.approvedAt, 'string');

    assert.equal((await balanceOf(accounts, payer.mainAccountId)).accountBalance, 3_749.5);
    assert.equal((await balanceOf(payeeAccounts, payee.mainAccountId)).accountBalance, 1_250.5);
  });

  test("the payee's SDK sees the same transfer as Inwards, under its own id", async () => {
    const result = await payeeTransfers.list({ type: 'Inwards', page: 0, limit: 25 });
    assert.equal(result.statusCode, 200);
    const page = result.data as WirePage<WireTransfer>;
    assert.equal(page.data.length, 1);
    const received = page.data[0] as WireTransfer;
    assert.equal(received.sessionId, intra.sessionId);
    assert.notEqual(received._id, intra._id);
    assert.equal(received.client, payee.ibsClientId);
    assert.equal(received.account, payee.mainAccountId);
    assert.equal(received.type, 'Inwards');
    assert.equal(received.amount, 1_250.5);
    assert.equal(received.status, 'Completed');
    assert.deepEqual(page.pagination, { total: 1, pages: 1, page: '0', limit: '25' });
  });

  test('Transfer.create with the same paymentReference and body replays; another body is 409', async () => {
    const replay = (await transfers.create(intraBody)).data as WireTransfer;
    assert.equal(replay._id, intra._id);
    assert.equal(replay.sessionId, intra.sessionId);
    assert.equal((await balanceOf(accounts, payer.mainAccountId)).accountBalance, 3_749.5);
    await assert.rejects(
      transfers.create({ ...intraBody, amount: 1_000 }),
      sdkError(409, 'This paymentReference was already used for a different transfer.'),
    );
    assert.equal((await balanceOf(accounts, payer.mainAccountId)).accountBalance, 3_749.5);
  });

  test("Transfer.create with the SDK's own invalid nameEnquiryReference rejects with 400", async () => {
    await assert.rejects(
      transfers.create({ ...intraBody, nameEnquiryReference: 'invalid', paymentReference: 'R-2' }),
      sdkError(400, 'nameEnquiryReference must match pattern "^[0-9]{30}$"'),
    );
  });

  let nip: WireTransfer;

  test('Transfer.create to another bank over NIP completes on 00 with fee and VAT, saving the beneficiary', async () => {
    const { enquiry, sent } = await nipTransfer(1_500, {
      saveBeneficiary: true,
      paymentReference: 'TXN_REF 100002',
    });
    nip = sent;
    assert.match(nip._id, OBJECT_ID);
    assert.equal(nip.type, 'Outwards');
    assert.match(nip.sessionId, SESSION_ID);
    assert.equal(nip.nameEnquiryReference, enquiry);
    assert.equal(nip.paymentReference, 'TXN_REF 100002');
    assert.equal(nip.status, 'Completed');
    assert.equal(nip.responseCode, '00');
    assert.equal(nip.amount, 1_500);
    // ₦10 up to ₦5,000, plus 7.5 % VAT on the fee.
    assert.equal(nip.fees, 10);
    assert.equal(nip.vat, 0.75);
    assert.deepEqual(
      [nip.provider, nip.providerChannel, nip.providerChannelCode],
      ['NIBSS', 'NIP', '3'],
    );
    assert.equal(nip.destinationInstitutionCode, OTHER_BANK);
    assert.equal(nip.creditAccountNumber, OTHER_ACCOUNT);
    assert.equal(nip.creditAccountName, OTHER_NAME);
    assert.equal(nip.debitAccountNumber, payer.mainAccountNumber);

    const account = await balanceOf(accounts, payer.mainAccountId);
    assert.equal(account.accountBalance, 3_749.5 - 1_510.75);
    assert.equal(account.lockedBalance, 0);
  });

  test('Transfer.create over NIP with a definitive failure resolves Failed and releases the hold', async () => {
    const before = await balanceOf(accounts, payer.mainAccountId);
    // Kobo part .05: the simulator answers 05 Do not honor. The SDK resolves (HTTP 200): its
    // callers must read data.status, not rely on a rejection.
    const { sent } = await nipTransfer(100.05, { paymentReference: 'TXN_REF 100003' });
    assert.equal(sent.status, 'Failed');
    assert.equal(sent.responseCode, '05');
    assert.equal(typeof sent.declinedAt, 'string');
    assert.deepEqual(await balanceOf(accounts, payer.mainAccountId), before);
  });

  let pending: WireTransfer;

  test('Transfer.create over NIP that times out stays Processing with the funds held', async () => {
    const before = await balanceOf(accounts, payer.mainAccountId);
    // Kobo part .97: no answer from the rail; the first status query answers 00.
    const { sent } = await nipTransfer(100.97);
    pending = sent;
    assert.equal(pending.status, 'Processing');
    assert.equal(pending.responseCode, null);
    // Without a paymentReference, the session id is the reference.
    assert.equal(pending.paymentReference, pending.sessionId);
    const held = await balanceOf(accounts, payer.mainAccountId);
    assert.equal(held.lockedBalance, 111.72);
    assert.equal(held.bookBalance, before.bookBalance);
    assert.equal(held.accountBalance, before.accountBalance - 111.72);
  });

  test('Transfer.status by sessionId queries the rail and settles the Processing transfer', async () => {
    const before = await balanceOf(accounts, payer.mainAccountId);
    const result = await transfers.status({ sessionId: pending.sessionId });
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Transfer fetched successfully.');
    const settled = result.data as WireTransfer;
    assert.equal(settled._id, pending._id);
    assert.equal(settled.sessionId, pending.sessionId);
    assert.equal(settled.status, 'Completed');
    assert.equal(settled.responseCode, '00');
    assert.equal(settled.amount, 100.97);
    const after = await balanceOf(accounts, payer.mainAccountId);
    assert.equal(after.lockedBalance, 0);
    assert.equal(after.bookBalance, before.bookBalance - 111.72);
    assert.equal(after.accountBalance, before.accountBalance);
  });

  test('Transfer.status by paymentReference finds a transfer too', async () => {
    const result = await transfers.status({ paymentReference: 'TXN_REF 100001' });
    const found = result.data as WireTransfer;
    assert.equal(found._id, intra._id);
    assert.equal(found.status, 'Completed');
  });

  test("Transfer.status of an unknown session (the SDK's own example) rejects with 400", async () => {
    await assert.rejects(
      transfers.status({ sessionId: '999240250304052717387409727109' }),
      sdkError(400, 'Unable to locate record'),
    );
    // Another client's transfer is unknown too.
    await assert.rejects(
      payeeTransfers.status({ sessionId: nip.sessionId }),
      sdkError(400, 'Unable to locate record'),
    );
  });

  test('Transfer.create beyond the balance rejects with 402 and records nothing', async () => {
    await assert.rejects(
      nipTransfer(1_000_000, { paymentReference: 'TXN_REF TOO-MUCH' }),
      sdkError(402, 'Insufficient funds.'),
    );
    await assert.rejects(
      transfers.status({ paymentReference: 'TXN_REF TOO-MUCH' }),
      sdkError(400, 'Unable to locate record'),
    );
  });

  test('Transfer.list pages the history with the query the SDK documents', async () => {
    // The SDK's documented filter set: accountId, page, limit, fromDate, toDate, type, status.
    const result = await transfers.list({
      accountId: payer.mainAccountId,
      page: 0,
      limit: 25,
      fromDate: '2026-03-02',
      toDate: '2026-03-02',
      type: 'Outwards',
      status: 'Completed',
    });
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Transfers fetched successfully.');
    const page = result.data as WirePage<WireTransfer>;
    // Newest first: the settled timeout, the NIP transfer, the intra-bank one; not the failure.
    assert.deepEqual(
      page.data.map((item) => item._id),
      [pending._id, nip._id, intra._id],
    );
    assert.ok(page.data.every((item) => item.type === 'Outwards' && item.status === 'Completed'));
    assert.deepEqual(page.pagination, { total: 3, pages: 1, page: '0', limit: '25' });

    const failed = (await transfers.list({ status: 'Failed' })).data as WirePage<WireTransfer>;
    assert.deepEqual(
      failed.data.map((item) => item.paymentReference),
      ['TXN_REF 100003'],
    );
    // The sandbox credit that funded the payer is its one Inwards transfer.
    const inwards = (await transfers.list({ accountId: payer.mainAccountId, type: 'Inwards' }))
      .data as WirePage<WireTransfer>;
    assert.equal(inwards.data.length, 1);
    assert.equal(inwards.data[0]?.amount, 5_000);
    // The default page size is 25, echoed as a string.
    assert.equal(inwards.pagination.limit, '25');
  });

  test('Transfer.list pages by page and limit', async () => {
    const second = (
      await transfers.list({ accountId: payer.mainAccountId, type: 'Outwards', page: 1, limit: 2 })
    ).data as WirePage<WireTransfer>;
    // Outwards: the timeout, the failure, the NIP transfer, the intra-bank one; page 1 of 2.
    assert.deepEqual(
      second.data.map((item) => item._id),
      [nip._id, intra._id],
    );
    assert.deepEqual(second.pagination, { total: 4, pages: 2, page: '1', limit: '2' });
  });

  test('Transfer.list of a date range without transfers is empty', async () => {
    const result = await transfers.list({
      accountId: payer.mainAccountId,
      fromDate: '2025-03-03',
      toDate: '2025-12-31',
    });
    const page = result.data as WirePage<WireTransfer>;
    assert.deepEqual(page.data, []);
    assert.equal(page.pagination.total, 0);
  });

  let saved: WireBeneficiary;

  test('Transfer.beneficiaries lists the beneficiary saved by saveBeneficiary: true', async () => {
    const result = await transfers.beneficiaries();
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Beneficiaries fetched successfully.');
    const page = result.data as WirePage<WireBeneficiary>;
    // Only the NIP transfer asked to save; the intra-bank one did not.
    assert.equal(page.data.length, 1);
    saved = page.data[0] as WireBeneficiary;
    assert.match(saved._id, OBJECT_ID);
    assert.equal(saved.client, payer.ibsClientId);
    assert.equal(saved.bankCode, OTHER_BANK);
    assert.equal(saved.bankName, 'Guaranty Trust Bank');
    assert.equal(saved.accountNumber, OTHER_ACCOUNT);
    assert.equal(saved.accountName, OTHER_NAME);
    assert.deepEqual(page.pagination, { total: 1, pages: 1, page: '0', limit: '25' });

    const theirs = (await payeeTransfers.beneficiaries()).data as WirePage<WireBeneficiary>;
    assert.deepEqual(theirs.data, []);
  });

  test("Transfer.deleteBeneficiary of another client's beneficiary rejects as unknown", async () => {
    await assert.rejects(
      payeeTransfers.deleteBeneficiary(saved._id),
      sdkError(400, 'Unable to locate record'),
    );
    const still = (await transfers.beneficiaries()).data as WirePage<WireBeneficiary>;
    assert.equal(still.data.length, 1);
  });

  test('Transfer.deleteBeneficiary removes it; a second delete rejects with 400', async () => {
    const result = await transfers.deleteBeneficiary(saved._id);
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Beneficiary deleted successfully.');
    assert.equal((result.data as WireBeneficiary)._id, saved._id);
    const after = (await transfers.beneficiaries()).data as WirePage<WireBeneficiary>;
    assert.deepEqual(after.data, []);
    assert.equal(after.pagination.total, 0);
    await assert.rejects(
      transfers.deleteBeneficiary(saved._id),
      sdkError(400, 'Unable to locate record'),
    );
    // The SDK's own test deletes this id and expects 400.
    await assert.rejects(
      transfers.deleteBeneficiary('67c696a1762c4e0024565168'),
      sdkError(400, 'Unable to locate record'),
    );
  });
});
