import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import {
  createVirtualAccount,
  individualSubAccountBody,
  nameEnquiry,
  OTHER_BANK,
  OTHER_BANK_ACCOUNT,
  openCheckoutSession,
  SANDBOX_BVN,
  sandboxCredit,
  signAssertion,
  signedInClient,
  type TestClient,
  ussdReferenceBody,
  VAS,
  verifyIdentity,
  virtualAccountBody,
} from '../factories.ts';
import type { TestApp } from '../harness.ts';
import {
  bodyFieldPaths,
  buildSecurityApp,
  clientFingerprint,
  errorShape,
  type Headers,
  openApiOperations,
  safeJson,
} from './security-helpers.ts';

/**
 * Mass assignment: every create and update route of the public API gets its valid body plus
 * fields the server owns (ids, owner, balances, status, KYC level, fees, amounts in kobo,
 * timestamps...). The answer must be a 4xx refusal in the error envelope, or the object must come
 * out exactly as the same valid body without the extras makes it (a control request), read back
 * through the API; where money moves, the caller's balance must move by the same amount; and the
 * other client whose ids the extras name must not change at all.
 *
 * The API's behaviour (docs/api.md, "What clients send"; src/http/plugins/validators.ts and
 * client-input.ts): unknown top-level body fields are IGNORED, not refused. The TypeBox body
 * schemas do not set additionalProperties, so Ajv keeps extra keys and the handlers read only the
 * fields they name; the two typed sub-objects that set additionalProperties: false
 * (notificationSettings, autoSweepDetails) have unknown keys removed (removeAdditional) before
 * anything stores them. So every route here is expected to answer like its control.
 */

interface Party {
  readonly client: TestClient;
  readonly headers: Headers;
  readonly ibsClientId: string;
  readonly oauthClientId: string;
  readonly mainAccountId: string;
  readonly mainAccountNumber: string;
}

interface Context {
  readonly testApp: TestApp;
  /** The caller. */
  readonly a: Party;
  /** Another client: the extras name its ids, and nothing of it may change. */
  readonly o: Party;
  readonly aVerifiedId: string;
  readonly aSpareAccountId: string;
  readonly aSubId: string;
  readonly aVirtualAccountId: string;
  /** The top-level body fields of each operation, `METHOD path`, from /openapi.json. */
  readonly bodyFields: ReadonlyMap<string, ReadonlySet<string>>;
  /** Scratch space for rows that need an id from one step in a later one. */
  readonly memo: Record<string, string>;
}

type Method = 'POST' | 'PUT' | 'PATCH';

interface MassRow {
  readonly method: Method;
  readonly path: string;
  /** `create`: each call makes its own object. `update`: both change the same one, control first. */
  readonly kind: 'create' | 'update';
  /** The control's status (200 unless told). */
  readonly status?: number;
  /** Before each of the two calls. */
  readonly prepare?: (c: Context) => Promise<void>;
  /** The valid body with `extras` at the top level; `hostile` adds extras inside sub-objects. */
  readonly send: (
    c: Context,
    extras: Record<string, unknown>,
    hostile: boolean,
  ) => Promise<LightMyRequestResponse>;
  /** The object as the server holds it after the call, read back through the API. */
  readonly read: (c: Context, response: LightMyRequestResponse) => Promise<unknown>;
  /** Dotted paths that differ between two creations of the same body (ids, numbers). */
  readonly volatile?: readonly string[];
  /** The caller's account the call debits or credits: it must move the same for both calls. */
  readonly movesMoneyOf?: (c: Context) => string;
  readonly followUp?: (
    c: Context,
    control: LightMyRequestResponse,
    attack: LightMyRequestResponse,
  ) => Promise<void>;
}

const FAR_PAST = '2000-01-01T00:00:00.000Z';
const FAR_FUTURE = '2100-01-01T00:00:00.000Z';
const FOREIGN_OBJECT_ID = 'ffffffffffffffffffffffff';

