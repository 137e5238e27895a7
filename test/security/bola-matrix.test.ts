import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import {
  type CheckoutPageSession,
  checkoutPageCall,
  createUssdReference,
  createVirtualAccount,
  creditWebhookEvent,
  individualSubAccountBody,
  nameEnquiry,
  OTHER_BANK,
  OTHER_BANK_ACCOUNT,
  openCheckoutSession,
  payVirtualAccount,
  SANDBOX_BVN,
  SANDBOX_OTP,
  sandboxCredit,
  sendTransfer,
  signedInClient,
  ussdReferenceBody,
  VAS,
  vasPurchase,
  verifyIdentity,
  virtualAccountBody,
} from '../factories.ts';
import type { TestApp } from '../harness.ts';
import {
  bodyFieldPaths,
  buildSecurityApp,
  changedTables,
  clientFingerprint,
  databaseFingerprint,
  type Headers,
  openApiOperations,
  safeJson,
  unknownAccountNumber,
  unknownIds,
} from './security-helpers.ts';

/**
 * The BOLA matrix: every route that takes the id of an object (in its path, its query or its
 * body) is called by client B with client A's id and with an unknown id of the same shape. B's
 * two answers must be identical (status and whole body: code, message, data), so nothing tells
 * B that A's object exists, and B's call must change nothing in the database (every table is
 * fingerprinted around it). Ids that are the caller's own keys (paymentReference,
 * externalReference, Idempotency-Key, checkout referenceCode) are checked the other way: B's
 * request with A's key does B's own thing and never touches, replays or shows A's object.
 *
 * To cover a new route, add a row to MATRIX; the last test fails while /openapi.json lists an
 * id-taking route that no row (nor EXEMPT, with its reason) covers.
 */

interface Party {
  readonly headers: Headers;
  readonly ibsClientId: string;
  readonly oauthClientId: string;
  readonly mainAccountId: string;
  readonly mainAccountNumber: string;
}

/** Client A's objects (the victim's), and the few of B's that B's requests need. */
interface World {
  readonly testApp: TestApp;
  readonly institutionCode: string;
  readonly a: Party;
  readonly b: Party;
  readonly aSub: { _id: string; accountNumber: string; externalReference: string };
  readonly bSub: { _id: string; accountNumber: string };
  readonly aVerifiedId: string;
  readonly aPendingId: string;
  readonly aDirectorId: string;
  readonly bVerifiedId: string;
  readonly bCacId: string;
  readonly bDirectorId: string;
  readonly aTransfer: { _id: string; sessionId: string; paymentReference: string };
  readonly aIdempotencyKey: string;
  readonly aCreditSessionId: string;
  readonly aNameEnquiryReference: string;
  readonly aBeneficiaryId: string;
  readonly aVirtualAccount: { _id: string; accountNumber: string; externalReference: string };
  readonly aVirtualAccountPaymentSessionId: string;
  readonly aPaidVirtualAccountId: string;
  readonly aUssdReference: string;
  readonly aCheckout: CheckoutPageSession;
  readonly bCheckout: CheckoutPageSession;
  readonly aVasPurchase: { id: string; reference: string };
  readonly aVasIdempotencyKey: string;
  readonly aEventId: string;
  readonly aBulkBatchId: string;
  /** Every identifier of A's: none may appear in an answer to B. */
  readonly aIdentifiers: readonly string[];
  /** A's balances once A's own operations are done, before any of B's calls. */
  readonly aBalancesAtStart: Record<string, unknown>;
}

