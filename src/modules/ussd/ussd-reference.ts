import type { Kobo } from '../../shared/money.ts';

/** As stored. `Expired` is never stored: it is a `Pending` reference read after its expiry. */
export type StoredUssdReferenceStatus = 'Pending' | 'Paid';
export type UssdReferenceStatus = StoredUssdReferenceStatus | 'Expired';

/** The payment a reference accepted. */
export interface UssdReferencePayment {
  /** The settlement account's Inwards transfer. */
  readonly transferId: string;
  readonly sessionId: string;
  /** The USSD code of the bank the customer dialled (any listed bank can pay any reference). */
  readonly ussdBankCode: string;
  readonly amountKobo: Kobo;
  /** When the customer's bank completed it. */
  readonly paidAt: Date;
}

/** A code a customer dials at their own bank to pay one amount into one of the client's accounts. */
export interface UssdReference {
  readonly id: string;
  /** The digits the customer dials, unique across the bank. */
  readonly reference: string;
  readonly clientId: string;
  readonly merchantName: string;
  /** The bank the reference was made for (its dial string). */
  readonly ussdBankCode: string;
  readonly amountKobo: Kobo;
  readonly settlementAccountId: string;
  readonly settlementAccountNumber: string;
  /** Null: only the client's webhook URL hears of its payment (a checkout's reference). */
  readonly callbackUrl: string | null;
  readonly status: StoredUssdReferenceStatus;
  readonly expiresAt: Date;
  readonly payment: UssdReferencePayment | null;
  readonly statusQueries: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The status a reader sees at `now`: a Pending reference past its expiry is Expired. */
export function statusAt(reference: UssdReference, now: Date): UssdReferenceStatus {
  return reference.status === 'Pending' && now >= reference.expiresAt
    ? 'Expired'
    : reference.status;
}

/** What creating one asks for, in kobo and domain terms (the route maps the wire body). */
export interface NewUssdReferenceRequest {
  readonly amountKobo: Kobo;
  readonly merchantName: string;
  readonly ussdBankCode: string;
  readonly callbackUrl: string | null;
  readonly settlementAccount: { readonly bankCode: string; readonly accountNumber: string };
}
