import type { Queryable } from '../../db/db.ts';
import type { Claim } from '../../ledger/batch.ts';
import type { Charges } from '../../ledger/charges.ts';
import type { Kobo } from '../../shared/money.ts';
import type { OutboxEvent } from '../../webhooks/outbox.ts';
import type { Account } from '../accounts/index.ts';
import type { Transfer } from './transfer.ts';

/**
 * Something of ours that collects payments for an account: a virtual account (a number a payer
 * sends to) or a USSD payment reference (a code a payer dials at their own bank). The transfers
 * module pays it like an account, into its settlement account, and the owner accepts or refuses
 * each payment inside the payment's own database call: the batch item carries the owner's
 * `claims`, which the item's function hands to the SQL functions they name (batch_run_claims,
 * ledger/sql/), so transfers never names its collectors. The virtual accounts and USSD modules
 * implement this port; services.ts plugs them in.
 */
export interface CollectionAccount {
  /** The row the owner's SQL decides on; the batch locks it, so payments to it go one at a time. */
  readonly id: string;
  /** The number the payment names as its beneficiary. */
  readonly accountNumber: string;
  /** The name a payer sees in name enquiry and on the transfer. */
  readonly accountName: string;
  /** Where accepted payments land, less the collection charges. */
  readonly settlementAccount: Account;
  /** Takes payments now (Active and not expired); name enquiry fails when it does not. */
  readonly payable: boolean;
  /** What the bank charges the client on a payment of this amount. */
  charges(amountKobo: Kobo): Charges;
  /** What the owners' SQL functions get to accept or refuse this payment (ledger/batch.ts). */
  claims(payment: CollectionPayment): Claim[];
  /** The settlement account's statement line for the payment (its Inwards row). */
  narration(payment: Transfer): string;
  /**
   * The owner's webhooks for an accepted payment (the settlement account's Inwards row), sent
   * beside the `transfer` event every credit to an account gets.
   */
  paymentEvents(payment: Transfer): OutboxEvent[];
}

/** A payment as a collection's owner judges it: its Inwards row, and when it was received. */
export interface CollectionPayment {
  readonly id: string;
  readonly sessionId: string;
  readonly amountKobo: Kobo;
  /** What the bank takes from it (asCollectionPayment): what a checkout reports as its fees. */
  readonly feeKobo: Kobo;
  readonly vatKobo: Kobo;
  readonly stampDutyKobo: Kobo;
  /** When the bank received it: what an expiry is judged by. */
  readonly receivedAt: Date;
  /** When it landed (the transfer's time). */
  readonly createdAt: Date;
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

/**
 * The payment's row: the settlement account's Inwards transfer, named for the collection account.
 * Its `paymentReference` is the session id, as for every credit from another bank, also when a
 * client of ours paid it (whose own reference stays on their Outwards transfer): clients
 * de-duplicate a collection's payments on it, so it must be one per payment, and two payers
 * choosing the same reference must not collide (docs/virtual-accounts.md, "Events").
 */
export function asCollectionPayment(
  transfer: Transfer,
  collection: CollectionAccount,
  stampDutyKobo: Kobo,
): Transfer {
  const charges = collection.charges(transfer.amountKobo);
  return {
    ...transfer,
    paymentReference: transfer.sessionId,
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