/** A's accounts and virtual accounts as A sees them: balances, statuses, settings. */
async function balancesOfA(w: Pick<World, 'testApp' | 'a'>) {
  const { app } = w.testApp;
  const balances: Record<string, unknown> = {};
  for (const isSubAccount of [false, true]) {
    const listed = await app.inject({
      method: 'GET',
      url: `/accounts?isSubAccount=${isSubAccount}`,
      headers: w.a.headers,
    });
    assert.equal(listed.statusCode, 200, listed.body);
    for (const account of listed.json().data) {
      balances[account.accountNumber] = {
        accountBalance: account.accountBalance,
        bookBalance: account.bookBalance,
        lockedBalance: account.lockedBalance,
        status: account.status,
      };
    }
  }
  return balances;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface BolaRequest {
  readonly method: Method;
  readonly url: string;
  readonly payload?: Record<string, unknown>;
  readonly headers?: Headers;
}

interface BolaRow {
  /** The operation as /openapi.json names it. */
  readonly method: Method;
  readonly path: string;
  /** Where the id goes: `path.<param>`, `query.<name>`, `body.<dotted.path>` or `header.<name>`. */
  readonly field: string;
  /** What makes this row different from another on the same field. */
  readonly variant?: string;
  /**
   * `same-answer` (default): A's id and an unknown one get the same answer and change nothing.
   * `own-namespace`: the id is the caller's own key; B's request with A's key must answer like
   * B's request with a fresh key, as B's own object, and leave A's untouched.
   */
  readonly mode?: 'same-answer' | 'own-namespace';
  /** How B calls: with its access token (default), with its checkout page token, or publicly. */
  readonly caller?: 'api' | 'checkout-page' | 'public';
  readonly victimId: (w: World) => string;
  readonly unknownId: (w: World) => string | Promise<string>;
  readonly request: (w: World, id: string) => BolaRequest | Promise<BolaRequest>;
  /**
   * The refusal both answers must be (default 400 RECORD_NOT_FOUND), so a row that starts
   * failing on something else (a schema error in its body) is noticed; 200 for list filters.
   */
  readonly expect?: { readonly status: number; readonly code?: string; readonly message?: RegExp };
  /** Read-only rows: A's own request with the same id succeeds (the id is real, the route works). */
  readonly ownerControl?: boolean;
  /**
   * B's own id of the same kind: B's request with it succeeds (200), so the refusal of A's id
   * comes from the slot under test and not from another part of the request.
   */
  readonly callerControl?: (w: World) => string | Promise<string>;
}

const LISTED_NOTHING = { status: 200 } as const;
const NOT_VERIFIED = { status: 400, code: 'IDENTITY_NOT_VERIFIED' } as const;
const NOT_YOUR_SETTLEMENT = {
  status: 400,
  code: 'VALIDATION_ERROR',
  message: /^settlementAccount\.accountNumber must be one of your Active accounts/,
} as const;
const NOT_YOUR_SWEEP = {
  status: 400,
  code: 'VALIDATION_ERROR',
  message: /^autoSweepDetails\.destinationAccountNumber must be another Active account of yours/,
} as const;

const objectIdLike = (pick: (w: World) => string) => (w: World) => unknownIds.objectId(pick(w));
const unknownNuban = (w: World) => unknownAccountNumber(w.testApp.db, w.institutionCode);
const freshReference = (prefix: string) => () => unknownIds.reference(prefix);

/** POST /transfers from B, after B's own name enquiry of the beneficiary. */
async function transferRequest(
  w: World,
  body: Record<string, unknown>,
  headers: Headers = {},
): Promise<BolaRequest> {
  const { sessionId } = await nameEnquiry(
    w.testApp.app,
    w.b.headers,
    OTHER_BANK,
    OTHER_BANK_ACCOUNT,
  );
  return {
    method: 'POST',
    url: '/transfers',
    headers,
    payload: {
      nameEnquiryReference: sessionId,
      debitAccountNumber: w.b.mainAccountNumber,
      beneficiaryBankCode: OTHER_BANK,
      beneficiaryAccountNumber: OTHER_BANK_ACCOUNT,
      amount: 10,
      saveBeneficiary: false,
      narration: 'bola',
      ...body,
    },
  };
}

const VAS_BODIES = {
  airtime: { serviceCategoryId: VAS.mtnAirtime, amount: 100, phoneNumber: '08031234567' },
  data: {
    serviceCategoryId: VAS.mtnData,
    amount: 1500,
    phoneNumber: '08031234567',
    bundleCode: 'mtn-2gb-30d',
  },
  'cable-tv': {
    serviceCategoryId: VAS.dstv,
    amount: 3600,
    bundleCode: 'db1',
    cardNumber: '7012345678',
  },
  utility: {
    serviceCategoryId: VAS.ikeja,
    amount: 5000,
    meterNumber: '45678912345',
    vendType: 'PREPAID',
  },
} as const;

const SUB_ACCOUNT_PATHS = ['/accounts/subaccount', '/accounts/v2/subaccount'] as const;
const IDENTITY_PATHS = ['/identity/v2', '/identity', '/identity/'] as const;
const STATUS_PATHS = ['/transfers/status', '/transfers/tqs'] as const;
const CHECKOUT_VERIFY_PATHS = [
  ['/checkout/{referenceCode}/verify', (code: string) => `/checkout/${code}/verify`],
  ['/checkout/verify/{referenceCode}', (code: string) => `/checkout/verify/${code}`],
] as const;

const MATRIX: readonly BolaRow[] = [
  // Accounts
  {
    method: 'GET',
    path: '/accounts/{id}',
    field: 'path.id',
    ownerControl: true,
    victimId: (w) => w.a.mainAccountId,
    unknownId: objectIdLike((w) => w.a.mainAccountId),
    request: (_w, id) => ({ method: 'GET', url: `/accounts/${id}` }),
  },
  {
    method: 'GET',
    path: '/accounts/{id}',
    field: 'path.id',
    ownerControl: true,
    variant: 'a sub-account',
    victimId: (w) => w.aSub._id,
    unknownId: objectIdLike((w) => w.aSub._id),
    request: (_w, id) => ({ method: 'GET', url: `/accounts/${id}` }),
  },
  {
    method: 'PUT',
    path: '/accounts/{id}',
    field: 'path.id',
    victimId: (w) => w.a.mainAccountId,
    unknownId: objectIdLike((w) => w.a.mainAccountId),
    request: (_w, id) => ({
      method: 'PUT',
      url: `/accounts/${id}`,
      payload: { notificationSettings: { smsNotification: true, emailNotification: false } },
    }),
  },
  {
    method: 'GET',
    path: '/accounts/{id}/statement',
    field: 'path.id',
    ownerControl: true,
    victimId: (w) => w.a.mainAccountId,
    unknownId: objectIdLike((w) => w.a.mainAccountId),
    request: (_w, id) => ({ method: 'GET', url: `/accounts/${id}/statement` }),
  },
  {
    method: 'GET',
    path: '/accounts/{id}/statement',
    field: 'path.id',
    ownerControl: true,
    variant: 'with filters',
    victimId: (w) => w.aSub._id,
    unknownId: objectIdLike((w) => w.aSub._id),
    request: (_w, id) => ({
      method: 'GET',
      url: `/accounts/${id}/statement?type=Credit&fromDate=2020-01-01&limit=5`,
    }),
  },
  {
    method: 'GET',
    path: '/accounts/{id}/liens',
    field: 'path.id',
    victimId: (w) => w.a.mainAccountId,
    unknownId: objectIdLike((w) => w.a.mainAccountId),
    request: (_w, id) => ({ method: 'GET', url: `/accounts/${id}/liens` }),
  },
  {
    method: 'PUT',
    path: '/accounts/{id}/subaccount',
    field: 'path.id',
    victimId: (w) => w.aSub._id,
    unknownId: objectIdLike((w) => w.aSub._id),
    request: (_w, id) => ({
      method: 'PUT',
      url: `/accounts/${id}/subaccount`,
      payload: {
        phoneNumber: '+2348000000001',
        emailAddress: 'bob@example.com',
        metadata: { takenOverBy: 'bob' },
        callbackUrl: 'https://bob.example.com/hooks',
      },
    }),
  },
  {
    method: 'PUT',
    path: '/accounts/{id}/subaccount',
    field: 'body.autoSweepDetails.destinationAccountNumber',
    variant: "B's own sub-account sweeping into A's account",
    expect: NOT_YOUR_SWEEP,
    callerControl: (w) => w.b.mainAccountNumber,
    victimId: (w) => w.a.mainAccountNumber,
    unknownId: unknownNuban,
    request: (w, id) => ({
      method: 'PUT',
      url: `/accounts/${w.bSub._id}/subaccount`,
      payload: { autoSweep: true, autoSweepDetails: { destinationAccountNumber: id } },
    }),
  },
  {
    method: 'PUT',
    path: '/accounts/{id}/subaccount',
    field: 'body.identityId',
    variant: "B's own sub-account claiming A's verification",
    expect: { status: 400, code: 'VALIDATION_ERROR', message: /identity cannot change/ },
    callerControl: (w) => w.bVerifiedId,
    victimId: (w) => w.aVerifiedId,
    unknownId: objectIdLike((w) => w.aVerifiedId),
    request: (w, id) => ({
      method: 'PUT',
      url: `/accounts/${w.bSub._id}/subaccount`,
      payload: { identityType: 'BVN', identityId: id },
    }),
  },
  {
    method: 'PUT',
    path: '/accounts/{id}/subaccount',
    field: 'body.externalReference',
    mode: 'own-namespace',
    variant: "B's own sub-account takes A's externalReference",
    victimId: (w) => w.aSub.externalReference,
    unknownId: freshReference('EXT'),
    request: (w, id) => ({
      method: 'PUT',
      url: `/accounts/${w.bSub._id}/subaccount`,
      payload: { externalReference: id },
    }),
  },
  ...SUB_ACCOUNT_PATHS.flatMap((path): BolaRow[] => [
    {
      method: 'POST',
      path,
      field: 'body.identityId',
      expect: NOT_VERIFIED,
      callerControl: (w) => w.bVerifiedId,
      victimId: (w) => w.aVerifiedId,
      unknownId: objectIdLike((w) => w.aVerifiedId),
      request: (_w, id) => ({
        method: 'POST',
        url: path,
        payload: individualSubAccountBody(id, { externalReference: `BOLA-SUB-IDENTITY${path}` }),
      }),
    },
    {
      method: 'POST',
      path,
      field: 'body.identityId',
      variant: "A's pending verification, validated with the OTP in the same request",
      expect: NOT_VERIFIED,
      victimId: (w) => w.aPendingId,
      unknownId: objectIdLike((w) => w.aPendingId),
      request: (_w, id) => ({
        method: 'POST',
        url: path,
        payload: individualSubAccountBody(id, {
          externalReference: `BOLA-SUB-PENDING${path}`,
          otp: SANDBOX_OTP,
        }),
      }),
    },
    {
      method: 'POST',
      path,
      field: 'body.autoSweepDetails.destinationAccountNumber',
      expect: NOT_YOUR_SWEEP,
      callerControl: (w) => w.b.mainAccountNumber,
      victimId: (w) => w.a.mainAccountNumber,
      unknownId: unknownNuban,
      request: (w, id) => ({
        method: 'POST',
        url: path,
        payload: individualSubAccountBody(w.bVerifiedId, {
          externalReference: `BOLA-SUB-SWEEP${path}`,
          autoSweepDetails: { destinationAccountNumber: id },
        }),
      }),
    },
    {
      method: 'POST',
      path,
      field: 'body.directorIdentityIds',
      expect: NOT_VERIFIED,
      callerControl: (w) => w.bDirectorId,
      victimId: (w) => w.aDirectorId,
      unknownId: objectIdLike((w) => w.aDirectorId),
      request: (w, id) => ({
        method: 'POST',
        url: path,
        payload: {
          phoneNumber: '+2348112345678',
          emailAddress: 'ops@bob.example.com',
          externalReference: `BOLA-SUB-CORPORATE${path}`,
          identityType: 'CAC',
          identityId: w.bCacId,
          directorIdentityIds: [id],
        },
      }),
    },
    {
      method: 'POST',
      path,
      field: 'body.externalReference',
      mode: 'own-namespace',
      victimId: (w) => w.aSub.externalReference,
      unknownId: freshReference('EXT'),
      request: (w, id) => ({
        method: 'POST',
        url: path,
        payload: individualSubAccountBody(w.bVerifiedId, { externalReference: id }),
      }),
    },
  ]),

  // Identity
  ...IDENTITY_PATHS.map(
    (path): BolaRow => ({
      method: 'POST',
      path,
      field: 'body.debitAccountNumber',
      callerControl: (w) => w.b.mainAccountNumber,
      victimId: (w) => w.a.mainAccountNumber,
      unknownId: unknownNuban,
      request: (_w, id) => ({
        method: 'POST',
        url: path,
        // CAC: verified at once, so no pending verification is left behind (send-otp's row).
        payload: { type: 'CAC', number: 'RC1234567', debitAccountNumber: id },
      }),
    }),
  ),
  {
    method: 'POST',
    path: '/identity/v2',
    field: 'body.debitAccountNumber',
    variant: "A's sub-account",
    victimId: (w) => w.aSub.accountNumber,
    unknownId: unknownNuban,
    request: (_w, id) => ({
      method: 'POST',
      url: '/identity/v2',
      payload: { type: 'CAC', number: 'RC1234567', debitAccountNumber: id },
    }),
  },
  {
    method: 'POST',
    path: '/identity/v2/validate',
    field: 'body.identityId',
    victimId: (w) => w.aPendingId,
    unknownId: objectIdLike((w) => w.aPendingId),
    request: (_w, id) => ({
      method: 'POST',
      url: '/identity/v2/validate',
      payload: { identityId: id, type: 'BVN', otp: SANDBOX_OTP },
    }),
  },
  {
    method: 'POST',
    path: '/identity/v2/validate',
    field: 'body.identityId',
    variant: 'a wrong OTP (would count against A)',
    victimId: (w) => w.aPendingId,
    unknownId: objectIdLike((w) => w.aPendingId),
    request: (_w, id) => ({
      method: 'POST',
      url: '/identity/v2/validate',
      payload: { identityId: id, type: 'BVN', otp: '000000' },
    }),
  },
  {
    method: 'POST',
    path: '/identity/send-otp',
    field: 'body.number',
    variant: "the number of A's pending verification",
    victimId: () => SANDBOX_BVN,
    unknownId: () => '22298765430',
    request: (_w, id) => ({ method: 'POST', url: '/identity/send-otp', payload: { number: id } }),
  },

  // Transfers
  {
    method: 'GET',
    path: '/transfers',
    field: 'query.accountId',
    expect: LISTED_NOTHING,
    ownerControl: true,
    victimId: (w) => w.a.mainAccountId,
    unknownId: objectIdLike((w) => w.a.mainAccountId),
    request: (_w, id) => ({ method: 'GET', url: `/transfers?accountId=${id}` }),
  },
  ...STATUS_PATHS.flatMap((path): BolaRow[] => [
    {
      method: 'POST',
      path,
      field: 'body.sessionId',
      ownerControl: true,
      victimId: (w) => w.aTransfer.sessionId,
      unknownId: (w) => unknownIds.nipSessionId(w.aTransfer.sessionId),
      request: (_w, id) => ({ method: 'POST', url: path, payload: { sessionId: id } }),
    },
    {
      method: 'POST',
      path,
      field: 'body.sessionId',
      ownerControl: true,
      variant: 'an inbound credit',
      victimId: (w) => w.aCreditSessionId,
      unknownId: (w) => unknownIds.nipSessionId(w.aCreditSessionId),
      request: (_w, id) => ({ method: 'POST', url: path, payload: { sessionId: id } }),
    },
    {
      method: 'POST',
      path,
      field: 'body.paymentReference',
      ownerControl: true,
      victimId: (w) => w.aTransfer.paymentReference,
      unknownId: freshReference('PAY'),
      request: (_w, id) => ({ method: 'POST', url: path, payload: { paymentReference: id } }),
    },
  ]),
  {
    method: 'POST',
    path: '/transfers',
    field: 'body.debitAccountNumber',
    callerControl: (w) => w.b.mainAccountNumber,
    victimId: (w) => w.a.mainAccountNumber,
    unknownId: unknownNuban,
    request: (w, id) => transferRequest(w, { debitAccountNumber: id }),
  },
  {
    method: 'POST',
    path: '/transfers',
    field: 'body.debitAccountNumber',
    variant: "A's sub-account, intra-bank to B",
    victimId: (w) => w.aSub.accountNumber,
    unknownId: unknownNuban,
    request: async (w, id) => {
      const enquiry = await nameEnquiry(
        w.testApp.app,
        w.b.headers,
        w.institutionCode,
        w.b.mainAccountNumber,
      );
      return {
        method: 'POST',
        url: '/transfers',
        payload: {
          nameEnquiryReference: enquiry.sessionId,
          debitAccountNumber: id,
          beneficiaryBankCode: w.institutionCode,
          beneficiaryAccountNumber: w.b.mainAccountNumber,
          amount: 10,
          saveBeneficiary: false,
        },
      };
    },
  },
  {
    method: 'POST',
    path: '/transfers',
    field: 'body.debitAccountNumber',
    variant: "A's virtual account",
    victimId: (w) => w.aVirtualAccount.accountNumber,
    unknownId: unknownNuban,
    request: (w, id) => transferRequest(w, { debitAccountNumber: id }),
  },
  {
    method: 'POST',
    path: '/transfers',
    field: 'body.nameEnquiryReference',
    expect: { status: 400, code: 'NAME_ENQUIRY_INVALID' },
    callerControl: async (w) =>
      (await nameEnquiry(w.testApp.app, w.b.headers, OTHER_BANK, OTHER_BANK_ACCOUNT)).sessionId,
    victimId: (w) => w.aNameEnquiryReference,
    unknownId: (w) => unknownIds.nipSessionId(w.aNameEnquiryReference),
    request: (w, id) => transferRequest(w, { nameEnquiryReference: id }),
  },
  {
    method: 'POST',
    path: '/transfers',
    field: 'body.paymentReference',
    mode: 'own-namespace',
    victimId: (w) => w.aTransfer.paymentReference,
    unknownId: freshReference('PAY'),
    request: (w, id) => transferRequest(w, { paymentReference: id }),
  },
  {
    method: 'POST',
    path: '/transfers',
    field: 'header.idempotency-key',
    mode: 'own-namespace',
    victimId: (w) => w.aIdempotencyKey,
    unknownId: freshReference('IDEM'),
    request: (w, id) => transferRequest(w, {}, { 'idempotency-key': id }),
  },
  {
    method: 'DELETE',
    path: '/transfers/beneficiaries/{id}',
    field: 'path.id',
    victimId: (w) => w.aBeneficiaryId,
    unknownId: objectIdLike((w) => w.aBeneficiaryId),
    request: (_w, id) => ({ method: 'DELETE', url: `/transfers/beneficiaries/${id}` }),
  },
  {
    method: 'GET',
    path: '/transfers/bulk/{id}',
    field: 'path.id',
    ownerControl: true,
    // Bulk payouts are an extension with a not-found of their own (docs/bulk-payouts.md).
    expect: { status: 404, code: 'BULK_BATCH_NOT_FOUND' },
    victimId: (w) => w.aBulkBatchId,
    unknownId: objectIdLike((w) => w.aBulkBatchId),
    request: (_w, id) => ({ method: 'GET', url: `/transfers/bulk/${id}` }),
  },

  // Virtual accounts
  {
    method: 'POST',
    path: '/virtual-accounts',
    field: 'body.settlementAccount.accountNumber',
    expect: NOT_YOUR_SETTLEMENT,
    callerControl: (w) => w.b.mainAccountNumber,
    victimId: (w) => w.a.mainAccountNumber,
    unknownId: unknownNuban,
    request: (_w, id) => ({
      method: 'POST',
      url: '/virtual-accounts',
      payload: virtualAccountBody(id, { externalReference: 'BOLA-VA-SETTLE' }),
    }),
  },
  {
    method: 'POST',
    path: '/virtual-accounts',
    field: 'body.externalReference',
    mode: 'own-namespace',
    victimId: (w) => w.aVirtualAccount.externalReference,
    unknownId: freshReference('VA'),
    request: (w, id) => ({
      method: 'POST',
      url: '/virtual-accounts',
      payload: virtualAccountBody(w.b.mainAccountNumber, { externalReference: id }),
    }),
  },
  {
    method: 'GET',
    path: '/virtual-accounts',
    field: 'query.externalReference',
    expect: LISTED_NOTHING,
    ownerControl: true,
    victimId: (w) => w.aVirtualAccount.externalReference,
    unknownId: freshReference('VA'),
    request: (_w, id) => ({
      method: 'GET',
      url: `/virtual-accounts?externalReference=${encodeURIComponent(id)}`,
    }),
  },
  ...(['GET', 'PUT', 'DELETE'] as const).map(
    (method): BolaRow => ({
      method,
      path: '/virtual-accounts/{id}',
      field: 'path.id',
      ownerControl: method === 'GET',
      victimId: (w) => w.aVirtualAccount._id,
      unknownId: objectIdLike((w) => w.aVirtualAccount._id),
      request: (_w, id) => ({
        method,
        url: `/virtual-accounts/${id}`,
        ...(method === 'PUT' ? { payload: { callbackUrl: 'https://bob.example.com/va' } } : {}),
      }),
    }),
  ),
  {
    method: 'GET',
    path: '/virtual-accounts/{id}/transaction',
    field: 'path.id',
    variant: 'a paid one',
    ownerControl: true,
    victimId: (w) => w.aPaidVirtualAccountId,
    unknownId: objectIdLike((w) => w.aPaidVirtualAccountId),
    request: (_w, id) => ({ method: 'GET', url: `/virtual-accounts/${id}/transaction` }),
  },
  {
    method: 'POST',
    path: '/virtual-accounts/status',
    field: 'body.sessionId',
    ownerControl: true,
    victimId: (w) => w.aVirtualAccountPaymentSessionId,
    unknownId: (w) => unknownIds.nipSessionId(w.aVirtualAccountPaymentSessionId),
    request: (_w, id) => ({
      method: 'POST',
      url: '/virtual-accounts/status',
      payload: { sessionId: id },
    }),
  },

  // USSD
  {
    method: 'POST',
    path: '/ussd-payment',
    field: 'body.settlementAccount.accountNumber',
    expect: NOT_YOUR_SETTLEMENT,
    callerControl: (w) => w.b.mainAccountNumber,
    victimId: (w) => w.a.mainAccountNumber,
    unknownId: unknownNuban,
    request: (_w, id) => ({ method: 'POST', url: '/ussd-payment', payload: ussdReferenceBody(id) }),
  },
  {
    method: 'GET',
    path: '/ussd-payment/{reference}',
    field: 'path.reference',
    ownerControl: true,
    victimId: (w) => w.aUssdReference,
    unknownId: () => unknownIds.ussdReference(),
    request: (_w, id) => ({ method: 'GET', url: `/ussd-payment/${id}` }),
  },

  // VAS
  ...(Object.keys(VAS_BODIES) as (keyof typeof VAS_BODIES)[]).map(
    (service): BolaRow => ({
      method: 'POST',
      path: `/vas/pay/${service}`,
      field: 'body.debitAccountNumber',
      callerControl: (w) => w.b.mainAccountNumber,
      victimId: (w) => w.a.mainAccountNumber,
      unknownId: unknownNuban,
      request: (_w, id) => ({
        method: 'POST',
        url: `/vas/pay/${service}`,
        payload: { channel: 'WEB', ...VAS_BODIES[service], debitAccountNumber: id },
      }),
    }),
  ),
  {
    method: 'POST',
    path: '/vas/pay/airtime',
    field: 'header.idempotency-key',
    mode: 'own-namespace',
    victimId: (w) => w.aVasIdempotencyKey,
    unknownId: freshReference('IDEM'),
    request: (w, id) => ({
      method: 'POST',
      url: '/vas/pay/airtime',
      headers: { 'idempotency-key': id },
      payload: { channel: 'WEB', ...VAS_BODIES.airtime, debitAccountNumber: w.b.mainAccountNumber },
    }),
  },
  {
    method: 'GET',
    path: '/vas/transaction/{id}',
    field: 'path.id',
    ownerControl: true,
    victimId: (w) => w.aVasPurchase.id,
    unknownId: objectIdLike((w) => w.aVasPurchase.id),
    request: (_w, id) => ({ method: 'GET', url: `/vas/transaction/${id}` }),
  },
  {
    method: 'GET',
    path: '/vas/transaction/{id}',
    field: 'path.id',
    variant: "the purchase's reference",
    victimId: (w) => w.aVasPurchase.reference,
    unknownId: (w) => w.aVasPurchase.reference.replace(/.{8}$/, 'feedbeef'),
    request: (_w, id) => ({ method: 'GET', url: `/vas/transaction/${id}` }),
  },
  {
    method: 'GET',
    path: '/vas/transactions',
    field: 'query.debitAccountNumber',
    expect: LISTED_NOTHING,
    ownerControl: true,
    victimId: (w) => w.a.mainAccountNumber,
    unknownId: unknownNuban,
    request: (_w, id) => ({ method: 'GET', url: `/vas/transactions?debitAccountNumber=${id}` }),
  },

  // Checkout: the merchant's verify (access token) and the hosted page (page token)
  ...CHECKOUT_VERIFY_PATHS.map(
    ([path, url]): BolaRow => ({
      method: 'GET',
      path,
      field: 'path.referenceCode',
      ownerControl: true,
      victimId: (w) => w.aCheckout.referenceCode,
      unknownId: freshReference('CHK'),
      request: (_w, id) => ({ method: 'GET', url: url(id) }),
    }),
  ),
  {
    method: 'GET',
    path: '/checkout/sessions/{id}',
    field: 'path.id',
    caller: 'checkout-page',
    ownerControl: true,
    victimId: (w) => w.aCheckout.id,
    unknownId: objectIdLike((w) => w.aCheckout.id),
    request: (_w, id) => ({ method: 'GET', url: `/checkout/sessions/${id}` }),
  },
  ...(
    [
      ['bank-transfer', undefined],
      ['ussd', { ussdBankCode: '737' }],
      ['simulate', { method: 'BANK_TRANSFER' }],
    ] as const
  ).map(
    ([action, payload]): BolaRow => ({
      method: 'POST',
      path: `/checkout/sessions/{id}/${action}`,
      field: 'path.id',
      caller: 'checkout-page',
      victimId: (w) => w.aCheckout.id,
      unknownId: objectIdLike((w) => w.aCheckout.id),
      request: (_w, id) => ({
        method: 'POST',
        url: `/checkout/sessions/${id}/${action}`,
        ...(payload === undefined ? {} : { payload: { ...payload } }),
      }),
    }),
  ),
  {
    method: 'POST',
    path: '/checkout/sessions',
    field: 'body.settlementAccount.accountNumber',
    caller: 'public',
    variant: "B's widget config paying into A's account",
    expect: NOT_YOUR_SETTLEMENT,
    callerControl: (w) => w.b.mainAccountNumber,
    victimId: (w) => w.a.mainAccountNumber,
    unknownId: unknownNuban,
    request: (w, id) => ({
      method: 'POST',
      url: '/checkout/sessions',
      payload: checkoutBody(w.b.oauthClientId, 'BOLA-CHK-SETTLE', id),
    }),
  },
  {
    method: 'POST',
    path: '/checkout/sessions',
    field: 'body.referenceCode',
    caller: 'public',
    mode: 'own-namespace',
    victimId: (w) => w.aCheckout.referenceCode,
    unknownId: freshReference('CHK'),
    request: (w, id) => ({
      method: 'POST',
      url: '/checkout/sessions',
      payload: checkoutBody(w.b.oauthClientId, id, w.b.mainAccountNumber),
    }),
  },

  // Webhooks
  {
    method: 'GET',
    path: '/webhooks/deliveries/{id}',
    field: 'path.id',
    ownerControl: true,
    victimId: (w) => w.aEventId,
    unknownId: () => unknownIds.eventId(),
    request: (_w, id) => ({ method: 'GET', url: `/webhooks/deliveries/${id}` }),
  },
  {
    method: 'POST',
    path: '/webhooks/deliveries/{id}/replay',
    field: 'path.id',
    victimId: (w) => w.aEventId,
    unknownId: () => unknownIds.eventId(),
    request: (_w, id) => ({ method: 'POST', url: `/webhooks/deliveries/${id}/replay` }),
  },
];

/**
 * Fields that name something but are not a client's object, each with the reason. Keys are
 * `METHOD path field`, as the coverage test builds them.
 */
const EXEMPT: Readonly<Record<string, string>> = {
  'POST /transfers body.beneficiaryAccountNumber':
    'paying any account, at any bank, is what a transfer is for',
  'POST /transfers/name-enquiry body.accountNumber':
    "name enquiry resolves any bank's account by design (NIP); it is throttled per client and its misses by the enumeration guard",
  'POST /vas/verify body.serviceCategoryId':
    'the VAS catalogue is published, shared by every client',
  'GET /vas/service/{id} path.id': 'the VAS catalogue is published, shared by every client',
  'GET /vas/service/{id}/service-categories path.id':
    'the VAS catalogue is published, shared by every client',
  'GET /vas/service-category/{id}/products path.id':
    'the VAS catalogue is published, shared by every client',
  'POST /vas/pay/airtime body.serviceCategoryId': 'the published VAS catalogue',
  'POST /vas/pay/data body.serviceCategoryId': 'the published VAS catalogue',
  'POST /vas/pay/cable-tv body.serviceCategoryId': 'the published VAS catalogue',
  'POST /vas/pay/utility body.serviceCategoryId': 'the published VAS catalogue',
  'POST /identity/v2 body.number':
    "an identity number is a person's or a company's, not a client's object; any client may verify it at its own cost",
  'POST /identity body.number': 'as POST /identity/v2',
  'POST /identity/ body.number': 'as POST /identity/v2',
  'POST /identity/v2 body.verifierId': "the NIMC verifier's id (vNIN), not a client's object",
  'POST /identity body.verifierId': 'as POST /identity/v2',
  'POST /identity/ body.verifierId': 'as POST /identity/v2',
  'POST /checkout/sessions body.clientId':
    'the public OAuth client id the widget carries; a session opened with it pays only that client (checked below)',
};

function checkoutBody(oauthClientId: string, referenceCode: string, accountNumber: string) {
  return {
    environment: 'sandbox',
    clientId: oauthClientId,
    referenceCode,
    customer: { firstName: 'Ada', lastName: 'Obi', emailAddress: 'ada.obi@example.com' },
    currency: 'NGN',
    amount: 2500,
    settlementAccount: { bankCode: '999240', accountNumber },
  };
}

/** `METHOD path field` of every id-taking part of a public operation, from /openapi.json. */
const ID_FIELD =
  /^(id|_id)$|Ids?$|^accountNumber$|AccountNumber$|^reference$|Reference$|^referenceCode$|^sessionId$|^number$/;

function rowKey(row: Pick<BolaRow, 'method' | 'path' | 'field'>): string {
  return `${row.method} ${row.path} ${row.field}`;
}

describe('security: BOLA matrix (client B with client A’s ids)', () => {
  let w: World | undefined;
  const world = () => {
    assert.ok(w, 'the world is built in before()');
    return w;
  };

  before(async () => {
    const testApp = await buildSecurityApp();
    const { app } = testApp;
    const partyOf = (signed: Awaited<ReturnType<typeof signedInClient>>): Party => ({
      headers: signed.headers,
      ibsClientId: signed.client.ibsClientId,
      oauthClientId: signed.client.oauthClientId,
      mainAccountId: signed.client.mainAccountId,
      mainAccountNumber: signed.client.mainAccountNumber,
    });
    const a = partyOf(await signedInClient(testApp, 'Alpha Victim Ltd', 0));
    const b = partyOf(await signedInClient(testApp, 'Bravo Attacker Ltd', 1));
    const aCredit = await sandboxCredit(app, a.mainAccountNumber, 500_000);
    await sandboxCredit(app, b.mainAccountNumber, 500_000);

    // A's identity checks: one validated (behind A's sub-account), one pending, a director's.
    const aVerifiedId = await verifyIdentity(app, a.headers, {
      type: 'BVN',
      number: SANDBOX_BVN,
      debitAccountNumber: a.mainAccountNumber,
    });
    const aSubResponse = await app.inject({
      method: 'POST',
      url: '/accounts/subaccount',
      headers: a.headers,
      payload: individualSubAccountBody(aVerifiedId, { externalReference: 'A-SUB-1' }),
    });
    assert.equal(aSubResponse.statusCode, 200, aSubResponse.body);
    const aSub = aSubResponse.json().data;
    await sandboxCredit(app, aSub.accountNumber, 1_000);
    const aPendingId = await verifyIdentity(
      app,
      a.headers,
      { type: 'BVN', number: SANDBOX_BVN, debitAccountNumber: a.mainAccountNumber },
      false,
    );
    // A director of RC1234567 (docs/sandbox-identity.md).
    const aDirectorId = await verifyIdentity(app, a.headers, {
      type: 'BVN',
      number: '21012345671',
      debitAccountNumber: a.mainAccountNumber,
    });

    // B's own verifications and sub-account, for requests that need them.
    const bVerifiedId = await verifyIdentity(app, b.headers, {
      type: 'BVN',
      number: SANDBOX_BVN,
      debitAccountNumber: b.mainAccountNumber,
    });
    const bCacId = await verifyIdentity(app, b.headers, {
      type: 'CAC',
      number: 'RC1234567',
      debitAccountNumber: b.mainAccountNumber,
    });
    const bDirectorId = await verifyIdentity(app, b.headers, {
      type: 'BVN',
      number: '21012345671',
      debitAccountNumber: b.mainAccountNumber,
    });
    const bSubResponse = await app.inject({
      method: 'POST',
      url: '/accounts/subaccount',
      headers: b.headers,
      payload: individualSubAccountBody(bVerifiedId, { externalReference: 'B-SUB-1' }),
    });
    assert.equal(bSubResponse.statusCode, 200, bSubResponse.body);
    const bSub = bSubResponse.json().data;

    // A's transfer to another bank, saved as a beneficiary, with a reference and a key.
    const sent = await sendTransfer(
      app,
      { ...a.headers, 'idempotency-key': 'A-IDEM-1' },
      {
        debitAccountNumber: a.mainAccountNumber,
        amount: 100,
        paymentReference: 'A-PAY-1',
        saveBeneficiary: true,
      },
    );
    assert.equal(sent.statusCode, 200, sent.body);
    const aTransfer = sent.json().data;
    assert.equal(aTransfer.status, 'Completed', sent.body);
    const beneficiaries = await app.inject({
      method: 'GET',
      url: '/transfers/beneficiaries',
      headers: a.headers,
    });
    const aBeneficiaryId = beneficiaries.json().data[0]?._id;
    assert.ok(aBeneficiaryId, beneficiaries.body);
    const aNameEnquiry = await nameEnquiry(app, a.headers, OTHER_BANK, OTHER_BANK_ACCOUNT);

    // A's virtual accounts: one open, one paid.
    const aVirtualAccount = await createVirtualAccount(app, a.headers, a.mainAccountNumber, {
      externalReference: 'A-VA-1',
    });
    const paidVirtualAccount = await createVirtualAccount(app, a.headers, a.mainAccountNumber, {
      amount: 20,
      externalReference: 'A-VA-PAID',
    });
    const paid = await payVirtualAccount(app, paidVirtualAccount.accountNumber, 20);
    assert.equal(paid.statusCode, 201, paid.body);

    const aUssd = await createUssdReference(app, a.headers, a.mainAccountNumber);
    const aCheckout = await openCheckoutSession(
      app,
      { oauthClientId: a.oauthClientId, accountNumber: a.mainAccountNumber },
      'A-CHK-1',
      { remoteAddress: '198.51.100.10' },
    );
    const bCheckout = await openCheckoutSession(
      app,
      { oauthClientId: b.oauthClientId, accountNumber: b.mainAccountNumber },
      'B-CHK-1',
      { remoteAddress: '198.51.100.11' },
    );
    const bought = await vasPurchase(
      app,
      a.headers,
      'airtime',
      { ...VAS_BODIES.airtime, debitAccountNumber: a.mainAccountNumber },
      { 'idempotency-key': 'A-VAS-IDEM-1' },
    );
    assert.equal(bought.statusCode, 200, bought.body);
    const aEvent = await creditWebhookEvent(app, a.headers, a.mainAccountNumber);
    // A's bulk payout: one transfer to its own sub-account.
    const bulk = await app.inject({
      method: 'POST',
      url: '/transfers/bulk',
      headers: { ...a.headers, 'idempotency-key': 'A-BULK-1' },
      payload: {
        transfers: [
          {
            debitAccountNumber: a.mainAccountNumber,
            beneficiaryBankCode: testApp.config.institutionCode,
            beneficiaryAccountNumber: aSub.accountNumber,
            amount: 1,
            paymentReference: 'A-BULK-PAY-1',
          },
        ],
      },
    });
    assert.equal(bulk.statusCode, 202, bulk.body);
    const aBulkBatchId: string = bulk.json().data._id;

    w = {
      testApp,
      institutionCode: testApp.config.institutionCode,
      a,
      b,
      aSub,
      bSub,
      aVerifiedId,
      aPendingId,
      aDirectorId,
      bVerifiedId,
      bCacId,
      bDirectorId,
      aTransfer,
      aIdempotencyKey: 'A-IDEM-1',
      aCreditSessionId: aCredit.sessionId,
      aNameEnquiryReference: aNameEnquiry.sessionId,
      aBeneficiaryId,
      aVirtualAccount: {
        _id: aVirtualAccount._id,
        accountNumber: aVirtualAccount.accountNumber,
        externalReference: aVirtualAccount.externalReference ?? 'A-VA-1',
      },
      aVirtualAccountPaymentSessionId: paid.json().data.sessionId,
      aPaidVirtualAccountId: paidVirtualAccount._id,
      aUssdReference: aUssd.reference,
      aCheckout,
      bCheckout,
      aVasPurchase: { id: bought.json().data.id, reference: bought.json().data.reference },
      aVasIdempotencyKey: 'A-VAS-IDEM-1',
      aEventId: aEvent._id,
      aBulkBatchId,
      aBalancesAtStart: await balancesOfA({ testApp, a }),
      aIdentifiers: [
        a.ibsClientId,
        a.oauthClientId,
        a.mainAccountId,
        a.mainAccountNumber,
        aSub._id,
        aSub.accountNumber,
        aVerifiedId,
        aPendingId,
        aDirectorId,
        aTransfer._id,
        aTransfer.sessionId,
        aBeneficiaryId,
        aVirtualAccount._id,
        aVirtualAccount.accountNumber,
        paidVirtualAccount._id,
        paidVirtualAccount.accountNumber,
        aUssd._id,
        aCheckout.id,
        bought.json().data.id,
        aEvent._id,
        aBulkBatchId,
      ],
    };
  });
  after(() => w?.testApp.close());

  /** The request as B sends it (or, for the owner control, as A does). */
  async function send(
    row: BolaRow,
    request: BolaRequest,
    as: 'a' | 'b' = 'b',
  ): Promise<LightMyRequestResponse> {
    const current = world();
    const { testApp } = current;
    const auth =
      row.caller === 'checkout-page'
        ? { 'x-checkout-token': as === 'a' ? current.aCheckout.token : current.bCheckout.token }
        : row.caller === 'public'
          ? {}
          : current[as].headers;
    return testApp.app.inject({
      method: request.method,
      url: request.url,
      headers: { ...auth, ...request.headers },
      remoteAddress: '203.0.113.66',
      ...(request.payload === undefined ? {} : { payload: request.payload }),
    });
  }

  const answer = (response: LightMyRequestResponse) => ({
    status: response.statusCode,
    body: safeJson(response) ?? response.body,
  });

  function assertNoneOfAs(response: LightMyRequestResponse, label: string, allowed: string[] = []) {
    const leaked = world().aIdentifiers.filter(
      (identifier) => !allowed.includes(identifier) && response.body.includes(identifier),
    );
    assert.deepEqual(leaked, [], `${label}: the answer shows A's identifiers: ${response.body}`);
  }

  describe('B with A’s id answers exactly as B with an unknown id, and changes nothing', () => {
    for (const row of MATRIX.filter((entry) => (entry.mode ?? 'same-answer') === 'same-answer')) {
      const label = `${rowKey(row)}${row.variant === undefined ? '' : ` (${row.variant})`}`;
      it(label, async () => {
        const current = world();
        const victimRequest = await row.request(current, row.victimId(current));
        const unknownRequest = await row.request(current, await row.unknownId(current));

        const before = await databaseFingerprint(current.testApp.db);
        const victimResponse = await send(row, victimRequest);
        const afterVictim = await databaseFingerprint(current.testApp.db);
        const unknownResponse = await send(row, unknownRequest);
        const afterUnknown = await databaseFingerprint(current.testApp.db);

        assert.ok(
          victimResponse.statusCode < 500,
          `a server error is never an answer: ${victimResponse.body}`,
        );
        assert.deepEqual(
          changedTables(before, afterVictim),
          [],
          `B's call with A's id changed the database (${victimResponse.statusCode} ${victimResponse.body})`,
        );
        assert.deepEqual(
          answer(victimResponse),
          answer(unknownResponse),
          "B's answer for A's id differs from its answer for an unknown id",
        );
        assert.deepEqual(
          changedTables(afterVictim, afterUnknown),
          [],
          'the unknown id changed the database',
        );
        assertNoneOfAs(victimResponse, label, [row.victimId(current)]);
        const expected = row.expect ?? { status: 400, code: 'RECORD_NOT_FOUND' };
        assert.equal(victimResponse.statusCode, expected.status, victimResponse.body);
        const body = safeJson(victimResponse);
        if (expected.status >= 400) {
          assert.equal(body?.code, expected.code, victimResponse.body);
          assert.equal(body?.data, undefined, 'a refusal carries no data');
          if (expected.message !== undefined) {
            assert.match(String(body?.message), expected.message);
          }
        } else {
          assert.deepEqual(body?.data, [], "a filter on A's id lists nothing to B");
        }
        if (row.callerControl !== undefined) {
          const own = await send(row, await row.request(current, await row.callerControl(current)));
          assert.equal(own.statusCode, 200, `caller control: B's own id in the slot: ${own.body}`);
        }
        if (row.ownerControl === true) {
          const own = await send(row, victimRequest, 'a');
          assert.ok(own.statusCode === 200, `owner control: A's own call answers ${own.body}`);
          const ownData = safeJson(own)?.data;
          assert.ok(
            !Array.isArray(ownData) || ownData.length > 0,
            `owner control: A's own filter lists A's objects: ${own.body}`,
          );
        }
      });
    }
  });

  describe("the caller's own keys: B with A's key does B's own thing, never A's", () => {
    for (const row of MATRIX.filter((entry) => entry.mode === 'own-namespace')) {
      const label = `${rowKey(row)}${row.variant === undefined ? '' : ` (${row.variant})`}`;
      it(label, async () => {
        const current = world();
        const victimRequest = await row.request(current, row.victimId(current));
        const freshRequest = await row.request(current, await row.unknownId(current));

        const victimBefore = await clientFingerprint(current.testApp.db, current.a.ibsClientId);
        const victimResponse = await send(row, victimRequest);
        const freshResponse = await send(row, freshRequest);
        const victimAfter = await clientFingerprint(current.testApp.db, current.a.ibsClientId);

        assert.equal(victimResponse.statusCode, 200, victimResponse.body);
        assert.equal(freshResponse.statusCode, 200, freshResponse.body);
        const victimBody = victimResponse.json();
        assert.equal(victimBody.message, freshResponse.json().message);
        const data = victimBody.data ?? {};
        for (const field of ['client', 'clientId']) {
          if (typeof data[field] === 'string') {
            assert.equal(data[field], current.b.ibsClientId, `${field} of the object B got`);
          }
        }
        assertNoneOfAs(victimResponse, label);
        assert.equal(victimAfter, victimBefore, "B's request with A's key changed A's objects");
      });
    }
  });

  describe('the checkout page token opens its own session only', () => {
    const pageRoutes = ['', '/bank-transfer', '/ussd', '/simulate'] as const;
    const payloadFor = (path: (typeof pageRoutes)[number]) =>
      path === '/ussd'
        ? { ussdBankCode: '737' }
        : path === '/simulate'
          ? { method: 'BANK_TRANSFER' }
          : path === '/bank-transfer'
            ? {}
            : undefined;

    it("control: A's session with A's token answers 200", async () => {
      const { testApp, aCheckout } = world();
      const response = await checkoutPageCall(testApp.app, aCheckout, '');
      assert.equal(response.statusCode, 200, response.body);
    });

    for (const path of pageRoutes) {
      it(`${path === '' ? 'GET' : 'POST'} /checkout/sessions/{id}${path}: no token, a wrong token, or A's token on another session is the unknown-session answer`, async () => {
        const current = world();
        const unknown = unknownIds.objectId(current.aCheckout.id);
        const tokens: [string, Headers][] = [
          ['no token', {}],
          ['an empty token', { 'x-checkout-token': '' }],
          ['a made-up token', { 'x-checkout-token': 'A'.repeat(43) }],
          ["B's session token", { 'x-checkout-token': current.bCheckout.token }],
        ];
        const call = (id: string, headers: Headers) =>
          current.testApp.app.inject({
            method: path === '' ? 'GET' : 'POST',
            url: `/checkout/sessions/${id}${path}`,
            headers,
            remoteAddress: '203.0.113.67',
            ...(payloadFor(path) === undefined ? {} : { payload: payloadFor(path) }),
          });
        const before = await databaseFingerprint(current.testApp.db);
        for (const [label, headers] of tokens) {
          const victim = await call(current.aCheckout.id, headers);
          const other = await call(unknown, headers);
          assert.ok(
            victim.statusCode >= 400 && victim.statusCode < 500,
            `${label}: ${victim.body}`,
          );
          assert.deepEqual(answer(victim), answer(other), label);
        }
        // A's token opens A's session only: on B's session it is the unknown answer too.
        const crossed = await call(current.bCheckout.id, {
          'x-checkout-token': current.aCheckout.token,
        });
        const crossedUnknown = await call(unknownIds.objectId(current.bCheckout.id), {
          'x-checkout-token': current.aCheckout.token,
        });
        assert.deepEqual(answer(crossed), answer(crossedUnknown));
        assert.deepEqual(changedTables(before, await databaseFingerprint(current.testApp.db)), []);
      });
    }

    it("a session opened with A's public client id cannot settle into B's account", async () => {
      const current = world();
      const response = await current.testApp.app.inject({
        method: 'POST',
        url: '/checkout/sessions',
        remoteAddress: '203.0.113.68',
        payload: checkoutBody(
          current.a.oauthClientId,
          'BOLA-CHK-HIJACK',
          current.b.mainAccountNumber,
        ),
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'VALIDATION_ERROR');
      assert.equal(response.json().data, undefined);
    });
  });

  describe('balances: nothing B did moved A’s money', () => {
    it("after the whole matrix, A's balances are what A's own operations left", async () => {
      const current = world();
      // node:test runs a file's tests in order: every matrix call ran before this one.
      assert.deepEqual(await balancesOfA(current), current.aBalancesAtStart);
    });
  });

  describe('coverage', () => {
    it('every id-taking route of /openapi.json has a matrix row or a stated exemption', async () => {
      const operations = await openApiOperations(world().testApp.app);
      const wanted: string[] = [];
      for (const { method, path, operation } of operations) {
        if (path.startsWith('/admin') || path === '/oauth2/token') {
          continue;
        }
        for (const match of path.matchAll(/\{([^}]+)\}/g)) {
          wanted.push(`${method} ${path} path.${match[1]}`);
        }
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in === 'query' && ID_FIELD.test(parameter.name)) {
            wanted.push(`${method} ${path} query.${parameter.name}`);
          }
        }
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        for (const field of bodyFieldPaths(schema)) {
          const leaf = field.split('.').at(-1) ?? field;
          if (ID_FIELD.test(leaf)) {
            wanted.push(`${method} ${path} body.${field}`);
          }
        }
      }
      const covered = new Set(MATRIX.map(rowKey));
      const missing = wanted.filter((key) => !covered.has(key) && EXEMPT[key] === undefined);
      assert.deepEqual(missing, [], 'id-taking routes without a BOLA row (add one to MATRIX)');
      // And every row still names a published operation (a renamed route is noticed).
      const published = new Set(operations.map(({ method, path }) => `${method} ${path}`));
      const stale = MATRIX.filter((row) => !published.has(`${row.method} ${row.path}`)).map(rowKey);
      assert.deepEqual(stale, [], 'matrix rows for operations /openapi.json does not list');
      const staleExemptions = Object.keys(EXEMPT).filter((key) => !wanted.includes(key));
      assert.deepEqual(staleExemptions, [], 'exemptions for fields /openapi.json does not list');
    });
  });
});
