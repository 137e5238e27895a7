// The published third-party Node SDK for the IBS API (@specialman/safehaven), loaded module by
// module for the compatibility tests. The SDK is CommonJS without types; these describe only what
// the tests touch.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

export interface SdkResponse<T> {
  statusCode: number;
  message: string;
  data: T;
}

export interface SdkAuth {
  base_url: string;
  access_token: string | null;
  ibs_client_id: string | null;
  token_expiry: number | null;
  MAX_RETRIES: number;
  RETRY_DELAY: number;
  authenticate(): Promise<void>;
  cleanup(): void;
}

export type SdkRequest = (
  path: string,
  payload: Record<string, unknown>,
) => Promise<SdkResponse<unknown>>;

type SdkCall = (data: Record<string, unknown>) => Promise<SdkResponse<unknown>>;

export interface SdkAccountService {
  accounts(query: Record<string, unknown>): Promise<SdkResponse<unknown>>;
  account(id: string): Promise<SdkResponse<unknown>>;
  create: SdkCall;
  update: SdkCall;
  createSubAccount: SdkCall;
  updateSubAccount: SdkCall;
  statement: SdkCall;
}

export interface SdkTransferService {
  banks(query?: Record<string, unknown>): Promise<SdkResponse<unknown>>;
  nameEnquiry: SdkCall;
  create: SdkCall;
  status: SdkCall;
  list(query?: Record<string, unknown>): Promise<SdkResponse<unknown>>;
  beneficiaries(query?: Record<string, unknown>): Promise<SdkResponse<unknown>>;
  deleteBeneficiary(id: string): Promise<SdkResponse<unknown>>;
}

export interface SdkVerificationService {
  initiate: SdkCall;
  validate: SdkCall;
}

export interface SdkVirtualAccountService {
  create: SdkCall;
  account(id: string): Promise<SdkResponse<unknown>>;
  /** Sic: the SDK's spelling. Rejects without a sessionId before any request. */
  transaferStatus(data: { sessionId: string }): Promise<SdkResponse<unknown>>;
  transaction(data: { virtualAccountId: string }): Promise<SdkResponse<unknown>>;
  update(data: { account_id: string } & Record<string, unknown>): Promise<SdkResponse<unknown>>;
  delete(id: string): Promise<SdkResponse<unknown>>;
}

export interface SdkUssdSettlementAccount {
  bankCode: string;
  accountNumber: string;
}

/** The published PHP SDK's UssdPaymentService; the Node SDK has no USSD service. */
export interface SdkUssdPaymentService {
  getBanks(): Promise<SdkResponse<unknown>>;
  createReference(
    amount: string | number,
    merchantName: string,
    ussdBankCode: string,
    callbackUrl: string,
    settlementAccount: SdkUssdSettlementAccount,
  ): Promise<SdkResponse<unknown>>;
}

export interface SdkAppError extends Error {
  statusCode: number;
  error: string;
  error_description: string;
}

export interface WirePage<T> {
  data: T[];
  pagination: { total: number; pages: number; page: string; limit: string };
}

const require = createRequire(import.meta.url);
// Not app.js: it loads dotenv. The modules are built against any base URL.
export const Auth = require('@specialman/safehaven/services/auth.js') as new (options: {
  client_id: string;
  client_assertion: string;
  env: string;
}) => SdkAuth;
export const base = require('@specialman/safehaven/lib/base.js') as (auth: SdkAuth) => SdkRequest;
export const Account = require('@specialman/safehaven/services/account.js') as new (
  request: SdkRequest,
) => SdkAccountService;
export const Transfer = require('@specialman/safehaven/services/transfer.js') as new (
  request: SdkRequest,
) => SdkTransferService;
export const Verification = require('@specialman/safehaven/services/verification.js') as new (
  request: SdkRequest,
) => SdkVerificationService;
export const VirtualAccount = require('@specialman/safehaven/services/virtualAccount.js') as new (
  request: SdkRequest,
) => SdkVirtualAccountService;

/**
 * What the published PHP SDK's UssdPaymentService sends, on the Node SDK's own request function
 * (its headers, its envelope handling, its errors): GET ussd-payment/banks, and POST ussd-payment
 * with the amount cast to a string, as PHP's `(string) $amount` does.
 */
export class UssdPayment implements SdkUssdPaymentService {
  readonly #request: SdkRequest;

  constructor(request: SdkRequest) {
    this.#request = request;
  }

  getBanks() {
    return this.#request('/ussd-payment/banks', { method: 'GET' });
  }

  createReference(
    amount: string | number,
    merchantName: string,
    ussdBankCode: string,
    callbackUrl: string,
    settlementAccount: SdkUssdSettlementAccount,
  ) {
    return this.#request('/ussd-payment', {
      method: 'POST',
      data: {
        amount: String(amount),
        merchantName,
        ussdBankCode,
        callbackUrl,
        settlementAccount,
      },
    });
  }
}

export const { AppError } = require('@specialman/safehaven/middleware/error.js') as {
  AppError: new (...args: unknown[]) => SdkAppError;
};

/** The SDK's error, checked by class and by the fields its callers read. */
export function sdkError(statusCode: number, message: string) {
  return (error: unknown) => {
    assert.ok(error instanceof AppError, `expected the SDK's AppError, got ${String(error)}`);
    assert.equal(error.statusCode, statusCode);
    assert.equal(error.message, message);
    assert.equal(error.error_description, message);
    return true;
  };
}
