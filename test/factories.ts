import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { TEST_BASE_URL, TEST_SECRETS, type TestApp } from './harness.ts';

export const adminHeaders = { authorization: `Bearer ${TEST_SECRETS.adminToken}` };

// Generating RSA keys is slow; tests share a few.
const rsaKeys: { privateKey: KeyObject; publicKey: KeyObject }[] = [];
export function rsaKeyPair(index = 0) {
  while (rsaKeys.length <= index) {
    rsaKeys.push(keptKeyPair(rsaKeys.length));
  }
  return rsaKeys[index] as { privateKey: KeyObject; publicKey: KeyObject };
}

const KEPT_KEYS = path.join(tmpdir(), 'openibs-test-keys');

/**
 * A 2048-bit key pair kept in the temporary folder: generating one takes up to a second of CPU,
 * and every test file is a process of its own. Made here when none is kept yet (or it is unreadable).
 */
function keptKeyPair(index: number): { privateKey: KeyObject; publicKey: KeyObject } {
  const file = path.join(KEPT_KEYS, `rsa-2048-${index}.pem`);
  try {
    const privateKey = createPrivateKey(readFileSync(file));
    return { privateKey, publicKey: createPublicKey(privateKey) };
  } catch {
    // None kept yet: made below.
  }
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  mkdirSync(KEPT_KEYS, { recursive: true });
  // Written aside, then renamed: a process reading the file never sees half a key.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  renameSync(partial, file);
  return pair;
}

export function publicKeyPem(publicKey: KeyObject): string {
  return publicKey.export({ type: 'spki', format: 'pem' }).toString();
}

export interface TestClient {
  readonly ibsClientId: string;
  readonly oauthClientId: string;
  readonly privateKey: KeyObject;
  readonly mainAccountId: string;
  readonly mainAccountNumber: string;
}

/** A client with its main account and an RS256 app, through the admin API. */
export async function createClient(app: FastifyInstance, name = 'Acme Ltd', keyIndex = 0) {
  const created = await app.inject({
    method: 'POST',
    url: '/admin/clients',
    headers: adminHeaders,
    payload: { name },
  });
  if (created.statusCode !== 201) {
    throw new Error(`client creation failed: ${created.body}`);
  }
  const client = created.json().data;
  const keys = rsaKeyPair(keyIndex);
  const registered = await app.inject({
    method: 'POST',
    url: `/admin/clients/${client._id}/apps`,
    headers: adminHeaders,
    payload: { name: 'Test app', publicKey: publicKeyPem(keys.publicKey) },
  });
  if (registered.statusCode !== 201) {
    throw new Error(`app registration failed: ${registered.body}`);
  }
  return {
    ibsClientId: client._id,
    oauthClientId: registered.json().data.clientId,
    privateKey: keys.privateKey,
    mainAccountId: client.mainAccount._id,
    mainAccountNumber: client.mainAccount.accountNumber,
  } satisfies TestClient;
}

export async function signAssertion(
  client: { oauthClientId: string; privateKey: KeyObject },
  options: { now: Date; audience?: string; subject?: string; lifetimeSeconds?: number },
): Promise<string> {
  const nowSeconds = Math.floor(options.now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer('https://fintech.example')
    .setSubject(options.subject ?? client.oauthClientId)
    .setAudience(options.audience ?? TEST_BASE_URL)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + (options.lifetimeSeconds ?? 300))
    .sign(client.privateKey);
}

export async function issueTokens(testApp: TestApp, client: TestClient) {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/oauth2/token',
    payload: {
      grant_type: 'client_credentials',
      client_id: client.oauthClientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await signAssertion(client, { now: testApp.clock.now() }),
    },
  });
  if (response.statusCode !== 201) {
    throw new Error(`token exchange failed: ${response.body}`);
  }
  return response.json() as { access_token: string; refresh_token: string; ibs_client_id: string };
}

/** A client and the headers every authenticated call needs. */
export async function signedInClient(testApp: TestApp, name = 'Acme Ltd', keyIndex = 0) {
  const client = await createClient(testApp.app, name, keyIndex);
  const tokens = await issueTokens(testApp, client);
  const headers = { authorization: `Bearer ${tokens.access_token}`, clientid: client.ibsClientId };
  return { client, tokens, headers };
}

