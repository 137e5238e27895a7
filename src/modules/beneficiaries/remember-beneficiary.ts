import type { Queryable } from '../../db/db.ts';
import type { Clock } from '../../shared/clock.ts';
import { newObjectId } from '../../shared/ids.ts';
import type { BankLookup } from '../transfers/name-enquiry/name-enquiry-service.ts';
import { saveBeneficiary } from './beneficiary-repository.ts';

/** Saves (or refreshes) a beneficiary after a successful transfer, in that transfer's transaction. */
export async function rememberBeneficiary(
  tx: Queryable,
  deps: { clock: Clock; banks: BankLookup },
  clientId: string,
  destination: { bankCode: string; accountNumber: string; accountName: string },
): Promise<void> {
  const now = deps.clock.now();
  await saveBeneficiary(tx, {
    id: newObjectId(deps.clock),
    clientId,
    bankCode: destination.bankCode,
    bankName: deps.banks.find(destination.bankCode)?.name ?? destination.bankCode,
    accountNumber: destination.accountNumber,
    accountName: destination.accountName,
    createdAt: now,
    updatedAt: now,
  });
}
