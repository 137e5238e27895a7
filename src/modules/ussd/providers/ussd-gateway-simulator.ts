import { AppError } from '../../../errors/app-error.ts';
import { type Clock, systemClock } from '../../../shared/clock.ts';
import { newDigitReference, newNipSessionId } from '../../../shared/ids.ts';
import { invariant } from '../../../shared/invariant.ts';
import type { Kobo } from '../../../shared/money.ts';
import { findUssdBank } from '../ussd-banks.ts';
import {
  createMemoryReferenceStore,
  type SimulatedReference,
  type SimulatorReferenceStore,
} from './simulator-references.ts';
import type { UssdGateway, UssdPaymentHandler, UssdPaymentNotice } from './ussd-gateway.ts';

/** Who pays in the sandbox: one customer at whichever bank is dialled. */
export const SANDBOX_USSD_PAYER = Object.freeze({
  accountName: 'SANDBOX USSD PAYER',
  accountNumber: '0123456789',
});

/**
 * The sandbox's magic amounts, by the reference amount's kobo (docs/ussd.md, "Sandbox"): what
 * happens when a customer dials a reference for, say, NGN 1,000.51. Any other amount is paid
 * at once and reported to the bank.
 */
export const USSD_MAGIC_KOBO = Object.freeze({
  /** The customer's bank declines (insufficient funds): nothing moves, it can be dialled again. */
  declined: 51n,
  /** Paid at the customer's bank, but the notice is lost: a status query finds it. */
  noticeLost: 52n,
  /** The customer's bank completes it a second after the reference expired: refused, reversed. */
  paidAfterExpiry: 53n,
  /** The customer's bank debits NGN 1 less than the reference asks: refused, reversed. */
  wrongAmount: 54n,
  /** The gateway cannot issue a reference for this amount (it is unavailable). */
  issueUnavailable: 55n,
});

/** What the customer dials, as the sandbox admin API takes it. */
export interface UssdDial {
  readonly reference: string;
  /** The bank the customer dials (its USSD code); any listed bank pays any reference. */
  readonly ussdBankCode: string;
  /** What the customer's bank debits, if not the reference's amount. */
  readonly amountKobo?: Kobo;
}

/** How a dial ended, as the customer's phone would tell it. */
export type UssdDialOutcome =
  /** The bank accepted the payment. */
  | { readonly kind: 'paid'; readonly notice: UssdPaymentNotice }
  /** The customer's bank declined the debit: nothing moved. */
  | { readonly kind: 'declined'; readonly message: string }
  /** Debited and recorded by the gateway, but the bank was not told: a status query will be. */
  | { readonly kind: 'noticeLost'; readonly notice: UssdPaymentNotice }
  /** The bank refused the payment: the gateway returned the money to the customer. */
  | {
      readonly kind: 'reversed';
      readonly notice: UssdPaymentNotice;
      readonly code: string;
      readonly message: string;
    }
  /** No such reference at the gateway. */
  | { readonly kind: 'unknownReference' };

export interface UssdGatewaySimulator extends UssdGateway {
  /** A customer dials a reference and approves the debit at their bank. */
  dial(dial: UssdDial): Promise<UssdDialOutcome>;
}

export interface UssdGatewaySimulatorOptions {
  readonly clock?: Clock;
  /** In the database in the server, so a restart (or another process) still knows its references. */
  readonly references?: SimulatorReferenceStore;
}

export function isUssdGatewaySimulator(gateway: UssdGateway): gateway is UssdGatewaySimulator {
  return 'dial' in gateway;
}

/**
 * The sandbox's USSD gateway: it issues references, plays the customer's bank when one is
 * dialled (`dial`), and reports payments to the bank as a real aggregator does. Deterministic:
 * the outcome follows from the reference's amount (USSD_MAGIC_KOBO) and the dial.
 */
export function createUssdGatewaySimulator(
  options: UssdGatewaySimulatorOptions = {},
): UssdGatewaySimulator {
  const clock = options.clock ?? systemClock;
  const references = options.references ?? createMemoryReferenceStore();
  let handler: UssdPaymentHandler | undefined;

  async function issueReference(request: {
    amountKobo: Kobo;
    merchantName: string;
    expiresAt: Date;
  }) {
    if (request.amountKobo % 100n === USSD_MAGIC_KOBO.issueUnavailable) {
      return { kind: 'unavailable' as const, message: 'The USSD gateway is not available.' };
    }
    for (;;) {
      const reference = newDigitReference(clock, 10);
      if (await references.add({ ...request, reference, createdAt: clock.now() })) {
        return { kind: 'issued' as const, reference };
      }
    }
  }

  async function queryPayment(reference: string) {
    const found = await references.find(reference);
    if (found === undefined) {
      return { kind: 'unknown' as const };
    }
    return found.payment === null
      ? { kind: 'unpaid' as const }
      : { kind: 'paid' as const, notice: noticeOf(found, found.payment) };
  }

  async function dial(request: UssdDial): Promise<UssdDialOutcome> {
    const bank = findUssdBank(request.ussdBankCode);
    invariant(bank !== undefined, `no bank has the USSD code ${request.ussdBankCode}`);
    const found = await references.find(request.reference);
    if (found === undefined) {
      return { kind: 'unknownReference' };
    }
    const magic = found.amountKobo % 100n;
    if (magic === USSD_MAGIC_KOBO.declined) {
      return { kind: 'declined', message: 'Insufficient funds' };
    }
    const payment = {
      sessionId: newNipSessionId(bank.bankCode, clock),
      ussdBankCode: bank.ussdBankCode,
      amountKobo:
        request.amountKobo ??
        (magic === USSD_MAGIC_KOBO.wrongAmount ? found.amountKobo - 100n : found.amountKobo),
      paidAt:
        magic === USSD_MAGIC_KOBO.paidAfterExpiry
          ? new Date(found.expiresAt.getTime() + 1000)
          : clock.now(),
    };
    const notice = noticeOf(found, payment);
    if (magic === USSD_MAGIC_KOBO.noticeLost) {
      await references.recordPayment(found.reference, payment);
      return { kind: 'noticeLost', notice };
    }
    invariant(handler !== undefined, 'no USSD payment handler is registered');
    try {
      await handler(notice);
    } catch (error) {
      if (error instanceof AppError && error.httpStatus < 500) {
        return { kind: 'reversed', notice, code: error.code, message: error.message };
      }
      // No answer from the bank: the gateway keeps the payment for the bank's status queries.
      await references.recordPayment(found.reference, payment);
      throw error;
    }
    await references.recordPayment(found.reference, payment);
    return { kind: 'paid', notice };
  }

  return {
    issueReference,
    queryPayment,
    onPayment: (next) => {
      handler = next;
    },
    dial,
  };
}

function noticeOf(
  reference: SimulatedReference,
  payment: { sessionId: string; ussdBankCode: string; amountKobo: Kobo; paidAt: Date },
): UssdPaymentNotice {
  return {
    reference: reference.reference,
    sessionId: payment.sessionId,
    ussdBankCode: payment.ussdBankCode,
    amountKobo: payment.amountKobo,
    payer: SANDBOX_USSD_PAYER,
    paidAt: payment.paidAt,
  };
}
