import { chargePostings } from '../../../ledger/charges.ts';
import type { Journal } from '../../../ledger/journal.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newObjectId } from '../../../shared/ids.ts';
import type { OutboxEvent } from '../../../webhooks/outbox.ts';
import type { Account } from '../../accounts/index.ts';
import type { CollectionAccount } from '../collections.ts';
import type { Transfer } from '../transfer.ts';
import { transferView } from '../transfer-view.ts';

/** The parties of an intra-bank transfer: both its rows and both accounts. */
interface IntraBankParts {
  readonly outward: Transfer;
  readonly inward: Transfer;
  readonly debitAccount: Account;
  readonly beneficiary: Account;
}

/**
 * The journal that moves an intra-bank transfer's money: the sender's debit, the credit, and the
 * charges the recipient pays on it (only a collection account's payment has any).
 */
export function intraBankJournal(
  clock: Clock,
  parts: IntraBankParts & { readonly collection?: CollectionAccount | undefined },
): Journal {
  const { outward, inward, debitAccount, beneficiary, collection } = parts;
  // A payment to a collection account (a virtual account) credits its settlement account: its
  // owner words the statement line.
  const credit = {
    accountId: beneficiary.id,
    amountKobo: outward.amountKobo,
    ...(collection === undefined ? {} : { narration: collection.narration(inward) }),
  };
  return {
    id: newObjectId(clock),
    kind: 'intra_transfer',
    narration: outward.narration,
    reference: outward.paymentReference,
    transferId: outward.id,
    createdAt: outward.createdAt,
    postings: [
      { accountId: debitAccount.id, amountKobo: -outward.amountKobo },
      credit,
      ...chargePostings(beneficiary.id, {
        feeKobo: inward.feeKobo,
        vatKobo: inward.vatKobo,
        feeNarration: `Collection fee on ${inward.sessionId}`,
        vatNarration: `VAT on collection fee on ${inward.sessionId}`,
      }),
    ],
  };
}

/** A `transfer` event for each side, to each account's own callbackUrl (if it has one). */
export function intraBankEvents(parts: IntraBankParts): OutboxEvent[] {
  return (
    [
      [parts.outward, parts.debitAccount.callbackUrl],
      [parts.inward, parts.beneficiary.callbackUrl],
    ] as const
  ).map(([transfer, callbackUrl]) => ({
    clientId: transfer.clientId,
    type: 'transfer' as const,
    data: transferView(transfer),
    callbackUrl,
  }));
}
