import type { Db, Queryable } from '../../../db/db.ts';
import { GL_ACCOUNTS } from '../../../ledger/gl-accounts.ts';
import type { Posting } from '../../../ledger/journal.ts';
import * as ledger from '../../../ledger/ledger-service.ts';
import type { Rail, TransferOutcome } from '../../../rails/rail.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newObjectId } from '../../../shared/ids.ts';
import { invariant } from '../../../shared/invariant.ts';
import { enqueueEvent } from '../../../webhooks/outbox.ts';
import { findClientAccount } from '../../accounts/account-repository.ts';
import { rememberBeneficiary } from '../../beneficiaries/remember-beneficiary.ts';
import type { BankLookup } from '../name-enquiry/name-enquiry-service.ts';
import { findTransferById, settleTransfer, type TransferRecord } from '../transfer-repository.ts';
import { assertMove } from '../transfer-state.ts';
import { transferView } from '../transfer-view.ts';

export interface SettlementDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly rail: Rail;
  readonly banks: BankLookup;
  readonly statusQueryScheduleSeconds: readonly number[];
  /** How old a transfer must be before a status query's "no record" (25) counts as a failure. */
  readonly notFoundGraceSeconds: number;
}

/**
 * The second step of a NIP transfer. A success posts the hold, a definitive failure voids it,
 * and an unknown outcome (timeout, ambiguous code) leaves the transfer Processing for a later
 * status query: nothing is ever reversed on a timeout alone.
 */
export function createTransferSettlement(deps: SettlementDeps) {
  /** Sends the transfer to the rail after its hold committed, then settles what it answers. */
  async function dispatch(transfer: TransferRecord): Promise<TransferRecord> {
    const outcome = await askRail(() =>
      deps.rail.sendTransfer({
        sessionId: transfer.sessionId,
        nameEnquiryReference: transfer.nameEnquiryReference ?? '',
        amountKobo: transfer.amountKobo,
        beneficiary: party(transfer.credit),
        originator: party(transfer.debit),
        narration: transfer.narration,
        paymentReference: transfer.paymentReference,
      }),
    );
    return settle(transfer.id, outcome);
  }

  /** A status query (TSQ) for a Processing transfer, then its settlement. */
  async function queryAndSettle(transfer: TransferRecord): Promise<TransferRecord> {
    const outcome = await askRail(() =>
      deps.rail.queryStatus({ sessionId: transfer.sessionId, bankCode: transfer.credit.bankCode }),
    );
    return settle(transfer.id, tooEarlyToTellNotFound(transfer, outcome));
  }

  /**
   * "No record" (25) means the network never got the transfer, unless the query overtook a slow
   * send: a young transfer's 25 is only unknown, and a later query decides.
   */
  function tooEarlyToTellNotFound(transfer: TransferRecord, outcome: TransferOutcome) {
    const ageSeconds = (deps.clock.now().getTime() - transfer.createdAt.getTime()) / 1000;
    return outcome.kind === 'failed' &&
      outcome.responseCode === NOT_FOUND &&
      ageSeconds < deps.notFoundGraceSeconds
      ? ({ ...outcome, kind: 'unknown' } as const)
      : outcome;
  }

  async function settle(transferId: string, outcome: TransferOutcome): Promise<TransferRecord> {
    return deps.db.transaction(async (tx) => {
      const transfer = await findTransferById(tx, transferId, { forUpdate: true });
      invariant(transfer !== undefined, `transfer ${transferId} vanished`);
      if (transfer.status !== 'Processing') {
        return transfer;
      }
      const now = deps.clock.now();
      if (outcome.kind !== 'unknown') {
        return finish(tx, transfer, outcome, now);
      }
      await settleTransfer(tx, {
        transferId,
        status: 'Processing',
        responseCode: outcome.responseCode,
        responseMessage: outcome.responseMessage,
        at: now,
        nextStatusQueryAt: nextQueryAt(transfer.statusQueries, now),
      });
      return reload(tx, transferId);
    });
  }

  async function finish(
    tx: Queryable,
    transfer: TransferRecord,
    outcome: Exclude<TransferOutcome, { kind: 'unknown' }>,
    now: Date,
  ): Promise<TransferRecord> {
    const status = outcome.kind === 'success' ? 'Completed' : 'Failed';
    assertMove(transfer.status, status);
    invariant(transfer.holdId !== null, `NIP transfer ${transfer.id} has no hold`);
    if (outcome.kind === 'success') {
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
        await rememberBeneficiary(tx, deps, transfer.clientId, transfer.credit);
      }
    } else {
      await ledger.voidHold(tx, transfer.holdId, now);
    }
    await settleTransfer(tx, {
      transferId: transfer.id,
      status,
      responseCode: outcome.responseCode,
      responseMessage: outcome.responseMessage,
      at: now,
      nextStatusQueryAt: null,
    });
    const settled = await reload(tx, transfer.id);
    const account = await findClientAccount(tx, transfer.clientId, transfer.accountId);
    await enqueueEvent(tx, deps.clock, {
      clientId: transfer.clientId,
      type: 'transfer',
      data: transferView(settled),
      callbackUrl: account?.callbackUrl ?? null,
    });
    return settled;
  }

  function nextQueryAt(queriesSoFar: number, now: Date): Date {
    const schedule = deps.statusQueryScheduleSeconds;
    const delaySeconds = schedule[Math.min(queriesSoFar, schedule.length - 1)] ?? 60;
    return new Date(now.getTime() + delaySeconds * 1000);
  }

  return { dispatch, queryAndSettle, settle };
}

export type TransferSettlement = ReturnType<typeof createTransferSettlement>;

async function reload(tx: Queryable, transferId: string): Promise<TransferRecord> {
  const transfer = await findTransferById(tx, transferId);
  invariant(transfer !== undefined, `transfer ${transferId} vanished`);
  return transfer;
}

/** The customer sees the amount, the fee and the VAT as three statement lines. */
function successPostings(transfer: TransferRecord): Posting[] {
  const postings: Posting[] = [
    { accountId: transfer.accountId, amountKobo: -transfer.amountKobo },
    { accountId: GL_ACCOUNTS.nipSettlement, amountKobo: transfer.amountKobo },
  ];
  if (transfer.feeKobo > 0n) {
    postings.push(
      {
        accountId: transfer.accountId,
        amountKobo: -transfer.feeKobo,
        narration: `NIP transfer fee ${transfer.sessionId}`,
      },
      { accountId: GL_ACCOUNTS.feeIncome, amountKobo: transfer.feeKobo },
    );
  }
  if (transfer.vatKobo > 0n) {
    postings.push(
      {
        accountId: transfer.accountId,
        amountKobo: -transfer.vatKobo,
        narration: `VAT on transfer fee ${transfer.sessionId}`,
      },
      { accountId: GL_ACCOUNTS.vatPayable, amountKobo: transfer.vatKobo },
    );
  }
  return postings;
}

function party(side: {
  bankCode: string;
  accountNumber: string;
  accountName: string;
  kycLevel: string | null;
}) {
  return { ...side, kycLevel: side.kycLevel ?? '1' };
}

const NOT_FOUND = '25';

/** A rail that throws is a rail that did not answer: the outcome is unknown, never a failure. */
async function askRail(call: () => Promise<TransferOutcome>): Promise<TransferOutcome> {
  try {
    return await call();
  } catch (error) {
    return {
      kind: 'unknown',
      responseCode: null,
      responseMessage: `No answer from the rail: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
