import type { Db, Queryable } from '../../../db/db.ts';
import { NO_CHARGES } from '../../../ledger/charges.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newNipSessionId, newObjectId } from '../../../shared/ids.ts';
import { invariant } from '../../../shared/invariant.ts';
import { type Account, findClientAccount, findSweepDestination } from '../../accounts/index.ts';
import { buildOutward } from '../transfer-builder.ts';
import { addToDailyOutbound } from '../transfer-repository.ts';
import { insertIntraBank, postIntraBank } from './intra-bank-posting.ts';

export const AUTO_SWEEP_NARRATION = 'Auto-sweep';

/**
 * Runs a batch call that credits accounts, sweeping each credited account that has auto-sweep on
 * in the same transaction. Most batches credit none such: they run as the single call alone,
 * which commits as it answers. `credited[i]` is the account item i credits when `landed` says
 * its result moved the money.
 */
export async function commitWithSweeps<Result>(
  db: Db,
  deps: { clock: Clock; institutionCode: string },
  batch: {
    credited: readonly (Account | undefined)[];
    call: (db: Queryable) => Promise<Result[]>;
    landed: (result: Result) => boolean;
  },
): Promise<Result[]> {
  if (!batch.credited.some((account) => account?.autoSweep?.enabled === true)) {
    return batch.call(db);
  }
  return db.transaction(async (tx) => {
    const results = await batch.call(tx);
    for (const [index, result] of results.entries()) {
      const credited = batch.credited[index];
      if (credited !== undefined && batch.landed(result)) {
        await sweepAfterCredit(tx, deps, credited);
      }
    }
    return results;
  });
}

/**
 * The locks a batch takes, beside its accounts', for the sweep of an account it credits: the
 * sweep adds to the account's daily limit key, a row other accounts of the same identity write
 * too, so its lock is taken up front with the batch's others, in their one global order, rather
 * than after them (out of order, which could deadlock with a batch placing for that identity).
 */
export function sweepLockIds(credited: Account | undefined): string[] {
  return credited?.autoSweep?.enabled === true ? [credited.dailyLimitKey] : [];
}

/**
 * After a credit lands on a sub-account with auto-sweep on, moves what it holds above the
 * retained amount to the destination account, as an intra-bank transfer in the same
 * transaction: the statement, the transfer history and a `transfer` webhook show it. A
 * destination that is gone, inactive or another client's is skipped, never an error: the credit
 * itself must not fail because of a sweep setting. Called once per credit by the service that
 * made it; a sweep's own credit is not swept again.
 */
export async function sweepAfterCredit(
  tx: Queryable,
  deps: { clock: Clock; institutionCode: string },
  credited: Account,
): Promise<void> {
  // Most credited accounts have no sweep: decide from the row already read, without a query.
  if (!credited.autoSweep?.enabled) {
    return;
  }
  // Read again for the balance after the credit (and settings as of this transaction).
  const account = await findClientAccount(tx, credited.clientId, credited.id);
  const sweep = account?.autoSweep;
  if (account === undefined || sweep === undefined || sweep === null || !sweep.enabled) {
    return;
  }
  const amountKobo = account.balanceKobo - account.heldKobo - sweep.retainKobo;
  if (account.status !== 'Active' || amountKobo <= 0n || amountKobo < sweep.minimumKobo) {
    return;
  }
  const destination = await findSweepDestination(tx, account, sweep.destinationAccountNumber);
  if (destination === undefined) {
    return;
  }
  const sessionId = newNipSessionId(deps.institutionCode, deps.clock);
  const outward = buildOutward(
    {
      id: newObjectId(deps.clock),
      sessionId,
      paymentReference: sessionId,
      nameEnquiryReference: sessionId,
      debitAccount: account,
      counterparty: {
        bankCode: deps.institutionCode,
        accountNumber: destination.accountNumber,
        accountName: destination.accountName,
        kycLevel: destination.kycLevel,
      },
      amountKobo,
      charges: NO_CHARGES,
      narration: AUTO_SWEEP_NARRATION,
      intraBank: true,
      institutionCode: deps.institutionCode,
    },
    deps.clock,
  );
  const inward = await insertIntraBank(tx, deps.clock, {
    outward,
    extras: { dailyLimitKey: account.dailyLimitKey },
    beneficiary: destination,
  });
  invariant(inward !== undefined, `auto-sweep ${outward.id} has a fresh session id`);
  // A sweep is outbound volume of the swept account's identity like any transfer (no limit
  // applies to it, but it counts towards the others').
  await addToDailyOutbound(tx, {
    limitKey: account.dailyLimitKey,
    madeAt: outward.createdAt,
    amountKobo: amountKobo,
  });
  await postIntraBank(tx, deps.clock, {
    outward,
    inward,
    debitAccount: account,
    beneficiary: destination,
  });
}
