import type { Charges } from '../../ledger/charges.ts';
import type { Kobo } from '../../shared/money.ts';

export type FeeBearer = 'account' | 'customer';
export type CheckoutChannel = 'BANK_TRANSFER' | 'USSD';
/** As stored. `Expired` is never stored: it is a `Pending` session read after its expiry. */
export type CheckoutStatus = 'Pending' | 'Completed' | 'Expired';

export interface CheckoutCustomer {
  readonly firstName: string;
  readonly lastName: string;
  readonly emailAddress: string;
  readonly phoneNumber: string | null;
}

/** A payment a merchant's page collects through the widget, by one referenceCode. */
export interface CheckoutSession {
  readonly id: string;
  readonly clientId: string;
  readonly referenceCode: string;
  readonly requestHash: string;
  readonly amountKobo: Kobo;
  readonly feeBearer: FeeBearer;
  readonly customer: CheckoutCustomer;
  readonly merchantName: string;
  readonly settlementAccountId: string;
  readonly settlementAccountNumber: string;
  readonly redirectUrl: string | null;
  readonly webhookUrl: string | null;
  readonly customIconUrl: string | null;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly origin: string | null;
  readonly status: 'Pending' | 'Completed';
  readonly virtualAccountId: string | null;
  /** The USSD reference's digits (what the page shows), and its id (what a payment names). */
  readonly ussdReference: string | null;
  readonly ussdReferenceId: string | null;
  readonly payment: CheckoutPayment | null;
  readonly expiresAt: Date;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The payment that completed a session. */
export interface CheckoutPayment {
  readonly channel: CheckoutChannel;
  readonly transferId: string;
  /** What the customer paid. */
  readonly paidKobo: Kobo;
  /** What the bank took from it (fee, VAT, stamp duty). */
  readonly feesKobo: Kobo;
  readonly paidAt: Date;
}

export function statusAt(session: CheckoutSession, now: Date): CheckoutStatus {
  return session.status === 'Pending' && now >= session.expiresAt ? 'Expired' : session.status;
}

/**
 * What the customer pays for `amountKobo` by a method whose charges are `charges`: the amount
 * itself when the merchant bears the fee; otherwise the least sum whose proceeds, once the
 * method's charges are taken from it, are at least the amount (the fee is charged on what is
 * paid, so it is found by search; at most a kobo over, where rounding leaves no exact sum).
 */
export function amountToPay(
  amountKobo: Kobo,
  feeBearer: FeeBearer,
  charges: (paidKobo: Kobo) => Charges,
): Kobo {
  if (feeBearer === 'account') {
    return amountKobo;
  }
  const net = (paid: Kobo) => {
    const { feeKobo, vatKobo } = charges(paid);
    return paid - feeKobo - vatKobo;
  };
  let paid = amountKobo;
  // Each step adds what is still missing: charges grow far slower than the sum, so this ends.
  while (net(paid) < amountKobo) {
    paid += amountKobo - net(paid);
  }
  // Step back while a smaller sum still covers the amount (a step can overshoot by a kobo or two).
  while (paid > amountKobo && net(paid - 1n) >= amountKobo) {
    paid -= 1n;
  }
  return paid;
}