export async function sandboxCredit(app: FastifyInstance, accountNumber: string, amount: number) {
  const response = await app.inject({
    method: 'POST',
    url: '/admin/sandbox/credits',
    headers: adminHeaders,
    payload: { accountNumber, amount },
  });
  if (response.statusCode !== 201) {
    throw new Error(`sandbox credit failed: ${response.body}`);
  }
  return response.json().data;
}

type Headers = Record<string, string>;

/** The balance of one of the caller's accounts, by number, as GET /accounts lists it. */
export async function accountBalance(
  app: FastifyInstance,
  headers: Headers,
  accountNumber: string,
) {
  const listed = await app.inject({ method: 'GET', url: '/accounts', headers });
  const accounts = listed.json().data as { accountNumber: string; accountBalance: number }[];
  return accounts.find((account) => account.accountNumber === accountNumber)?.accountBalance;
}

/** The published account object, with its balances (GET /accounts/:id). */
export async function getAccount(app: FastifyInstance, headers: Headers, accountId: string) {
  const response = await app.inject({ method: 'GET', url: `/accounts/${accountId}`, headers });
  if (response.statusCode !== 200) {
    throw new Error(`account fetch failed: ${response.body}`);
  }
  return response.json().data;
}

// The NIP simulator's other bank and an account there that resolves to "YUSUF ABUBAKAR".
export const OTHER_BANK = '000013';
export const OTHER_BANK_ACCOUNT = '0123456789';

export async function nameEnquiry(
  app: FastifyInstance,
  headers: Headers,
  bankCode: string,
  accountNumber: string,
) {
  const response = await app.inject({
    method: 'POST',
    url: '/transfers/name-enquiry',
    headers,
    payload: { bankCode, accountNumber },
  });
  if (response.statusCode !== 200) {
    throw new Error(`name enquiry failed: ${response.body}`);
  }
  return response.json().data as { sessionId: string; accountName: string };
}

/**
 * POST /transfers after a fresh name enquiry of the beneficiary (to another bank unless told
 * otherwise). Answers the response, whatever it is; the NIP simulator's outcome follows the
 * amount's kobo (docs/sandbox-nip.md): .05 fails, .97 times out.
 */
export async function sendTransfer(
  app: FastifyInstance,
  headers: Headers,
  body: { debitAccountNumber: string; amount: number } & Record<string, unknown>,
) {
  const beneficiary = {
    beneficiaryBankCode: OTHER_BANK,
    beneficiaryAccountNumber: OTHER_BANK_ACCOUNT,
    ...body,
  } as { beneficiaryBankCode: string; beneficiaryAccountNumber: string };
  const { sessionId } = await nameEnquiry(
    app,
    headers,
    beneficiary.beneficiaryBankCode,
    beneficiary.beneficiaryAccountNumber,
  );
  return app.inject({
    method: 'POST',
    url: '/transfers',
    headers,
    payload: { nameEnquiryReference: sessionId, saveBeneficiary: false, ...beneficiary },
  });
}

// Sandbox identities (docs/sandbox-identity.md); every sandbox OTP is 123456.
export const SANDBOX_OTP = '123456';
export const SANDBOX_BVN = '22212345671';

/**
 * An identity check through POST /identity/v2, charged to `debitAccountNumber`; a Pending one is
 * validated with the sandbox OTP unless `validate` is false. Answers the verification id.
 */
export async function verifyIdentity(
  app: FastifyInstance,
  headers: Headers,
  body: { type: string; number: string; debitAccountNumber: string },
  validate = true,
): Promise<string> {
  const started = await app.inject({ method: 'POST', url: '/identity/v2', headers, payload: body });
  if (started.statusCode !== 200) {
    throw new Error(`identity check failed: ${started.body}`);
  }
  const { _id: id, verificationStatus } = started.json().data;
  if (validate && verificationStatus === 'Pending') {
    const done = await app.inject({
      method: 'POST',
      url: '/identity/v2/validate',
      headers,
      payload: { identityId: id, type: body.type, otp: SANDBOX_OTP },
    });
    if (done.statusCode !== 200) {
      throw new Error(`identity validation failed: ${done.body}`);
    }
  }
  return id;
}

let subAccountReference = 0;

