import type { Queryable } from '../../db/db.ts';
import type { Charges } from '../../ledger/charges.ts';
import type { Kobo } from '../../shared/money.ts';
import type { OutboxEvent } from '../../webhooks/outbox.ts';
import type { Account } from '../accounts/index.ts';
import type { Transfer } from './transfer.ts';

/**
 * A number of ours that is not an account but collects payments for one (a virtual account):
 * the transfers module pays it like an account, into its settlement account, and the owner
 * accepts or refuses each payment inside the payment's own database call (the item's
 * `collection`, which apply_transfer_batch hands to virtual_account_collect, migration 0016).
 * The virtual accounts module implements this port; services.ts plugs it in.
 */
export interface CollectionAccount {
  readonly id: string;
  readonly accountNumber: string;
  /** The name a payer sees in name enquiry and on the transfer. */
  readonly accountName: string;
  /** Where accepted payments land, less the collection charges. */
  readonly settlementAccount: Account;
  /** Takes payments now (Active and not expired); name enquiry fails when it does not. */
  readonly payable: boolean;
  /** What the bank charges the client on a payment of this amount. */
  charges(amountKobo: Kobo): Charges;
  /** The owner's webhook for an accepted payment (the settlement account's Inwards row). */
  paymentEvent(payment: Transfer): OutboxEvent;
}

export interface Collections {
  /** The collection accounts with these numbers, by number; others are absent. */
  findByNumbers(
    db: Queryable,
    accountNumbers: readonly string[],
  ): Promise<Map<string, CollectionAccount>>;
}

/** No collection accounts (a deployment or test without the virtual accounts module). */
export const NO_COLLECTIONS: Collections = { findByNumbers: async () => new Map() };

/** The item field that asks the batch call to have the payment accepted by its owner. */
export function collectionJson(
  collection: CollectionAccount,
  payment: { id: string; sessionId: string; amountKobo: Kobo; receivedAt: Date },
) {
  return {
    virtualAccountId: collection.id,
    transferId: payment.id,
    sessionId: payment.sessionId,
    amount: payment.amountKobo.toString(),
    receivedAt: payment.receivedAt.toISOString(),
  };
}

/** The payment's row: the settlement account's Inwards transfer, named for the collection account. */
export function asCollectionPayment(
  transfer: Transfer,
  collection: CollectionAccount,
  stampDutyKobo: Kobo,
): Transfer {
  const charges = collection.charges(transfer.amountKobo);
  return {
    ...transfer,
    clientId: collection.settlementAccount.clientId,
    accountId: collection.settlementAccount.id,
    credit: {
      ...transfer.credit,
      accountName: collection.accountName,
      accountNumber: collection.accountNumber,
      kycLevel: collection.settlementAccount.kycLevel,
    },
    feeKobo: charges.feeKobo,
    vatKobo: charges.vatKobo,
    stampDutyKobo,
  };
}
