import { koboToNaira } from '../../shared/money.ts';
import { type CheckoutSession, statusAt } from './checkout-session.ts';
import type { CheckoutSettings } from './checkout-settings.ts';

/**
 * The session as `GET /checkout/:referenceCode/verify` answers it, and as the
 * `checkout.payment` event carries it (docs/checkout.md lists every field). `amount` is what the
 * merchant asked for; `amountPaid` what the customer paid; `fees` what the bank took from it.
 */
export function checkoutVerifyView(session: CheckoutSession, institutionCode: string, now: Date) {
  const payment = session.payment;
  return {
    _id: session.id,
    referenceCode: session.referenceCode,
    status: statusAt(session, now),
    currency: 'NGN',
    amount: koboToNaira(session.amountKobo),
    amountPaid: payment === null ? null : koboToNaira(payment.paidKobo),
    fees: payment === null ? null : koboToNaira(payment.feesKobo),
    settledAmount: payment === null ? null : koboToNaira(payment.paidKobo - payment.feesKobo),
    feeBearer: session.feeBearer,
    channel: payment?.channel ?? null,
    transactionId: payment?.transferId ?? null,
    paidAt: payment?.paidAt.toISOString() ?? null,
    customer: session.customer,
    settlementAccount: {
      bankCode: institutionCode,
      accountNumber: session.settlementAccountNumber,
    },
    metadata: session.metadata,
    expiresAt: session.expiresAt.toISOString(),
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
  };
}

/** What the widget hands the merchant page's `callback` (and the redirect's query) on success. */
export function checkoutCallbackView(session: CheckoutSession) {
  const payment = session.payment;
  return {
    status: session.status === 'Completed' ? 'Completed' : 'Pending',
    referenceCode: session.referenceCode,
    amount: koboToNaira(session.amountKobo),
    amountPaid: payment === null ? null : koboToNaira(payment.paidKobo),
    fees: payment === null ? null : koboToNaira(payment.feesKobo),
    feeBearer: session.feeBearer,
    currency: 'NGN',
    channel: payment?.channel ?? null,
    transactionId: payment?.transferId ?? null,
    paidAt: payment?.paidAt.toISOString() ?? null,
  };
}

/** What the hosted page shows and works from (`GET /checkout/sessions/:id`). */
export function checkoutPageView(
  session: CheckoutSession,
  context: {
    readonly now: Date;
    readonly environment: 'sandbox' | 'production';
    /** What the customer pays by each method (the fee added when they bear it). */
    readonly payable: Readonly<Record<'BANK_TRANSFER' | 'USSD', bigint>>;
    readonly banks: readonly { bankName: string; ussdBankCode: string }[];
  },
) {
  const method = (channel: 'BANK_TRANSFER' | 'USSD') => {
    const toPay = context.payable[channel];
    return {
      amountToPay: koboToNaira(toPay),
      customerFee: koboToNaira(toPay - session.amountKobo),
    };
  };
  return {
    id: session.id,
    referenceCode: session.referenceCode,
    environment: context.environment,
    merchantName: session.merchantName,
    customIconUrl: session.customIconUrl,
    customerName: `${session.customer.firstName} ${session.customer.lastName}`,
    currency: 'NGN',
    amount: koboToNaira(session.amountKobo),
    feeBearer: session.feeBearer,
    status: statusAt(session, context.now),
    expiresAt: session.expiresAt.toISOString(),
    methods: { BANK_TRANSFER: method('BANK_TRANSFER'), USSD: method('USSD') },
    banks: context.banks.map(({ bankName, ussdBankCode }) => ({ bankName, ussdBankCode })),
    redirectUrl: session.redirectUrl,
    /** The merchant page's origin, the one window the page tells the result to. */
    merchantOrigin: session.origin,
    result: session.status === 'Completed' ? checkoutCallbackView(session) : null,
  };
}

/** A client's checkout settings on the wire. */
export function checkoutSettingsView(settings: CheckoutSettings) {
  return {
    allowedOrigins: [...settings.allowedOrigins],
    webhookUrls: [...settings.webhookUrls],
    updatedAt: settings.updatedAt?.toISOString() ?? null,
  };
}
