// Compatibility: the published third-party Node SDK for the IBS API (@specialman/safehaven),
// pointed at OpenIBS over real HTTP, must work unchanged for identity checks (its Verification
// service) and for sub-accounts (Account.createSubAccount and Account.updateSubAccount).
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
  type SdkVerificationService,
  sdkError,
  Verification,
  type WirePage,
} from './safehaven-sdk.ts';

// The SDK is CommonJS without types; these describe only what the test touches.
interface WireVerification {
  _id: string;
  client: string;
  type: string;
  number: string;
  provider: string | null;
  debitAccountNumber: string;
  fee: number;
  vat: number;
  /** SUCCESS on an initiation; the verification's state on validation. */
  status: 'SUCCESS' | 'Pending' | 'Verified' | 'Failed';
  verificationStatus?: 'Pending' | 'Verified' | 'Failed';
  isVerified: boolean;
  otpSentTo: string | null;
  otpExpiresAt: string | null;
  data: Record<string, unknown> | null;
  verifiedAt: string | null;
}

interface WireAccount {
  _id: string;
  client: string;
  accountNumber: string;
  accountName: string;
  accountBalance: number;
  bookBalance: number;
  status: string;
  isSubAccount: boolean;
  kycLevel: string;
  externalReference: string | null;
  metadata: Record<string, unknown>;
  accountHolderType: string | null;
  phoneNumber: string | null;
  emailAddress: string | null;
  identityType: string | null;
  identityId: string | null;
  createdAt: string;
  updatedAt: string;
}

// Sandbox bureau test numbers (docs/sandbox-identity.md); every sandbox OTP is 123456.
const BVN = '22212345671'; // CHIDI ADEBOLA BALOGUN, phone +2348032221234
const NIN = '12345678901'; // BABAJIDE AYOMIDE ADEYEMI, phone +2348031234567
const RC = 'RC1234567'; // OBIOMA PHARMACY LIMITED
const OTP = '123456';
const OBJECT_ID = /^[0-9a-f]{24}$/;
// The identity's phone on the bureau's record, masked: +234803 ****, then its last three digits.
const BVN_PHONE_MASKED = '+234803****234';

