import type { Db } from '../../../db/db.ts';
import { AppError, recordNotFound } from '../../../errors/app-error.ts';
import { throwIfRefusedOrFailed } from '../../../errors/batch-items.ts';
import { callBatch } from '../../../ledger/batch.ts';
import { chargeRefundPostings } from '../../../ledger/charges.ts';
import { GL_ACCOUNTS } from '../../../ledger/gl-accounts.ts';
import type { Posting } from '../../../ledger/journal.ts';
import { journalJson } from '../../../ledger/ledger-service.ts';
import type { TransferReturnNotice } from '../../../rails/rail.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newObjectId } from '../../../shared/ids.ts';
import { invariant } from '../../../shared/invariant.ts';
import { outboxEventsJson } from '../../../webhooks/outbox.ts';
import { type ReturnItem, transferReturn } from '../transfer-batch.ts';
import {
  findOutwardBySession,
  findTransferById,
  type TransferRecord,
} from '../transfer-repository.ts';
import { canMove, move } from '../transfer-state.ts';
import { transferView } from '../transfer-view.ts';

/** A return as the rail reports it: by notice, or in a status query's answer. */
export type TransferReturn = Pick<TransferReturnNotice, 'returnSessionId' | 'reason'>;

/** A return made ready for its call (kind transferReturn, sql/transfer_return_one.sql). */
export interface PreparedReturn {
  readonly sql: ReturnItem;
  /** The transfer as it stands once the call applied the return. */
  readonly returned: TransferRecord;
}

/**
 * A Completed NIP transfer the beneficiary bank sent back, made ready for the call. The customer
 * is made whole: the return gives back the amount and the fee and VAT the transfer was charged,
 * since the payment they paid for never reached its beneficiary (docs/api.md, "Returned NIP
 * transfers"). The journal mirrors the settlement's: the NIP settlement GL debited for the
 * amount, fee income and VAT payable for the charges, the customer credited with each as a
 * statement line of its own. The transfer becomes Reversed, its reversalReference the return's
 * session id, and its `transfer` event shows it so.
 */
export function prepareReturn(
  clock: Clock,
  transfer: TransferRecord,
  given: TransferReturn,
): PreparedReturn {
  const now = clock.now();
  const returned: TransferRecord = {
    ...transfer,
    status: move(transfer.status, 'Reversed'),
    isReversed: true,
    reversalReference: given.returnSessionId,
    updatedAt: now,
  };
  const narration = `Return of ${transfer.sessionId}: ${given.reason}`;
  const journal = journalJson({
    id: newObjectId(clock),
    kind: 'transfer_return',
    narration,
    reference: transfer.paymentReference,
    transferId: transfer.id,
    createdAt: now,
    postings: returnPostings(transfer, narration),
  });
  const [event] = outboxEventsJson(clock, [
    { clientId: transfer.clientId, type: 'transfer', data: transferView(returned) },
  ]);
  invariant(event !== undefined, 'a return has its event');
  return {
    sql: {
      transferId: transfer.id,
      returnSessionId: given.returnSessionId,
      at: now.toISOString(),
      journal,
      event,
    },
    returned,
  };
}

/** The settlement's postings, the other way: what it took from the customer comes back. */
function returnPostings(transfer: TransferRecord, narration: string): Posting[] {
  return [
    { accountId: GL_ACCOUNTS.nipSettlement, amountKobo: -transfer.amountKobo },
    { accountId: transfer.accountId, amountKobo: transfer.amountKobo, narration },
    ...chargeRefundPostings(transfer.accountId, {
      feeKobo: transfer.feeKobo,
      vatKobo: transfer.vatKobo,
      feeNarration: `Refund of NIP transfer fee ${transfer.sessionId}`,
      vatNarration: `Refund of VAT on transfer fee ${transfer.sessionId}`,
    }),
  ];
}

/** What may be returned: an Outwards NIP transfer (it held its funds) still Completed. */
function isReturnable(transfer: TransferRecord): boolean {
  return (
    transfer.type === 'Outwards' && transfer.holdId !== null && canMove(transfer.status, 'Reversed')
  );
}

export interface TransferReturnDeps {
  readonly db: Db;
  readonly clock: Clock;
}

/**
 * Returns of NIP transfers, from the rail's notices (rail.onTransferReturned) and from status
 * queries that answer one. Each is one call of kind transferReturn, applied only to a transfer
 * still Completed: a notice resent, or two racing, credit the customer once.
 */
export function createTransferReturnService(deps: TransferReturnDeps) {
  /**
   * A return notice: the transfer it names, returned once. A transfer already returned answers
   * as it stands (networks resend); one that cannot be returned refuses the notice, which a
   * later status query may find again (a Processing transfer, settled first then).
   */
  async function receive(notice: TransferReturnNotice): Promise<TransferRecord> {
    const transfer = await findOutwardBySession(deps.db, notice.sessionId);
    if (transfer === undefined) {
      throw recordNotFound();
    }
    if (transfer.status === 'Reversed') {
      return transfer;
    }
    refuseUnlessReturnable(transfer);
    if (notice.amountKobo !== transfer.amountKobo) {
      throw new AppError('TRANSFER_NOT_RETURNABLE', 'A return gives back the whole amount sent.');
    }
    return apply(transfer, notice);
  }

  /** Applies a return to a Completed transfer; answers the transfer as it then stands. */
  async function apply(transfer: TransferRecord, given: TransferReturn): Promise<TransferRecord> {
    const prepared = prepareReturn(deps.clock, transfer, given);
    const [result] = await callBatch(deps.db, transferReturn, [prepared.sql]);
    invariant(result !== undefined, 'a return call answers its item');
    throwIfRefusedOrFailed(result, 'transfer return');
    return result.kind === 'returned' ? prepared.returned : load(transfer.id);
  }

  /** Sandbox: the transfer under this session, if the beneficiary bank may send it back now. */
  async function findReturnable(sessionId: string): Promise<TransferRecord> {
    const transfer = await findOutwardBySession(deps.db, sessionId);
    if (transfer === undefined) {
      throw recordNotFound();
    }
    refuseUnlessReturnable(transfer);
    return transfer;
  }

  async function load(transferId: string): Promise<TransferRecord> {
    const transfer = await findTransferById(deps.db, transferId);
    invariant(transfer !== undefined, `transfer ${transferId} is missing`);
    return transfer;
  }

  return {
    receive,
    apply,
    findReturnable,
    /** Our Outwards transfer under this session id, as it stands. */
    find: (sessionId: string) => findOutwardBySession(deps.db, sessionId),
  };
}

export type TransferReturnService = ReturnType<typeof createTransferReturnService>;

function refuseUnlessReturnable(transfer: TransferRecord): void {
  if (!isReturnable(transfer)) {
    throw new AppError(
      'TRANSFER_NOT_RETURNABLE',
      transfer.holdId === null
        ? 'Only a NIP transfer to another bank can be returned.'
        : `Only a Completed transfer can be returned: this one is ${transfer.status}.`,
    );
  }
}
