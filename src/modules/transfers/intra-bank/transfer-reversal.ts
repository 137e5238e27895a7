import type { Db } from '../../../db/db.ts';
import { AppError, recordNotFound } from '../../../errors/app-error.ts';
import { throwIfRefusedOrFailed } from '../../../errors/batch-items.ts';
import { callBatch } from '../../../ledger/batch.ts';
import { GL_ACCOUNTS } from '../../../ledger/gl-accounts.ts';
import type { Posting } from '../../../ledger/journal.ts';
import { journalJson } from '../../../ledger/ledger-service.ts';
import { findLiensByReference, type Lien } from '../../../ledger/liens.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newObjectId } from '../../../shared/ids.ts';
import { invariant } from '../../../shared/invariant.ts';
import { outboxEventsJson } from '../../../webhooks/outbox.ts';
import { clawbackLien } from '../liens/clawback-lien.ts';
import { type ReverseItem, transferReversal } from '../transfer-batch.ts';
import {
  findInwardBySession,
  findOutwardBySession,
  findTransferById,
  type TransferRecord,
} from '../transfer-repository.ts';
import { canMove, move } from '../transfer-state.ts';
import { transferView } from '../transfer-view.ts';

export interface TransferReversalDeps {
  readonly db: Db;
  readonly clock: Clock;
}

/** An intra-bank transfer's two rows: the sender's Outwards, the beneficiary's Inwards twin. */
interface Sides {
  readonly outward: TransferRecord;
  readonly inward: TransferRecord;
}

/** A reversal as it stands: both rows, and the lien it left on the beneficiary, if any. */
export interface ReversalOutcome extends Sides {
  readonly liens: readonly Lien[];
}

/**
 * An operator's reversal of an intra-bank transfer made in error, made ready for the call. It is
 * the bank's error, so the customers are put back as they were: the sender is credited the
 * amount (an intra-bank transfer charges the sender nothing), the beneficiary debited what it
 * kept of it, and a collection's fee and VAT it paid on it are given back by their GL accounts
 * (docs/api.md, "Operator reversals"). What the beneficiary lacks under the lock becomes a lien.
 * Both rows become Reversed under the reversal's id, and each client gets its `transfer` event.
 */
export function prepareReversal(
  clock: Clock,
  sides: Sides,
  reason: string,
): { sql: ReverseItem; reversed: Sides } {
  const now = clock.now();
  const reversalId = newObjectId(clock);
  const reversed = (transfer: TransferRecord): TransferRecord => ({
    ...transfer,
    status: move(transfer.status, 'Reversed'),
    isReversed: true,
    reversalReference: reversalId,
    updatedAt: now,
  });
  const outward = reversed(sides.outward);
  const inward = reversed(sides.inward);
  const narration = `Reversal of ${sides.outward.sessionId}: ${reason}`;
  const journal = journalJson({
    id: newObjectId(clock),
    kind: 'transfer_reversal',
    narration,
    reference: sides.outward.paymentReference,
    transferId: sides.outward.id,
    createdAt: now,
    postings: reversalPostings(sides, narration),
  });
  const [outwardEvent, inwardEvent] = outboxEventsJson(
    clock,
    [outward, inward].map((transfer) => ({
      clientId: transfer.clientId,
      type: 'transfer' as const,
      data: transferView(transfer),
    })),
  );
  invariant(outwardEvent !== undefined && inwardEvent !== undefined, 'both sides have events');
  const lien = clawbackLien(clock, {
    accountId: sides.inward.accountId,
    clientId: sides.inward.clientId,
    reason: narration,
    reference: reversalId,
    at: now,
  });
  return {
    sql: {
      outwardId: outward.id,
      inwardId: inward.id,
      reversalId,
      at: now.toISOString(),
      journal,
      outwardEvent,
      inwardEvent,
      ...lien,
    },
    reversed: { outward, inward },
  };
}

/** The beneficiary gives back what it kept (one line: the clawback's), the sender gets it all. */
function reversalPostings({ outward, inward }: Sides, narration: string): Posting[] {
  const charges = inward.feeKobo + inward.vatKobo;
  return [
    { accountId: inward.accountId, amountKobo: -(inward.amountKobo - charges), narration },
    ...(inward.feeKobo > 0n
      ? [{ accountId: GL_ACCOUNTS.feeIncome, amountKobo: -inward.feeKobo }]
      : []),
    ...(inward.vatKobo > 0n
      ? [{ accountId: GL_ACCOUNTS.vatPayable, amountKobo: -inward.vatKobo }]
      : []),
    { accountId: outward.accountId, amountKobo: outward.amountKobo, narration },
  ];
}

/**
 * Operator reversals of intra-bank transfers. Each is one call of kind transferReversal, applied
 * only while both rows are Completed, so a reversal is executed once however often, and however
 * concurrently, it is asked for: every later request answers the reversal as it was done.
 */
export function createTransferReversalService(deps: TransferReversalDeps) {
  /** Reverses the transfer (either side's `_id`), or answers the reversal already done. */
  async function reverse(transferId: string, reason: string): Promise<ReversalOutcome> {
    const sides = await reversible(transferId);
    // Either side Reversed: done already (the two rows are read one after the other, so a
    // reversal committing between the reads shows on the second only; read again, both show it).
    if (sides.outward.status === 'Reversed' || sides.inward.status === 'Reversed') {
      return outcome(await reload(sides));
    }
    const prepared = prepareReversal(deps.clock, sides, reason);
    const [result] = await callBatch(deps.db, transferReversal, [prepared.sql]);
    invariant(result !== undefined, 'a reversal call answers its item');
    throwIfRefusedOrFailed(result, 'transfer reversal');
    return outcome(result.kind === 'applied' ? prepared.reversed : await reload(sides));
  }

  /** Both sides of an intra-bank transfer that is Completed, or was reversed already. */
  async function reversible(transferId: string): Promise<Sides> {
    const transfer = await findTransferById(deps.db, transferId);
    if (transfer === undefined) {
      throw recordNotFound();
    }
    const outward = await findOutwardBySession(deps.db, transfer.sessionId);
    const inward = await findInwardBySession(deps.db, transfer.sessionId);
    if (outward === undefined || inward === undefined || outward.holdId !== null) {
      throw new AppError(
        'TRANSFER_NOT_REVERSIBLE',
        'Only an intra-bank transfer can be reversed: a NIP transfer comes back by a return, a credit from another bank by a recall.',
      );
    }
    const done = outward.status === 'Reversed' && outward.reversalReference !== null;
    if (!done && !canMove(outward.status, 'Reversed')) {
      throw new AppError(
        'TRANSFER_NOT_REVERSIBLE',
        `Only a Completed transfer can be reversed: this one is ${outward.status}.`,
      );
    }
    return { outward, inward };
  }

  async function reload(sides: Sides): Promise<Sides> {
    const [outward, inward] = await Promise.all(
      [sides.outward.id, sides.inward.id].map((id) => findTransferById(deps.db, id)),
    );
    invariant(outward !== undefined && inward !== undefined, 'a reversed transfer is missing');
    return { outward, inward };
  }

  async function outcome(sides: Sides): Promise<ReversalOutcome> {
    const reference = sides.outward.reversalReference;
    const liens = reference === null ? [] : await findLiensByReference(deps.db, reference);
    return { ...sides, liens };
  }

  return { reverse };
}

export type TransferReversalService = ReturnType<typeof createTransferReversalService>;