/** The body of an individual's sub-account on a verified BVN (SANDBOX_BVN). */
export function individualSubAccountBody(identityId: string, extra: Record<string, unknown> = {}) {
  return {
    phoneNumber: '+2348112345678',
    emailAddress: 'jane.doe@example.com',
    externalReference: `EXT-${++subAccountReference}`,
    identityType: 'BVN',
    identityNumber: SANDBOX_BVN,
    identityId,
    metadata: { customer: 'jane' },
    ...extra,
  };
}

/** A KYC level 2 sub-account on a freshly verified BVN, the check charged to the main account. */
export async function openSubAccount(
  app: FastifyInstance,
  headers: Headers,
  mainAccountNumber: string,
  extra: Record<string, unknown> = {},
) {
  const identityId = await verifyIdentity(app, headers, {
    type: 'BVN',
    number: SANDBOX_BVN,
    debitAccountNumber: mainAccountNumber,
  });
  const response = await app.inject({
    method: 'POST',
    url: '/accounts/subaccount',
    headers,
    payload: individualSubAccountBody(identityId, extra),
  });
  if (response.statusCode !== 200) {
    throw new Error(`sub-account creation failed: ${response.body}`);
  }
  return response.json().data as {
    _id: string;
    accountNumber: string;
    accountName: string;
    externalReference: string;
  };
}

/**
 * A sandbox credit to the client's account and the transfer webhook event it produced, as
 * GET /webhooks/deliveries lists it.
 */
export async function creditWebhookEvent(
  app: FastifyInstance,
  headers: Headers,
  accountNumber: string,
  amount = 75,
) {
  const transfer = await sandboxCredit(app, accountNumber, amount);
  const list = await app.inject({
    method: 'GET',
    url: '/webhooks/deliveries?type=transfer&limit=100',
    headers,
  });
  const delivery = list
    .json()
    .data.find(
      (item: { payload: { data: { _id: string } } }) => item.payload.data._id === transfer._id,
    );
  if (delivery === undefined) {
    throw new Error(`the credit produced no transfer event: ${list.body}`);
  }
  return delivery as { _id: string; status: string; payload: unknown };
}

let virtualAccountReference = 0;

/** The body of a Fixed virtual account settling to `settlementAccountNumber`. */
export function virtualAccountBody(
  settlementAccountNumber: string,
  extra: Record<string, unknown> = {},
) {
  return {
    validFor: 900,
    callbackUrl: 'https://merchant.example.com/hooks/va',
    settlementAccount: { bankCode: '999240', accountNumber: settlementAccountNumber },
    amountControl: 'Fixed',
    amount: 2500,
    externalReference: `VA-${++virtualAccountReference}`,
    ...extra,
  };
}

/** POST /virtual-accounts; throws unless it answers 200. */
export async function createVirtualAccount(
  app: FastifyInstance,
  headers: Headers,
  settlementAccountNumber: string,
  extra: Record<string, unknown> = {},
) {
  const response = await app.inject({
    method: 'POST',
    url: '/virtual-accounts',
    headers,
    payload: virtualAccountBody(settlementAccountNumber, extra),
  });
  if (response.statusCode !== 200) {
    throw new Error(`virtual account creation failed: ${response.body}`);
  }
  return response.json().data as {
    _id: string;
    accountNumber: string;
    accountName: string;
    status: string;
    expiryDate: string;
    externalReference: string | null;
  };
}

/**
 * A virtual account of the other client of a route context: describeRecordIsolation's foreignId
 * for the virtual account routes.
 */
export function othersVirtualAccountId(
  context: () => {
    testApp: { app: FastifyInstance };
    otherHeaders: Headers;
    otherAccountNumber: string;
  },
) {
  return async () => {
    const { testApp, otherHeaders, otherAccountNumber } = context();
    return (await createVirtualAccount(testApp.app, otherHeaders, otherAccountNumber))._id;
  };
}

/** A payment into a virtual account from another bank (sandbox NIP); answers the response. */
export function payVirtualAccount(
  app: FastifyInstance,
  accountNumber: string,
  amount: number,
  extra: Record<string, unknown> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/admin/sandbox/virtual-account-payments',
    headers: adminHeaders,
    payload: { accountNumber, amount, ...extra },
  });
}