/** Fields the server decides, with values an attacker would like. */
function hostileFields(c: Context): Record<string, unknown> {
  const { o } = c;
  return {
    _id: FOREIGN_OBJECT_ID,
    id: FOREIGN_OBJECT_ID,
    client: o.ibsClientId,
    clientId: o.ibsClientId,
    ibs_client_id: o.ibsClientId,
    ibs_user_id: FOREIGN_OBJECT_ID,
    cid: o.ibsClientId,
    azp: o.oauthClientId,
    sub: o.oauthClientId,
    scope: 'admin',
    role: 'admin',
    isAdmin: true,
    account: o.mainAccountId,
    accountId: o.mainAccountId,
    accountNumber: o.mainAccountNumber,
    debitAccountNumber: o.mainAccountNumber,
    creditAccountNumber: o.mainAccountNumber,
    settlementAccount: { bankCode: '999240', accountNumber: o.mainAccountNumber },
    accountName: 'HOSTILE NAME',
    accountType: 'Savings',
    bankCode: '000013',
    currencyCode: 'USD',
    balance: 1_000_000_000,
    accountBalance: 1_000_000_000,
    bookBalance: 1_000_000_000,
    lockedBalance: -1_000_000,
    balanceKobo: 100_000_000_000,
    status: 'Completed',
    isDeleted: true,
    verificationStatus: 'Verified',
    isVerified: true,
    verifiedAt: FAR_PAST,
    otp: '000000',
    otpAttempts: -100,
    otpExpiresAt: FAR_FUTURE,
    kycLevel: '3',
    isSubAccount: true,
    isVirtualAccount: true,
    accountHolderType: 'Corporate',
    identityId: FOREIGN_OBJECT_ID,
    identityType: 'CAC',
    directorIdentityIds: [FOREIGN_OBJECT_ID],
    autoSweep: true,
    autoSweepDetails: { destinationAccountNumber: o.mainAccountNumber },
    notificationSettings: { smsNotification: true, emailNotification: false },
    metadata: { injected: true },
    externalReference: 'HOSTILE-EXT',
    callbackUrl: 'https://attacker.example/hook',
    url: 'https://attacker.example/hook',
    secret: 'whsec_aG9zdGlsZS1zZWNyZXQtaG9zdGlsZS1zZWNyZXQ=',
    previousSecret: 'whsec_aG9zdGlsZS1zZWNyZXQtaG9zdGlsZS1zZWNyZXQ=',
    disabled: true,
    disabledReason: 'hostile',
    createdAt: FAR_PAST,
    updatedAt: FAR_PAST,
    expiresAt: FAR_FUTURE,
    expiryDate: FAR_FUTURE,
    validFor: 31_536_000,
    validForSeconds: 31_536_000,
    amount: 0.01,
    amountKobo: 1,
    amountControl: 'OpenAmount',
    amountPaid: 1_000_000,
    paidKobo: 100_000_000,
    settledAmount: 1_000_000,
    fee: 0,
    fees: 0,
    feeKobo: 0,
    vat: 0,
    vatKobo: 0,
    stampDuty: 0,
    commission: 1_000_000,
    commissionKobo: 100_000_000,
    feeBearer: 'customer',
    charges: { feeKobo: 0, vatKobo: 0 },
    responseCode: '00',
    responseMessage: 'Approved or completed successfully',
    reference: 'HOSTILE-REF',
    sessionId: '999240000101000000000000000001',
    transactionId: FOREIGN_OBJECT_ID,
    journalId: FOREIGN_OBJECT_ID,
    holdId: FOREIGN_OBJECT_ID,
    requestHash: 'hostile',
    type: 'Inwards',
    channel: 'ATM',
    merchantName: 'HOSTILE MERCHANT',
    ussdString: '*737*000*0000000001#',
    utilityToken: '0000-0000-0000-0000',
    payment: { paidKobo: 100_000_000, channel: 'USSD' },
    origin: 'https://attacker.example',
    pageToken: 'hostile',
    token: 'hostile',
    expires_in: 999_999_999,
    token_type: 'Admin',
    __v: 99,
  };
}

/** The hostile fields that are not real body fields of the operation. */
function extrasFor(c: Context, row: MassRow): Record<string, unknown> {
  const real = c.bodyFields.get(`${row.method} ${row.path}`) ?? new Set<string>();
  return Object.fromEntries(Object.entries(hostileFields(c)).filter(([name]) => !real.has(name)));
}