describe('@specialman/safehaven SDK identity checks and sub-accounts against OpenIBS', () => {
  let testApp: TestApp;
  let baseUrl: string;
  let client: TestClient;
  let other: TestClient;
  const auths: SdkAuth[] = [];
  let verification: SdkVerificationService;
  let accounts: SdkAccountService;
  let otherVerification: SdkVerificationService;
  let otherAccounts: SdkAccountService;

  /** An SDK session for one client, authenticated against this server as the SDK does it. */
  async function sdkFor(owner: TestClient) {
    const auth = new Auth({
      client_id: owner.oauthClientId,
      // The server checks exp against the test clock (2026-03-02), so sign on that clock.
      client_assertion: await signAssertion(owner, { now: testApp.clock.now() }),
      env: 'sandbox',
    });
    auths.push(auth);
    auth.base_url = baseUrl;
    await auth.authenticate();
    const request = base(auth);
    return { verification: new Verification(request), accounts: new Account(request) };
  }

  async function mainBalance() {
    const result = await accounts.account(client.mainAccountId);
    return (result.data as WireAccount).accountBalance;
  }

  before(async () => {
    testApp = await buildTestApp();
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = testApp.app.server.address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}`;
    client = await createClient(testApp.app, 'Sdk Kyc Ltd');
    other = await createClient(testApp.app, 'Sdk Other Ltd');
    // Checks are charged to the client's main account. Under ₦10,000: no stamp duty, so the
    // account starts with exactly ₦1,000.
    await sandboxCredit(testApp.app, client.mainAccountNumber, 1_000);
    await sandboxCredit(testApp.app, other.mainAccountNumber, 1_000);
    ({ verification, accounts } = await sdkFor(client));
    ({ verification: otherVerification, accounts: otherAccounts } = await sdkFor(other));
  });

  after(async () => {
    for (const auth of auths) {
      auth.cleanup();
    }
    await testApp?.close();
  });

  let bvnCheck: WireVerification;

  test('Verification.initiate of a BVN charges fee and VAT and answers Pending with the OTP sent', async () => {
    const result = await verification.initiate({
      type: 'BVN',
      number: BVN,
      debitAccountNumber: client.mainAccountNumber,
    });
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Verification initiated successfully.');
    bvnCheck = result.data as WireVerification;
    // The SDK's callers keep data._id and send it back as identityId.
    assert.match(bvnCheck._id, OBJECT_ID);
    assert.equal(bvnCheck.client, client.ibsClientId);
    assert.equal(bvnCheck.type, 'BVN');
    assert.equal(bvnCheck.number, '*******5671');
    assert.equal(bvnCheck.status, 'SUCCESS');
    assert.equal(bvnCheck.verificationStatus, 'Pending');
    assert.equal(bvnCheck.isVerified, false);
    assert.equal(bvnCheck.data, null, 'no identity data before the OTP');
    assert.equal(bvnCheck.otpSentTo, BVN_PHONE_MASKED);
    assert.equal(bvnCheck.otpExpiresAt, '2026-03-02T09:10:00.000Z');
    assert.equal(bvnCheck.debitAccountNumber, client.mainAccountNumber);
    // ₦25 and 7.5 % VAT, rounded to the kobo.
    assert.equal(bvnCheck.fee, 25);
    assert.equal(bvnCheck.vat, 1.88);
    assert.equal(await mainBalance(), 1_000 - 26.88);
  });

  test("Verification.initiate with the SDK's own invalid data, and numbers the bureau refuses, reject uncharged", async () => {
    // The SDK's test sends empty strings and expects 400.
    await assert.rejects(
      verification.initiate({ type: 'NIN', number: '', debitAccountNumber: '' }),
      sdkError(400, 'number must NOT have fewer than 1 characters'),
    );
    const refused = [
      ['22212340000', 400, 'No identity was found for this number.'],
      ['22212348888', 400, 'The data on record does not match the request (name mismatch).'],
      ['22212349999', 402, 'The identity bureau is not available. Try again later.'],
    ] as const;
    for (const [number, statusCode, message] of refused) {
      await assert.rejects(
        verification.initiate({
          type: 'BVN',
          number,
          debitAccountNumber: client.mainAccountNumber,
        }),
        sdkError(statusCode, message),
      );
    }
    // Another client's account cannot pay for a check.
    await assert.rejects(
      verification.initiate({
        type: 'BVN',
        number: BVN,
        debitAccountNumber: other.mainAccountNumber,
      }),
      sdkError(400, 'Unable to locate record'),
    );
    assert.equal(await mainBalance(), 1_000 - 26.88);
  });

  test('Account.createSubAccount before the OTP is validated rejects with 400', async () => {
    await assert.rejects(
      accounts.createSubAccount({
        phoneNumber: '+2348112345678',
        emailAddress: 'chidi.balogun@yopmail.com',
        externalReference: 'EXT_REF 000',
        identityType: 'BVN',
        identityNumber: BVN,
        identityId: bvnCheck._id,
      }),
      sdkError(400, 'The verification is not validated yet: validate it with the OTP.'),
    );
  });

  test('Verification.validate with a wrong OTP or another type rejects with the SDK error', async () => {
    // The SDK's test validates with 000000 and expects 400.
    await assert.rejects(
      verification.validate({ identityId: bvnCheck._id, type: 'BVN', otp: '000000' }),
      sdkError(400, 'Invalid OTP.'),
    );
    // Another type than the check was initiated with is a mismatch.
    await assert.rejects(
      verification.validate({ identityId: bvnCheck._id, type: 'NIN', otp: OTP }),
      sdkError(400, 'The identity on record does not match the request.'),
    );
  });

  test("Verification.validate of an unknown id (the SDK's own example) or another client's rejects as unknown", async () => {
    await assert.rejects(
      verification.validate({ identityId: '67c5d5ba6f78ac4c885abdfc', type: 'NIN', otp: OTP }),
      sdkError(400, 'Unable to locate record'),
    );
    await assert.rejects(
      otherVerification.validate({ identityId: bvnCheck._id, type: 'BVN', otp: OTP }),
      sdkError(400, 'Unable to locate record'),
    );
  });

  test('Verification.validate with OTP 123456 verifies and shows the identity; again answers the same', async () => {
    const result = await verification.validate({ identityId: bvnCheck._id, type: 'BVN', otp: OTP });
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Verification validated successfully.');
    const verified = result.data as WireVerification;
    assert.equal(verified._id, bvnCheck._id);
    assert.equal(verified.status, 'Verified');
    assert.equal(verified.isVerified, true);
    assert.equal(verified.otpSentTo, null);
    assert.equal(verified.verifiedAt, '2026-03-02T09:00:00.000Z');
    assert.deepEqual(verified.data, {
      firstName: 'CHIDI',
      middleName: 'ADEBOLA',
      lastName: 'BALOGUN',
      dateOfBirth: '1981-12-18',
      gender: 'Male',
      phoneNumber: BVN_PHONE_MASKED,
      email: 'chidi.balogun@example.com',
      nationality: 'Nigeria',
      stateOfOrigin: 'Oyo',
    });
    // Validation is free: only the initiation was charged.
    assert.equal(await mainBalance(), 1_000 - 26.88);

    testApp.clock.advanceSeconds(1);
    const again = (await verification.validate({ identityId: bvnCheck._id, type: 'BVN', otp: OTP }))
      .data as WireVerification;
    assert.equal(again.status, 'Verified');
    assert.equal(again.verifiedAt, verified.verifiedAt);
  });

  let sub: WireAccount;
  // The SDK's documented body (documentation/accounts.md), with its "EXT_REF <n>" reference.
  let subBody: Record<string, unknown>;

  test('Account.createSubAccount with the validated identityId opens a KYC level 2 sub-account', async () => {
    subBody = {
      phoneNumber: '+2348112345678',
      emailAddress: 'chidi.balogun@yopmail.com',
      externalReference: 'EXT_REF 100001',
      identityType: 'BVN',
      identityNumber: BVN,
      identityId: bvnCheck._id,
      metadata: { test: true },
    };
    const result = await accounts.createSubAccount(subBody);
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Sub account created successfully.');
    sub = result.data as WireAccount;
    // What the SDK's callers read: data._id, data.accountNumber, data.accountName.
    assert.match(sub._id, OBJECT_ID);
    assert.notEqual(sub._id, client.mainAccountId);
    assert.match(sub.accountNumber, /^\d{10}$/);
    assert.notEqual(sub.accountNumber, client.mainAccountNumber);
    assert.equal(sub.accountName, 'CHIDI ADEBOLA BALOGUN');
    assert.equal(sub.isSubAccount, true);
    assert.equal(sub.kycLevel, '2');
    assert.equal(sub.client, client.ibsClientId);
    assert.equal(sub.status, 'Active');
    assert.equal(sub.accountBalance, 0);
    assert.equal(sub.externalReference, 'EXT_REF 100001');
    assert.equal(sub.accountHolderType, 'Individual');
    assert.equal(sub.phoneNumber, '+2348112345678');
    assert.equal(sub.emailAddress, 'chidi.balogun@yopmail.com');
    assert.equal(sub.identityType, 'BVN');
    assert.equal(sub.identityId, bvnCheck._id);
    assert.deepEqual(sub.metadata, { test: true });
    // Opening a sub-account is free.
    assert.equal(await mainBalance(), 1_000 - 26.88);
  });

  test('Account.accounts lists the sub-account with isSubAccount: true, not among main accounts', async () => {
    const subs = (await accounts.accounts({ isSubAccount: true, page: 0, limit: 10 }))
      .data as WirePage<WireAccount>;
    assert.deepEqual(
      subs.data.map((account) => account._id),
      [sub._id],
    );
    assert.deepEqual(subs.pagination, { total: 1, pages: 1, page: '0', limit: '10' });
    const mains = (await accounts.accounts({ isSubAccount: false, page: 0, limit: 10 }))
      .data as WirePage<WireAccount>;
    assert.deepEqual(
      mains.data.map((account) => account._id),
      [client.mainAccountId],
    );
  });

  test('Account.createSubAccount with the same externalReference and body replays; another body is 409', async () => {
    const replay = await accounts.createSubAccount(subBody);
    assert.equal(replay.statusCode, 200);
    assert.equal((replay.data as WireAccount)._id, sub._id);
    assert.equal((replay.data as WireAccount).accountNumber, sub.accountNumber);
    await assert.rejects(
      accounts.createSubAccount({ ...subBody, emailAddress: 'someone.else@yopmail.com' }),
      sdkError(409, 'This externalReference was already used for a different sub-account.'),
    );
    const subs = (await accounts.accounts({ isSubAccount: true })).data as WirePage<WireAccount>;
    assert.equal(subs.pagination.total, 1);
  });

  test("Account.createSubAccount with the SDK's own missing fields, or an unverified identity, rejects with 400", async () => {
    // The SDK's test sends an empty body and expects 400.
    await assert.rejects(accounts.createSubAccount({}), sdkError(400, 'phoneNumber is required'));
    // The SDK's documented example identityId is nobody's verification here.
    await assert.rejects(
      accounts.createSubAccount({
        ...subBody,
        externalReference: 'EXT_REF 100002',
        identityId: '67c5d5ba6f78ac4c885abdfc',
      }),
      sdkError(400, 'Unable to locate the verification.'),
    );
    // Another client cannot open a sub-account on this client's verification.
    await assert.rejects(
      otherAccounts.createSubAccount({ ...subBody, externalReference: 'EXT_REF 100003' }),
      sdkError(400, 'Unable to locate the verification.'),
    );
  });

  test('Account.updateSubAccount changes phone, email and metadata; account_id in the body is ignored', async () => {
    testApp.clock.advanceSeconds(60);
    // As the SDK sends it: account_id names the path and stays in the body. The published
    // update lists externalReference as required: the stored one is sent back.
    const result = await accounts.updateSubAccount({
      account_id: sub._id,
      phoneNumber: '+2348112345679',
      emailAddress: 'mat.doe@yopmail.com',
      externalReference: sub.externalReference,
      metadata: { updated: true },
      // Protected fields a client might send back: they must not change anything.
      kycLevel: '3',
      accountBalance: 1_000_000,
    });
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Sub account updated successfully.');
    const updated = result.data as WireAccount;
    assert.equal(updated._id, sub._id);
    assert.equal(updated.phoneNumber, '+2348112345679');
    assert.equal(updated.emailAddress, 'mat.doe@yopmail.com');
    // metadata is replaced, not merged.
    assert.deepEqual(updated.metadata, { updated: true });
    assert.equal(updated.updatedAt, '2026-03-02T09:01:01.000Z');
    assert.equal(updated.createdAt, sub.createdAt);
    // Identity, name, number and KYC level stay as created.
    assert.equal(updated.accountNumber, sub.accountNumber);
    assert.equal(updated.accountName, sub.accountName);
    assert.equal(updated.externalReference, sub.externalReference);
    assert.equal(updated.identityId, bvnCheck._id);
    assert.equal(updated.kycLevel, '2');
    assert.equal(updated.accountBalance, 0);

    const fetched = (await accounts.account(sub._id)).data as WireAccount;
    assert.deepEqual(fetched, updated);
  });

  test("Account.updateSubAccount with the SDK docs' fresh externalReference moves the reference", async () => {
    // The SDK's documented example sends a new random externalReference on every update; the
    // published update lists it as a field, so OpenIBS takes the new one (409 if another has it).
    const updated = (
      await accounts.updateSubAccount({
        account_id: sub._id,
        externalReference: 'EXT_REF 999999',
        metadata: { updated: 'again' },
      })
    ).data as WireAccount;
    assert.equal(updated.externalReference, 'EXT_REF 999999');
    const fetched = (await accounts.account(sub._id)).data as WireAccount;
    assert.equal(fetched.externalReference, 'EXT_REF 999999');
    assert.deepEqual(fetched.metadata, { updated: 'again' });
  });

  test("Account.updateSubAccount of an unknown, a main or another client's account rejects with 400", async () => {
    // The SDK's own test updates "invalid_id" and expects 400.
    await assert.rejects(
      accounts.updateSubAccount({ account_id: 'invalid_id', metadata: { updated: false } }),
      sdkError(400, 'Unable to locate record'),
    );
    await assert.rejects(
      accounts.updateSubAccount({ account_id: client.mainAccountId, metadata: { updated: false } }),
      sdkError(400, 'Only sub-accounts are updated here.'),
    );
    await assert.rejects(
      otherAccounts.updateSubAccount({ account_id: sub._id, metadata: { updated: false } }),
      sdkError(400, 'Unable to locate record'),
    );
    const fetched = (await accounts.account(sub._id)).data as WireAccount;
    assert.deepEqual(fetched.metadata, { updated: 'again' }, 'the refused updates changed nothing');
  });

  test('NIN as in the SDK docs: initiate, then createSubAccount with the OTP validates and opens at once', async () => {
    // Some third-party callers send the number as a JSON number and async: false
    // (ibs-api-reference §4.7.1); the SDK forwards the body as given.
    const started = await verification.initiate({
      type: 'NIN',
      number: Number(NIN),
      debitAccountNumber: client.mainAccountNumber,
      async: false,
    });
    const nin = started.data as WireVerification;
    assert.equal(nin.type, 'NIN');
    assert.equal(nin.number, '*******8901');
    assert.equal(nin.status, 'SUCCESS');
    assert.equal(nin.verificationStatus, 'Pending');
    // ₦50 and 7.5 % VAT.
    assert.equal(nin.fee, 50);
    assert.equal(nin.vat, 3.75);
    assert.equal(await mainBalance(), 1_000 - 26.88 - 53.75);

    const body = {
      phoneNumber: '+2348112345670',
      emailAddress: 'babajide.adeyemi@yopmail.com',
      externalReference: 'EXT_REF 100004',
      identityType: 'NIN',
      identityNumber: NIN,
      identityId: nin._id,
      metadata: { test: true },
    };
    await assert.rejects(
      accounts.createSubAccount({ ...body, otp: '000000' }),
      sdkError(400, 'Invalid OTP.'),
    );
    const result = await accounts.createSubAccount({ ...body, otp: OTP });
    assert.equal(result.statusCode, 200);
    const opened = result.data as WireAccount;
    assert.match(opened._id, OBJECT_ID);
    assert.notEqual(opened._id, sub._id);
    assert.equal(opened.accountName, 'BABAJIDE AYOMIDE ADEYEMI');
    assert.equal(opened.isSubAccount, true);
    assert.equal(opened.kycLevel, '2');
    assert.equal(opened.identityType, 'NIN');

    const validated = await verification.validate({ identityId: nin._id, type: 'NIN', otp: OTP });
    assert.equal((validated.data as WireVerification).status, 'Verified');
    const subs = (await accounts.accounts({ isSubAccount: true })).data as WirePage<WireAccount>;
    assert.deepEqual(subs.data.map((account) => account._id).sort(), [sub._id, opened._id].sort());
  });

  test('Verification.initiate of a CAC number is verified at once with the company record', async () => {
    const before = await mainBalance();
    const result = await verification.initiate({
      type: 'CAC',
      number: RC,
      debitAccountNumber: client.mainAccountNumber,
    });
    assert.equal(result.statusCode, 200);
    assert.equal(result.message, 'Verification initiated successfully.');
    const cac = result.data as WireVerification;
    assert.match(cac._id, OBJECT_ID);
    assert.equal(cac.type, 'CAC');
    assert.equal(cac.number, '*****4567');
    assert.equal(cac.status, 'SUCCESS');
    assert.equal(cac.verificationStatus, 'Verified');
    assert.equal(cac.isVerified, true);
    assert.equal(cac.otpSentTo, null);
    assert.equal(cac.otpExpiresAt, null);
    assert.equal(typeof cac.verifiedAt, 'string');
    // ₦100 and 7.5 % VAT.
    assert.equal(cac.fee, 100);
    assert.equal(cac.vat, 7.5);
    assert.deepEqual(cac.data, {
      companyName: 'OBIOMA PHARMACY LIMITED',
      registrationNumber: RC,
      companyType: 'RC',
      registrationDate: '2000-08-08',
      address: '68 Aba Road, Kaduna',
      email: 'info.obiomapharmacy@example.com',
      status: 'ACTIVE',
      // Names and roles only: the directors' BVNs stay private.
      directors: [
        { firstName: 'CHIDI', middleName: 'ADEBOLA', lastName: 'BALOGUN', role: 'Director' },
        { firstName: 'BLESSING', middleName: 'ADEBOLA', lastName: 'OKAFOR', role: 'Director' },
      ],
    });
    assert.equal(await mainBalance(), before - 107.5);
  });
});