/** Published VAS catalogue ids (seeded by the baseline migration). */
export const VAS = {
  airtime: '61e985180e69308aa37a7a94',
  data: '61e9854bbce8e444a497663e',
  cableTv: '61e9857bbce8e444a4976641',
  utility: '61e985a3bce8e444a4976643',
  mtnAirtime: '61e988830e69308aa37a7a99',
  mtnData: '61e989f20e69308aa37a7a9f',
  dstv: '61e98b3562d9b6a917f9302a',
  ikeja: '61e98ca5ab69182f326e6db6',
} as const;

/** A VAS purchase through `/vas/pay/:path`; answers the response, whatever it is. */
export function vasPurchase(
  app: FastifyInstance,
  headers: Headers,
  path: 'airtime' | 'data' | 'cable-tv' | 'utility',
  body: Record<string, unknown>,
  extraHeaders: Headers = {},
) {
  return app.inject({
    method: 'POST',
    url: `/vas/pay/${path}`,
    headers: { ...headers, ...extraHeaders },
    payload: { channel: 'WEB', ...body },
  });
}

/** The body of a USSD reference settling to `settlementAccountNumber` (amount as a string). */
export function ussdReferenceBody(
  settlementAccountNumber: string,
  extra: Record<string, unknown> = {},
) {
  return {
    amount: '1500.00',
    merchantName: 'Acme Stores',
    ussdBankCode: '737',
    callbackUrl: 'https://merchant.example.com/hooks/ussd',
    settlementAccount: { bankCode: '999240', accountNumber: settlementAccountNumber },
    ...extra,
  };
}

/** POST /ussd-payment; throws unless it answers 200. */
export async function createUssdReference(
  app: FastifyInstance,
  headers: Headers,
  settlementAccountNumber: string,
  extra: Record<string, unknown> = {},
) {
  const response = await app.inject({
    method: 'POST',
    url: '/ussd-payment',
    headers,
    payload: ussdReferenceBody(settlementAccountNumber, extra),
  });
  if (response.statusCode !== 200) {
    throw new Error(`USSD reference creation failed: ${response.body}`);
  }
  return response.json().data as {
    _id: string;
    reference: string;
    ussdString: string;
    amount: number;
    status: string;
    expiresAt: string;
  };
}

/** A customer dials a USSD reference (sandbox gateway); answers the response. */
export function dialUssd(
  app: FastifyInstance,
  reference: string,
  extra: Record<string, unknown> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/admin/sandbox/ussd-dials',
    headers: adminHeaders,
    payload: { reference, ...extra },
  });
}

/** A checkout session as its hosted page holds it: the id and the token from its URL. */
export interface CheckoutPageSession {
  readonly id: string;
  readonly token: string;
  readonly referenceCode: string;
}

/**
 * POST /checkout/sessions as the widget sends it (₦2,500 from Ada Obi into `accountNumber`),
 * from its own address so no per-IP limit is met; throws unless it answers 200.
 */
export async function openCheckoutSession(
  app: FastifyInstance,
  owner: { readonly oauthClientId: string; readonly accountNumber: string },
  referenceCode: string,
  options: { readonly remoteAddress: string; readonly extra?: Record<string, unknown> },
): Promise<CheckoutPageSession> {
  const response = await app.inject({
    method: 'POST',
    url: '/checkout/sessions',
    remoteAddress: options.remoteAddress,
    payload: {
      environment: 'sandbox',
      clientId: owner.oauthClientId,
      referenceCode,
      customer: { firstName: 'Ada', lastName: 'Obi', emailAddress: 'ada.obi@example.com' },
      currency: 'NGN',
      amount: 2500,
      settlementAccount: { bankCode: '999240', accountNumber: owner.accountNumber },
      ...options.extra,
    },
  });
  if (response.statusCode !== 200) {
    throw new Error(`checkout session failed: ${response.body}`);
  }
  const { sessionId, pageUrl } = response.json().data;
  return { id: sessionId, token: pageUrl.split('#')[1], referenceCode };
}

/** A hosted-page call with the session's token: GET the session for '', POST otherwise. */
export function checkoutPageCall(
  app: FastifyInstance,
  session: CheckoutPageSession,
  path: string,
  payload?: Record<string, unknown>,
) {
  return app.inject({
    method: path === '' ? 'GET' : 'POST',
    url: `/checkout/sessions/${session.id}${path}`,
    headers: { 'x-checkout-token': session.token },
    ...(payload === undefined ? {} : { payload }),
  });
}
