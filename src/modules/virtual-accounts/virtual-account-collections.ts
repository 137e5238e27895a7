import type { VirtualAccountConfig } from '../../config/virtual-account-config.ts';
import type { Queryable } from '../../db/db.ts';
import { type Charges, cappedShareCharges } from '../../ledger/charges.ts';
import type { Clock } from '../../shared/clock.ts';
import type { Kobo } from '../../shared/money.ts';
import { findAccountsByNumber } from '../accounts/index.ts';
import type { CollectionAccount, Collections } from '../transfers/index.ts';
import { statusAt, type VirtualAccount } from './virtual-account.ts';
import type { VirtualAccountClaim } from './virtual-account-claim.ts';
import { findByNumbers } from './virtual-account-repository.ts';
import { virtualAccountTransferView } from './virtual-account-view.ts';

export interface VirtualAccountCollectionsDeps {
  readonly clock: Clock;
  readonly config: VirtualAccountConfig;
  readonly vatBasisPoints: bigint;
}

/**
 * Virtual accounts as the transfers module pays them (its Collections port): a payment lands on
 * the settlement account less the collection charges, and virtual_account_collect (sql/)
 * accepts or refuses it in the payment's own database call.
 */
export function createVirtualAccountCollections(deps: VirtualAccountCollectionsDeps): Collections {
  async function findByNumbersAsCollections(db: Queryable, accountNumbers: readonly string[]) {
    const found = new Map<string, CollectionAccount>();
    if (accountNumbers.length === 0) {
      return found;
    }
    const accounts = await findByNumbers(db, accountNumbers);
    if (accounts.length === 0) {
      return found;
    }
    const settlements = await findAccountsByNumber(
      db,
      accounts.map((account) => account.settlementAccountNumber),
    );
    const now = deps.clock.now();
    for (const account of accounts) {
      const settlementAccount = settlements.get(account.settlementAccountNumber);
      if (settlementAccount === undefined) {
        continue;
      }
      found.set(account.accountNumber, {
        id: account.id,
        accountNumber: account.accountNumber,
        accountName: account.accountName,
        settlementAccount,
        payable: statusAt(account, now) === 'Active' && settlementAccount.status === 'Active',
        charges: (amountKobo) => collectionCharges(deps, amountKobo),
        claims: (payment) => [
          {
            handler: 'virtual_account_collect',
            lock: account.id,
            virtualAccountId: account.id,
            transferId: payment.id,
            sessionId: payment.sessionId,
            amount: payment.amountKobo.toString(),
            receivedAt: payment.receivedAt.toISOString(),
          } satisfies VirtualAccountClaim,
        ],
        narration: (payment) =>
          `Virtual account ${account.accountNumber} from ${payment.debit.accountName}: ${payment.narration}`,
        paymentEvents: (payment) => [paymentEvent(account, payment)],
      });
    }
    return found;
  }

  return { findByNumbers: findByNumbersAsCollections };
}

/** The collection fee: its share of the payment, half up to the kobo, capped; VAT on top. */
export function collectionCharges(
  deps: { config: VirtualAccountConfig; vatBasisPoints: bigint },
  amountKobo: Kobo,
): Charges {
  return cappedShareCharges(
    amountKobo,
    { basisPoints: deps.config.feeBasisPoints, capKobo: deps.config.feeCapKobo },
    deps.vatBasisPoints,
  );
}

function paymentEvent(
  account: VirtualAccount,
  payment: Parameters<typeof virtualAccountTransferView>[0],
) {
  return {
    clientId: account.clientId,
    type: 'virtualAccount.transfer' as const,
    data: virtualAccountTransferView(payment, account),
    // None: the client's webhook URL (the outbox falls back to it).
    callbackUrl: account.callbackUrl,
  };
}
