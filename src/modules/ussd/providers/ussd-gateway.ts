import type { Kobo } from '../../../shared/money.ts';

/**
 * The USSD gateway: the aggregator that issues payment references, and that the customer's bank
 * reports to when a customer dials one (`*737*000*REFERENCE#`) and approves the debit. OpenIBS
 * never talks to the customer's bank: the gateway tells it a payment completed (a notice), and
 * answers status queries for a reference whose notice never arrived.
 */
export interface UssdGateway {
  /** A new reference for this amount, payable until `expiresAt`. */
  issueReference(request: UssdReferenceRequest): Promise<UssdIssueOutcome>;
  /** What the gateway knows of a payment on this reference. */
  queryPayment(reference: string): Promise<UssdQueryOutcome>;
  /**
   * Where notices go. The handler resolves once the bank has accepted the payment (or had
   * accepted it before, under the same session id), and rejects with the bank's refusal (the
   * reference is paid, expired or unknown, or the amount is wrong): the gateway then returns the
   * money to the customer.
   */
  onPayment(handler: UssdPaymentHandler): void;
}

export interface UssdReferenceRequest {
  readonly amountKobo: Kobo;
  readonly merchantName: string;
  readonly expiresAt: Date;
}

export type UssdIssueOutcome =
  | { readonly kind: 'issued'; readonly reference: string }
  | { readonly kind: 'unavailable'; readonly message: string };

/** A payment the customer's bank completed on a reference. */
export interface UssdPaymentNotice {
  readonly reference: string;
  /** 30 digits, the customer's bank's NIP code first; unique per payment. */
  readonly sessionId: string;
  /** The USSD code of the bank the customer dialled. */
  readonly ussdBankCode: string;
  readonly amountKobo: Kobo;
  readonly payer: { readonly accountName: string; readonly accountNumber: string };
  /** When the customer's bank completed it: what the reference's expiry is judged by. */
  readonly paidAt: Date;
}

export type UssdPaymentHandler = (notice: UssdPaymentNotice) => Promise<unknown>;

export type UssdQueryOutcome =
  | { readonly kind: 'paid'; readonly notice: UssdPaymentNotice }
  /** Issued, not paid (yet). */
  | { readonly kind: 'unpaid' }
  /** The gateway never issued it. */
  | { readonly kind: 'unknown' }
  /** No usable answer now: ask again later. */
  | { readonly kind: 'unavailable'; readonly message: string };

/** A reference is the digits the customer dials: ten of them. */
export const USSD_REFERENCE = /^\d{10}$/;