function omitPaths(value: unknown, paths: readonly string[]): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  for (const path of paths) {
    const parts = path.split('.');
    let target: Record<string, unknown> | undefined = copy;
    for (const part of parts.slice(0, -1)) {
      target = target?.[part] as Record<string, unknown> | undefined;
    }
    if (target !== undefined && target !== null) {
      delete target[parts.at(-1) as string];
    }
  }
  return copy;
}

/** Where the attack's object holds a hostile value the control's did not. */
function hostileValuesTaken(
  attack: unknown,
  control: unknown,
  extras: Record<string, unknown>,
  path = '',
): string[] {
  if (typeof attack !== 'object' || attack === null || Array.isArray(attack)) {
    return [];
  }
  const controlObject = (control ?? {}) as Record<string, unknown>;
  return Object.entries(attack as Record<string, unknown>).flatMap(([key, value]) => {
    const here = path === '' ? key : `${path}.${key}`;
    const taken =
      Object.hasOwn(extras, key) &&
      isDeepStrictEqual(value, extras[key]) &&
      !isDeepStrictEqual(controlObject[key], extras[key])
        ? [here]
        : [];
    return [...taken, ...hostileValuesTaken(value, controlObject[key], extras, here)];
  });
}

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${++sequence}-${Date.now().toString(36)}`;

const api = (
  c: Context,
  method: 'GET' | Method | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
  headers: Headers = c.a.headers,
) => c.testApp.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });

async function dataOf(response: Promise<LightMyRequestResponse> | LightMyRequestResponse) {
  const answered = await response;
  assert.equal(answered.statusCode, 200, `read back: ${answered.body}`);
  return answered.json().data;
}

const readAccount = (c: Context, id: string) => dataOf(api(c, 'GET', `/accounts/${id}`));

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

/** A fresh checkout session of A's, opened as the widget does. */
async function aCheckoutSession(c: Context) {
  return openCheckoutSession(
    c.testApp.app,
    { oauthClientId: c.a.oauthClientId, accountNumber: c.a.mainAccountNumber },
    unique('MA-CHK'),
    { remoteAddress: '198.51.100.20' },
  );
}

const checkoutPage = (c: Context, session: { id: string; token: string }) =>
  dataOf(
    c.testApp.app.inject({
      method: 'GET',
      url: `/checkout/sessions/${session.id}`,
      headers: { 'x-checkout-token': session.token },
    }),
  );

const checkoutPageAction = (
  c: Context,
  session: { id: string; token: string },
  action: string,
  payload: Record<string, unknown>,
) =>
  c.testApp.app.inject({
    method: 'POST',
    url: `/checkout/sessions/${session.id}/${action}`,
    headers: { 'x-checkout-token': session.token },
    remoteAddress: '198.51.100.21',
    payload,
  });

const MASS_ROWS: readonly MassRow[] = [
  // Accounts
  {
    method: 'POST',
    path: '/accounts',
    kind: 'create',
    send: (c, extras) =>
      api(c, 'POST', '/accounts', {
        accountType: 'Savings',
        suffix: 'Payroll',
        metadata: { team: 'payroll' },
        ...extras,
      }),
    read: (c, response) => readAccount(c, response.json().data._id),
    volatile: ['_id', 'accountNumber'],
  },
  {
    method: 'PUT',
    path: '/accounts/{id}',
    kind: 'update',
    send: (c, extras, hostile) =>
      api(c, 'PUT', `/accounts/${c.aSpareAccountId}`, {
        notificationSettings: {
          smsNotification: true,
          emailMonthlyStatement: false,
          ...(hostile ? { accountBalance: 1_000_000_000, status: 'Frozen', kycLevel: '3' } : {}),
        },
        ...extras,
      }),
    read: (c) => readAccount(c, c.aSpareAccountId),
  },
  ...(['/accounts/subaccount', '/accounts/v2/subaccount'] as const).map(
    (path): MassRow => ({
      method: 'POST',
      path,
      kind: 'create',
      send: (c, extras, hostile) =>
        api(
          c,
          'POST',
          path,
          individualSubAccountBody(c.aVerifiedId, {
            externalReference: unique('MA-SUB'),
            callbackUrl: 'https://merchant.example.com/hooks/sub',
            autoSweepDetails: {
              destinationAccountNumber: c.a.mainAccountNumber,
              retainAmount: 100,
              minimumAmount: 5,
              ...(hostile ? { retainKobo: 0, minimumKobo: 0, enabled: false } : {}),
            },
            ...extras,
          }),
        ),
      read: (c, response) => readAccount(c, response.json().data._id),
      volatile: ['_id', 'accountNumber', 'externalReference'],
    }),
  ),
  {
    method: 'PUT',
    path: '/accounts/{id}/subaccount',
    kind: 'update',
    send: (c, extras, hostile) =>
      api(c, 'PUT', `/accounts/${c.aSubId}/subaccount`, {
        phoneNumber: '+2348112345679',
        emailAddress: 'jane.new@example.com',
        metadata: { version: 2 },
        autoSweepDetails: {
          destinationAccountNumber: c.a.mainAccountNumber,
          retainAmount: 50,
          ...(hostile ? { retainKobo: 0, destinationAccountId: c.o.mainAccountId } : {}),
        },
        ...extras,
      }),
    read: (c) => readAccount(c, c.aSubId),
  },

  // Transfers
  {
    method: 'POST',
    path: '/transfers/name-enquiry',
    kind: 'create',
    send: (c, extras) =>
      api(c, 'POST', '/transfers/name-enquiry', {
        bankCode: OTHER_BANK,
        accountNumber: OTHER_BANK_ACCOUNT,
        ...extras,
      }),
    read: async (_c, response) => response.json().data,
    volatile: ['sessionId'],
  },
  {
    method: 'POST',
    path: '/transfers',
    kind: 'create',
    send: async (c, extras) => {
      const { sessionId } = await nameEnquiry(
        c.testApp.app,
        c.a.headers,
        OTHER_BANK,
        OTHER_BANK_ACCOUNT,
      );
      return api(c, 'POST', '/transfers', {
        nameEnquiryReference: sessionId,
        debitAccountNumber: c.a.mainAccountNumber,
        beneficiaryBankCode: OTHER_BANK,
        beneficiaryAccountNumber: OTHER_BANK_ACCOUNT,
        amount: 100,
        saveBeneficiary: false,
        narration: 'mass assignment',
        ...extras,
      });
    },
    read: (c, response) =>
      dataOf(api(c, 'POST', '/transfers/status', { sessionId: response.json().data.sessionId })),
    volatile: ['_id', 'sessionId', 'nameEnquiryReference', 'paymentReference'],
    movesMoneyOf: (c) => c.a.mainAccountId,
  },

  {
    method: 'POST',
    path: '/transfers/bulk',
    kind: 'create',
    status: 202,
    // The batch as accepted: no worker runs here, so nothing moves; the items stay Pending.
    send: (c, extras, hostile) => {
      const item = {
        debitAccountNumber: c.a.mainAccountNumber,
        beneficiaryBankCode: c.testApp.config.institutionCode,
        beneficiaryAccountNumber: c.a.mainAccountNumber,
        amount: 1,
        paymentReference: unique('MA-BULK'),
      };
      return api(
        c,
        'POST',
        '/transfers/bulk',
        { transfers: [hostile ? { ...extras, ...item } : item], ...extras },
        { ...c.a.headers, 'idempotency-key': unique('MA-BULK-KEY') },
      );
    },
    read: (c, response) => dataOf(api(c, 'GET', `/transfers/bulk/${response.json().data._id}`)),
    volatile: ['_id', 'createdAt', 'updatedAt', 'items.0._id', 'items.0.paymentReference'],
  },

  // Virtual accounts
  {
    method: 'POST',
    path: '/virtual-accounts',
    kind: 'create',
    send: (c, extras, hostile) =>
      api(
        c,
        'POST',
        '/virtual-accounts',
        virtualAccountBody(c.a.mainAccountNumber, {
          externalReference: unique('MA-VA'),
          settlementAccount: {
            bankCode: '999240',
            accountNumber: c.a.mainAccountNumber,
            ...(hostile ? { accountId: c.o.mainAccountId, clientId: c.o.ibsClientId } : {}),
          },
          ...extras,
        }),
      ),
    read: (c, response) => dataOf(api(c, 'GET', `/virtual-accounts/${response.json().data._id}`)),
    volatile: ['_id', 'accountNumber', 'externalReference'],
  },
  {
    method: 'PUT',
    path: '/virtual-accounts/{id}',
    kind: 'update',
    send: (c, extras) =>
      api(c, 'PUT', `/virtual-accounts/${c.aVirtualAccountId}`, {
        callbackUrl: 'https://merchant.example.com/hooks/va-2',
        ...extras,
      }),
    read: (c) => dataOf(api(c, 'GET', `/virtual-accounts/${c.aVirtualAccountId}`)),
  },

  // VAS
  ...(Object.keys(VAS_BODIES) as (keyof typeof VAS_BODIES)[]).map(
    (service): MassRow => ({
      method: 'POST',
      path: `/vas/pay/${service}`,
      kind: 'create',
      send: (c, extras) =>
        api(c, 'POST', `/vas/pay/${service}`, {
          channel: 'WEB',
          ...VAS_BODIES[service],
          debitAccountNumber: c.a.mainAccountNumber,
          ...extras,
        }),
      read: (c, response) => dataOf(api(c, 'GET', `/vas/transaction/${response.json().data.id}`)),
      volatile: ['_id', 'id', 'reference', 'utilityToken'],
      movesMoneyOf: (c) => c.a.mainAccountId,
    }),
  ),

  // USSD
  {
    method: 'POST',
    path: '/ussd-payment',
    kind: 'create',
    send: (c, extras, hostile) =>
      api(
        c,
        'POST',
        '/ussd-payment',
        ussdReferenceBody(c.a.mainAccountNumber, {
          settlementAccount: {
            bankCode: '999240',
            accountNumber: c.a.mainAccountNumber,
            ...(hostile ? { accountId: c.o.mainAccountId } : {}),
          },
          ...extras,
        }),
      ),
    read: (c, response) => dataOf(api(c, 'GET', `/ussd-payment/${response.json().data.reference}`)),
    volatile: ['_id', 'reference', 'ussdString'],
  },

  // Checkout (public: the widget and the hosted page)
  {
    method: 'POST',
    path: '/checkout/sessions',
    kind: 'create',
    send: (c, extras) => {
      c.memo.referenceCode = unique('MA-CHK');
      return c.testApp.app.inject({
        method: 'POST',
        url: '/checkout/sessions',
        remoteAddress: '198.51.100.22',
        payload: {
          environment: 'sandbox',
          clientId: c.a.oauthClientId,
          referenceCode: c.memo.referenceCode,
          customer: { firstName: 'Ada', lastName: 'Obi', emailAddress: 'ada.obi@example.com' },
          currency: 'NGN',
          amount: 2500,
          settlementAccount: { bankCode: '999240', accountNumber: c.a.mainAccountNumber },
          ...extras,
        },
      });
    },
    read: async (c, response) => {
      const { sessionId, pageUrl } = response.json().data;
      return {
        page: await checkoutPage(c, { id: sessionId, token: pageUrl.split('#')[1] }),
        verify: await dataOf(api(c, 'GET', `/checkout/verify/${c.memo.referenceCode}`)),
      };
    },
    volatile: ['page.id', 'page.referenceCode', 'verify._id', 'verify.referenceCode'],
  },
  ...(
    [
      ['bank-transfer', {}, ['action.accountNumber', 'action.accountName']],
      ['ussd', { ussdBankCode: '737' }, ['action.reference', 'action.ussdString']],
    ] as const
  ).map(
    ([action, body, volatile]): MassRow => ({
      method: 'POST',
      path: `/checkout/sessions/{id}/${action}`,
      kind: 'create',
      send: async (c, extras) => {
        const session = await aCheckoutSession(c);
        c.memo.session = JSON.stringify(session);
        return checkoutPageAction(c, session, action, { ...body, ...extras });
      },
      read: async (c, response) => ({
        action: response.json().data,
        page: await checkoutPage(c, JSON.parse(c.memo.session ?? '{}')),
      }),
      volatile: [...volatile, 'page.id', 'page.referenceCode'],
    }),
  ),
  {
    method: 'POST',
    path: '/checkout/sessions/{id}/simulate',
    kind: 'create',
    send: async (c, extras) => {
      const session = await aCheckoutSession(c);
      c.memo.referenceCode = session.referenceCode;
      return checkoutPageAction(c, session, 'simulate', { method: 'BANK_TRANSFER', ...extras });
    },
    read: (c) => dataOf(api(c, 'GET', `/checkout/verify/${c.memo.referenceCode}`)),
    volatile: ['_id', 'referenceCode', 'transactionId'],
    movesMoneyOf: (c) => c.a.mainAccountId,
  },

  // Identity
  ...(['/identity/v2', '/identity', '/identity/'] as const).map(
    (path): MassRow => ({
      method: 'POST',
      path,
      kind: 'create',
      send: (c, extras) =>
        api(c, 'POST', path, {
          type: 'BVN',
          number: SANDBOX_BVN,
          debitAccountNumber: c.a.mainAccountNumber,
          ...extras,
        }),
      read: async (_c, response) => response.json().data,
      volatile: ['_id'],
      movesMoneyOf: (c) => c.a.mainAccountId,
      // The verification is still waiting for its OTP: no sub-account can stand on it.
      followUp: (c, _control, attack) => expectNotVerified(c, attack.json().data._id),
    }),
  ),
  {
    method: 'POST',
    path: '/identity/v2/validate',
    kind: 'create',
    status: 400,
    send: async (c, extras, hostile) => {
      const id = await verifyIdentity(
        c.testApp.app,
        c.a.headers,
        { type: 'BVN', number: SANDBOX_BVN, debitAccountNumber: c.a.mainAccountNumber },
        false,
      );
      c.memo[hostile ? 'attackVerification' : 'controlVerification'] = id;
      // A wrong OTP: only a hostile field could make this verification Verified.
      return api(c, 'POST', '/identity/v2/validate', {
        identityId: id,
        type: 'BVN',
        otp: '000000',
        ...extras,
      });
    },
    read: async (_c, response) => response.json(),
    followUp: (c) => expectNotVerified(c, c.memo.attackVerification ?? ''),
  },
  {
    method: 'POST',
    path: '/identity/send-otp',
    kind: 'update',
    prepare: async (c) => {
      // The newest pending verification of the number is the one a resend acts on; every
      // verification so far was made at the same instant of the test clock, so move it on.
      c.testApp.clock.advanceSeconds(1);
      c.memo.pending = await verifyIdentity(
        c.testApp.app,
        c.a.headers,
        { type: 'BVN', number: SANDBOX_BVN, debitAccountNumber: c.a.mainAccountNumber },
        false,
      );
    },
    send: (c, extras) => api(c, 'POST', '/identity/send-otp', { number: SANDBOX_BVN, ...extras }),
    read: async (_c, response) => response.json().data,
    // Two verifications, a second apart.
    volatile: ['_id', 'createdAt', 'updatedAt', 'otpExpiresAt'],
    followUp: async (c, _control, attack) => {
      // The extras' otp (000000) was not stored: it does not validate the verification.
      const id: string = attack.json().data._id;
      assert.equal(id, c.memo.pending);
      const tried = await api(c, 'POST', '/identity/v2/validate', {
        identityId: id,
        type: 'BVN',
        otp: '000000',
      });
      assert.equal(tried.statusCode, 400, tried.body);
      assert.equal(tried.json().code, 'OTP_INVALID');
      await expectNotVerified(c, id);
    },
  },

  // Webhooks
  {
    method: 'PUT',
    path: '/webhooks/settings',
    kind: 'update',
    send: (c, extras) =>
      api(c, 'PUT', '/webhooks/settings', {
        url: 'https://merchant.example.com/hooks/openibs',
        ...extras,
      }),
    read: (c) => dataOf(api(c, 'GET', '/webhooks/settings')),
  },
  {
    method: 'PUT',
    path: '/checkout/settings',
    kind: 'update',
    send: (c, extras) =>
      api(c, 'PUT', '/checkout/settings', {
        allowedOrigins: ['https://merchant.example.com'],
        ...extras,
      }),
    read: (c) => dataOf(api(c, 'GET', '/checkout/settings')),
    volatile: ['updatedAt'],
  },
  {
    method: 'POST',
    path: '/webhooks/deliveries/replay',
    kind: 'update',
    prepare: async (c) => {
      // Both clients' events failed: a replay may queue A's again, never O's.
      await c.testApp.db.query(
        `UPDATE webhook_events SET status = 'failed' WHERE client_id = ANY($1)`,
        [[c.a.ibsClientId, c.o.ibsClientId]],
      );
    },
    send: (c, extras) =>
      api(c, 'POST', '/webhooks/deliveries/replay', { since: '2020-01-01', ...extras }),
    read: async (_c, response) => response.json().data,
    followUp: async (_c, control) => {
      assert.ok(
        control.json().data.replayed > 0,
        `the control replays A's events: ${control.body}`,
      );
    },
  },

  // Tokens
  {
    method: 'POST',
    path: '/oauth2/token',
    kind: 'create',
    status: 201,
    send: async (c, extras) =>
      c.testApp.app.inject({
        method: 'POST',
        url: '/oauth2/token',
        payload: {
          grant_type: 'client_credentials',
          client_id: c.a.oauthClientId,
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: await signAssertion(c.a.client, { now: c.testApp.clock.now() }),
          ...extras,
        },
      }),
    read: async (_c, response) => {
      const { access_token: accessToken, refresh_token: _refresh, ...rest } = response.json();
      const { jti: _jti, ...claims } = decodeJwt(accessToken);
      return { ...rest, claims };
    },
  },
];

