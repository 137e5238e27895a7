import type { Queryable } from '../../../db/db.ts';
import { chargePostings } from '../../../ledger/charges.ts';
import { GL_ACCOUNTS } from '../../../ledger/gl-accounts.ts';
import type { Posting } from '../../../ledger/journal.ts';
import * as ledger from '../../../ledger/ledger-service.ts';
import type { TransferOutcome } from '../../../rails/rail.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newObjectId } from '../../../shared/ids.ts';
import { invariant } from '../../../shared/invariant.ts';
import { enqueueEvent } from '../../../webhooks/outbox.ts';
import { findClientAccount } from '../../accounts/index.ts';
import type { BeneficiaryService } from '../../beneficiaries/index.ts';
import {
  findTransferById,
  recordRailAnswer,
  removeFromDailyOutbound,
  type TransferRecord,
} from '../transfer-repository.ts';
import { move } from '../transfer-state.ts';
import { transferView } from '../transfer-view.ts';

export interface SettlementDeps {
  readonly clock: Clock;
  readonly beneficiaries: Pick<BeneficiaryService, 'remember'>;
  readonly statusQueryScheduleSeconds: readonly number[];
}

/**
 * The second step of a NIP transfer, in the caller's transaction: what the rail answered, applied
 * once. A success posts the hold (amount, fee and VAT), a definitive failure voids it, and an
 * unknown outcome (timeout, ambiguous code) leaves the transfer Processing for a later status
 * query: nothing is ever reversed on a timeout alone. A transfer that is no longer Processing
 * (another worker settled it) is left as it is.
 */
export async function applyRailAnswer(
  tx: Queryable,
  deps: SettlementDeps,
  transferId: string,
  outcome: TransferOutcome,
): Promise<TransferRecord> {
  const transfer = await findTransferById(tx, transferId, { forUpdate: true });
  invariant(transfer !== undefined, `transfer ${transferId} vanished`);
  if (transfer.status !== 'Processing') {
    return transfer;
  }
  const now = deps.clock.now();
  if (outcome.kind !== 'unknown') {
    return finish(tx, deps, transfer, outcome, now);
  }
  return recordRailAnswer(tx, {
    transferId,
    status: move(transfer.status, 'Processing'),
    responseCode: outcome.responseCode,
    responseMessage: outcome.responseMessage,
    at: now,
    nextStatusQueryAt: nextQueryAt(deps.statusQueryScheduleSeconds, transfer.statusQueries, now),
  });
}

async function finish(
  tx: Queryable,
  deps: SettlementDeps,
  transfer: TransferRecord,
  outcome: Exclude<TransferOutcome, { kind: 'unknown' }>,
  now: Date,
): Promise<TransferRecord> {
  const status = move(transfer.status, outcome.kind === 'success' ? 'Completed' : 'Failed');
  invariant(transfer.holdId !== null, `NIP transfer ${transfer.id} has no hold`);
  if (status === 'Completed') {
    await ledger.post(tx, {
      id: newObjectId(deps.clock),
      kind: 'outbound_transfer',
      narration: transfer.narration,
      reference: transfer.paymentReference,
      transferId: transfer.id,
      createdAt: now,
      postings: successPostings(transfer),
      releaseHoldId: transfer.holdId,
    });
    if (transfer.saveBeneficiary) {
      await deps.beneficiaries.remember(tx, transfer.clientId, transfer.credit);
    }
  } else {
    await ledger.voidHold(tx, transfer.holdId, now);
    // A failed transfer no longer counts towards its day's limit.
    await removeFromDailyOutbound(tx, {
      accountId: transfer.accountId,
      madeAt: transfer.createdAt,
      amountKobo: transfer.amountKobo,
    });
  }
  const settled = await recordRailAnswer(tx, {
    transferId: transfer.id,
    status,
    responseCode: outcome.responseCode,
    responseMessage: outcome.responseMessage,
    at: now,
    nextStatusQueryAt: null,
  });
  const account = await findClientAccount(tx, transfer.clientId, transfer.accountId);
  await enqueueEvent(tx, deps.clock, {
    clientId: transfer.clientId,
    type: 'transfer',
    data: transferView(settled),
    callbackUrl: account?.callbackUrl ?? null,
  });
  return settled;
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
