import { chargePostings } from '../../../ledger/charges.ts';
import { GL_ACCOUNTS } from '../../../ledger/gl-accounts.ts';
import type { Posting } from '../../../ledger/journal.ts';
import { journalJson } from '../../../ledger/ledger-service.ts';
import type { TransferOutcome } from '../../../rails/rail.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newObjectId } from '../../../shared/ids.ts';
import { invariant } from '../../../shared/invariant.ts';
import { outboxEventsJson } from '../../../webhooks/outbox.ts';
import type { BeneficiaryService } from '../../beneficiaries/index.ts';
import { NIP_APPROVED } from '../transfer.ts';
import type { SettleItem } from '../transfer-batch.ts';
import type { TransferRecord } from '../transfer-repository.ts';
import { move } from '../transfer-state.ts';
import { transferView } from '../transfer-view.ts';

export interface SettlementDeps {
  readonly clock: Clock;
  readonly beneficiaries: Pick<BeneficiaryService, 'toSave'>;
  readonly statusQueryScheduleSeconds: readonly number[];
  /** A Completed transfer is asked about once more this long after, for a lost return; 0: not. */
  readonly returnCheckSeconds: number;
}

/**
 * A rail answer made ready for the settlement call (kind transferSettlement,
 * sql/transfer_settle_one.sql): `sql` is what the call applies, `settled` the transfer as it
 * then stands.
 */
export interface PreparedSettlement {
  readonly sql: SettleItem;
  readonly settled: TransferRecord;
}

/**
 * The second step of a NIP transfer: what the rail answered, to be applied once. A success posts
 * the hold (amount, fee and VAT), a definitive failure voids it, and an unknown outcome (timeout,
 * ambiguous code) leaves the transfer Processing for a later status query: nothing is ever
 * reversed on a timeout alone. The call applies it only to a transfer still Processing (another
 * worker may have settled it meanwhile), under the locks of its accounts. A status query that
 * answers a return settles the transfer as a success here (the money did arrive); the caller
 * applies the return next. A success is due for one more status query after the return window.
 */
export function prepareSettlement(
  deps: SettlementDeps,
  transfer: TransferRecord,
  outcome: TransferOutcome,
): PreparedSettlement {
  invariant(transfer.holdId !== null, `NIP transfer ${transfer.id} has no hold`);
  const now = deps.clock.now();
  const status = move('Processing', statusAfter(outcome));
  // A return reported by a status query: the transfer itself was approved.
  const { responseCode, responseMessage } =
    outcome.kind === 'returned'
      ? { responseCode: NIP_APPROVED.code, responseMessage: NIP_APPROVED.message }
      : outcome;
  const settled: TransferRecord = {
    ...transfer,
    status,
    responseCode,
    responseMessage,
    updatedAt: now,
    approvedAt: status === 'Completed' ? now : transfer.approvedAt,
    declinedAt: status === 'Failed' ? now : transfer.declinedAt,
  };
  const answer = {
    transferId: transfer.id,
    status,
    responseCode,
    responseMessage,
    at: now.toISOString(),
  };
  if (status === 'Processing') {
    const next = nextQueryAt(deps.statusQueryScheduleSeconds, transfer.statusQueries, now);
    return {
      sql: { ...answer, nextStatusQueryAt: next.toISOString() },
      settled,
    };
  }
  const [event] = outboxEventsJson(deps.clock, [
    { clientId: transfer.clientId, type: 'transfer', data: transferView(settled) },
  ]);
  if (status === 'Completed') {
    const returnCheckAt = new Date(now.getTime() + deps.returnCheckSeconds * 1000);
    const journal = journalJson({
      id: newObjectId(deps.clock),
      kind: 'outbound_transfer',
      narration: transfer.narration,
      reference: transfer.paymentReference,
      transferId: transfer.id,
      createdAt: now,
      postings: successPostings(transfer),
      releaseHoldId: transfer.holdId,
    });
    return {
      sql: {
        ...answer,
        ...(deps.returnCheckSeconds > 0 ? { nextStatusQueryAt: returnCheckAt.toISOString() } : {}),
        journal,
        event,
        ...(transfer.saveBeneficiary
          ? { beneficiary: deps.beneficiaries.toSave(transfer.credit) }
          : {}),
      },
      settled,
    };
  }
  // A failure gives its amount back to the daily total it counted under (transfer_settle_locks
  // takes that key's lock with the account's).
  return { sql: { ...answer, event }, settled };
}

function statusAfter(outcome: TransferOutcome): 'Processing' | 'Completed' | 'Failed' {
  switch (outcome.kind) {
    case 'unknown':
      return 'Processing';
    case 'success':
    case 'returned':
      return 'Completed';
    case 'failed':
      return 'Failed';
  }
}

function nextQueryAt(schedule: readonly number[], queriesSoFar: number, now: Date): Date {
  const delaySeconds = schedule[Math.min(queriesSoFar, schedule.length - 1)] ?? 60;
  return new Date(now.getTime() + delaySeconds * 1000);
}

/** The customer sees the amount, the fee and the VAT as three statement lines. */
function successPostings(transfer: TransferRecord): Posting[] {
  return [
    { accountId: transfer.accountId, amountKobo: -transfer.amountKobo },
    { accountId: GL_ACCOUNTS.nipSettlement, amountKobo: transfer.amountKobo },
    ...chargePostings(transfer.accountId, {
      feeKobo: transfer.feeKobo,
      vatKobo: transfer.vatKobo,
      feeNarration: `NIP transfer fee ${transfer.sessionId}`,
      vatNarration: `VAT on transfer fee ${transfer.sessionId}`,
    }),
  ];
}
