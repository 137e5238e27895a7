import type { Charges } from '../../ledger/charges.ts';
import type { Kobo } from '../../shared/money.ts';
import type { Account } from '../accounts/index.ts';
import type { CollectionAccount } from '../transfers/index.ts';
import type { UssdBank } from './ussd-banks.ts';
import { statusAt, type UssdReference } from './ussd-reference.ts';
import type { UssdReferenceClaim } from './ussd-reference-claim.ts';
import { ussdReferenceView } from './ussd-view.ts';

export interface UssdCollectionContext {
  readonly institutionCode: string;
  readonly now: Date;
  /** What a payment of this amount is charged (the USSD service's collection charges). */
  readonly charges: (amountKobo: Kobo) => Charges;
  /** The bank the customer dialled, and when it completed the payment. */
  readonly payerBank: UssdBank;
  readonly paidAt: Date;
  /** The client's webhook URL, which gets every payment event too (if set). */
  readonly webhookUrl: string | null;
}

/**
 * A reference as the transfers module pays it (a collection): the payment lands on the
 * settlement account less the fee, and ussd_reference_collect (sql/) accepts it, once,
 * in the payment's own database call, or refuses it.
 */
export function referenceAsCollection(
  reference: UssdReference,
  settlementAccount: Account,
  context: UssdCollectionContext,
): CollectionAccount {
  return {
    id: reference.id,
    accountNumber: settlementAccount.accountNumber,
    accountName: settlementAccount.accountName,
    settlementAccount,
    payable:
      statusAt(reference, context.now) === 'Pending' && settlementAccount.status === 'Active',
    charges: context.charges,
    claims: (payment) => [
      {
        handler: 'ussd_reference_collect',
        lock: reference.id,
        referenceId: reference.id,
        transferId: payment.id,
        sessionId: payment.sessionId,
        amount: payment.amountKobo.toString(),
        receivedAt: payment.receivedAt.toISOString(),
        ussdBankCode: context.payerBank.ussdBankCode,
        at: context.now.toISOString(),
      } satisfies UssdReferenceClaim,
    ],
    narration: (payment) =>
      `USSD ${reference.reference} via ${context.payerBank.bankName} from ${payment.debit.accountName}`,
    paymentEvents: (payment) => {
      const paid: UssdReference = {
        ...reference,
        status: 'Paid',
        payment: {
          transferId: payment.id,
          sessionId: payment.sessionId,
          ussdBankCode: context.payerBank.ussdBankCode,
          amountKobo: payment.amountKobo,
          paidAt: context.paidAt,
        },
        updatedAt: context.now,
      };
      const event = {
        clientId: reference.clientId,
        type: 'ussd.payment' as const,
        data: ussdReferenceView(paid, context, payment),
      };
      // The reference's callbackUrl always; the client's webhook URL too, unless it is the same.
      if (reference.callbackUrl === null) {
        return [{ ...event, callbackUrl: null }];
      }
      return [
        { ...event, callbackUrl: reference.callbackUrl },
        ...(context.webhookUrl === null || context.webhookUrl === reference.callbackUrl
          ? []
          : [{ ...event, callbackUrl: null }]),
      ];
    },
  };
}