/** Routes that take a body but create and change nothing, or take no body. */
const EXEMPT: Readonly<Record<string, string>> = {
  'POST /transfers/status': 'a status read: creates and changes nothing the caller sends',
  'POST /transfers/tqs': 'a status read: creates and changes nothing the caller sends',
  'POST /virtual-accounts/status': 'a status read: creates and changes nothing',
  'POST /vas/verify': "a look-up of a meter or smart card at the biller's",
  'POST /webhooks/deliveries/{id}/replay': 'takes no body',
};

async function expectNotVerified(c: Context, identityId: string) {
  const response = await api(
    c,
    'POST',
    '/accounts/subaccount',
    individualSubAccountBody(identityId, { externalReference: unique('MA-PROBE') }),
  );
  assert.equal(response.statusCode, 400, `the verification was made usable: ${response.body}`);
  assert.equal(response.json().code, 'IDENTITY_NOT_VERIFIED', response.body);
}

describe('security: mass assignment (server-owned fields in create and update bodies)', () => {
  let context: Context | undefined;
  const ctx = () => {
    assert.ok(context, 'the context is built in before()');
    return context;
  };

  before(async () => {
    const testApp = await buildSecurityApp();
    const partyOf = (signed: Awaited<ReturnType<typeof signedInClient>>): Party => ({
      client: signed.client,
      headers: signed.headers,
      ibsClientId: signed.client.ibsClientId,
      oauthClientId: signed.client.oauthClientId,
      mainAccountId: signed.client.mainAccountId,
      mainAccountNumber: signed.client.mainAccountNumber,
    });
    const a = partyOf(await signedInClient(testApp, 'Acme Caller Ltd', 0));
    const o = partyOf(await signedInClient(testApp, 'Other Bystander Ltd', 1));
    await sandboxCredit(testApp.app, a.mainAccountNumber, 500_000);
    await sandboxCredit(testApp.app, o.mainAccountNumber, 10_000);
    const aVerifiedId = await verifyIdentity(testApp.app, a.headers, {
      type: 'BVN',
      number: SANDBOX_BVN,
      debitAccountNumber: a.mainAccountNumber,
    });
    const spare = await testApp.app.inject({
      method: 'POST',
      url: '/accounts',
      headers: a.headers,
      payload: { suffix: 'Spare' },
    });
    assert.equal(spare.statusCode, 200, spare.body);
    const sub = await testApp.app.inject({
      method: 'POST',
      url: '/accounts/subaccount',
      headers: a.headers,
      payload: individualSubAccountBody(aVerifiedId, { externalReference: 'MA-SUB-UPDATE' }),
    });
    assert.equal(sub.statusCode, 200, sub.body);
    const virtualAccount = await createVirtualAccount(testApp.app, a.headers, a.mainAccountNumber);

    const bodyFields = new Map<string, Set<string>>();
    for (const { method, path, operation } of await openApiOperations(testApp.app)) {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      const topLevel = bodyFieldPaths(schema).filter((field) => !field.includes('.'));
      bodyFields.set(`${method} ${path}`, new Set(topLevel));
    }
    context = {
      testApp,
      a,
      o,
      aVerifiedId,
      aSpareAccountId: spare.json().data._id,
      aSubId: sub.json().data._id,
      aVirtualAccountId: virtualAccount._id,
      bodyFields,
      memo: {},
    };
  });
  after(() => context?.testApp.close());

  const balanceOf = async (c: Context, accountId: string) => {
    const account = await readAccount(c, accountId);
    // In kobo: naira differences of floats are not exact.
    const kobo = (naira: unknown) => Math.round((naira as number) * 100);
    return { available: kobo(account.accountBalance), book: kobo(account.bookBalance) };
  };

  for (const row of MASS_ROWS) {
    it(`${row.method} ${row.path}: extra server-owned fields are refused or change nothing`, async () => {
      const c = ctx();
      const extras = extrasFor(c, row);
      assert.ok(Object.keys(extras).length > 40, 'the row sends the hostile fields');
      const account = row.movesMoneyOf?.(c);
      await row.prepare?.(c);
      const bystander = await clientFingerprint(c.testApp.db, c.o.ibsClientId);
      const start = account === undefined ? undefined : await balanceOf(c, account);
      const control = await row.send(c, {}, false);
      assert.equal(control.statusCode, row.status ?? 200, `control: ${control.body}`);
      const controlObject =
        control.statusCode < 300 ? await row.read(c, control) : safeJson(control);
      const middle = account === undefined ? undefined : await balanceOf(c, account);

      await row.prepare?.(c);
      const attack = await row.send(c, extras, true);
      const end = account === undefined ? undefined : await balanceOf(c, account);
      assert.equal(
        await clientFingerprint(c.testApp.db, c.o.ibsClientId),
        bystander,
        "the extras changed the other client's objects",
      );

      if (attack.statusCode >= 400 && attack.statusCode < 500 && control.statusCode < 300) {
        // Refused: in the error envelope, and nothing charged.
        const body = attack.json();
        for (const field of ['statusCode', 'error', 'message', 'code']) {
          assert.ok(body[field] !== undefined, `the refusal's ${field}: ${attack.body}`);
        }
        assert.equal(body.data, undefined);
        assert.deepEqual(end, middle, 'a refused request moved money');
        return;
      }
      assert.equal(attack.statusCode, control.statusCode, `attack: ${attack.body}`);
      if (attack.statusCode >= 400) {
        assert.deepEqual(errorShape(attack), errorShape(control));
      } else {
        const attackObject = await row.read(c, attack);
        assert.deepEqual(
          hostileValuesTaken(attackObject, controlObject, extras),
          [],
          'fields of the object took the hostile values',
        );
        assert.deepEqual(
          omitPaths(attackObject, row.volatile ?? []),
          omitPaths(controlObject, row.volatile ?? []),
          'the object differs from the one the same body without extras makes',
        );
      }
      if (start !== undefined && middle !== undefined && end !== undefined) {
        assert.deepEqual(
          { available: end.available - middle.available, book: end.book - middle.book },
          { available: middle.available - start.available, book: middle.book - start.book },
          'the extras changed what the call cost or paid',
        );
      }
      await row.followUp?.(c, control, attack);
    });
  }

  it('every create and update route of /openapi.json has a row or a stated exemption', async () => {
    const operations = await openApiOperations(ctx().testApp.app);
    const writes = operations
      .filter(({ method }) => ['POST', 'PUT', 'PATCH'].includes(method))
      .filter(({ path }) => !path.startsWith('/admin'))
      .map(({ method, path }) => `${method} ${path}`);
    const covered = new Set(MASS_ROWS.map((row) => `${row.method} ${row.path}`));
    assert.deepEqual(
      writes.filter((key) => !covered.has(key) && EXEMPT[key] === undefined),
      [],
      'create/update routes without a mass-assignment row (add one to MASS_ROWS)',
    );
    assert.deepEqual(
      [...covered, ...Object.keys(EXEMPT)].filter((key) => !writes.includes(key)),
      [],
      'rows or exemptions for operations /openapi.json does not list',
    );
  });
});
