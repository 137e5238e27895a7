import type { Db } from '../../../db/db.ts';
import { AppError, recordNotFound } from '../../../errors/app-error.ts';
import { throwIfRefusedOrFailed } from '../../../errors/batch-items.ts';
import { callBatch } from '../../../ledger/batch.ts';
import { journalJson } from '../../../ledger/ledger-service.ts';
import { findLiensByReference, type Lien } from '../../../ledger/liens.ts';
import type { InboundRecallNotice } from '../../../rails/rail.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newObjectId } from '../../../shared/ids.ts';
import { invariant } from '../../../shared/invariant.ts';
import { outboxEventsJson } from '../../../webhooks/outbox.ts';
import { clawbackLien } from '../liens/clawback-lien.ts';
import { inboundRecall, type RecallItem } from '../transfer-batch.ts';
import {
  findInwardBySession,
  findTransferById,
  type TransferRecord,
} from '../transfer-repository.ts';
import { canMove, move } from '../transfer-state.ts';
import { transferView } from '../transfer-view.ts';

export interface InboundRecallDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly institutionCode: string;
  /** The GL account that mirrors money received from other banks (the credit's). */
  readonly settlementAccountId: string;
}

/** A recalled credit as it stands, with the lien it left if the account lacked the money. */
export interface RecallOutcome {
  readonly transfer: TransferRecord;
  readonly liens: readonly Lien[];
}

/** A recall made ready for its call (kind inboundRecall, sql/transfer_recall_one.sql). */
interface PreparedRecall {
  readonly sql: RecallItem;
  readonly recalled: TransferRecord;
}

/**
 * A credit from another bank that the sending bank recalls, made ready for the call. The sending
 * bank gets the whole amount back at once (the settlement GL credited, as the credit debited it);
 * the account is debited the whole amount, of which the call takes what it has available and
 * turns the rest into a lien (docs/api.md, "Recalled credits and liens"). The charges the credit
 * paid (stamp duty, a collection's fee) stay paid: they were due on the credit as received. The
 * credit becomes Reversed, its reversalReference the recall's session id.
 */
export function prepareRecall(
  deps: Pick<InboundRecallDeps, 'clock' | 'settlementAccountId'>,
  transfer: TransferRecord,
  notice: Pick<InboundRecallNotice, 'recallSessionId' | 'reason'>,
): PreparedRecall {
  const now = deps.clock.now();
  const recalled: TransferRecord = {
    ...transfer,
    status: move(transfer.status, 'Reversed'),
    isReversed: true,
    reversalReference: notice.recallSessionId,
    updatedAt: now,
  };
  const narration = `Recall of ${transfer.sessionId}: ${notice.reason}`;
  const journal = journalJson({
    id: newObjectId(deps.clock),
    kind: 'inbound_recall',
    narration,
    reference: transfer.paymentReference,
    transferId: transfer.id,
    createdAt: now,
    postings: [
      { accountId: transfer.accountId, amountKobo: -transfer.amountKobo, narration },
      { accountId: deps.settlementAccountId, amountKobo: transfer.amountKobo },
    ],
  });
  const [event] = outboxEventsJson(deps.clock, [
    { clientId: transfer.clientId, type: 'transfer', data: transferView(recalled) },
  ]);
  invariant(event !== undefined, 'a recall has its event');
  const lien = clawbackLien(deps.clock, {
    accountId: transfer.accountId,
    clientId: transfer.clientId,
    reason: narration,
    reference: notice.recallSessionId,
    at: now,
  });
  return {
    sql: {
      transferId: transfer.id,
      recallSessionId: notice.recallSessionId,
      at: now.toISOString(),
      journal,
      event,
      ...lien,
    },
    recalled,
  };
}

/**
 * Recalls of credits other banks sent, from the rail's notices (rail.onInboundRecalled). Each is
 * one call of kind inboundRecall, applied only to a credit still Completed: a notice resent, or
 * two racing, debit the account once.
 */
export function createInboundRecallService(deps: InboundRecallDeps) {
  /**
   * A recall notice: the credit it names, recalled once. A credit already recalled by this same
   * recall answers as it stands (networks resend); any other refuses the notice.
   */
  async function receive(notice: InboundRecallNotice): Promise<RecallOutcome> {
    const transfer = await findRecallable(notice.sessionId, notice.recallSessionId);
    if (transfer.status === 'Reversed') {
      return outcome(transfer);
    }
    const prepared = prepareRecall(deps, transfer, notice);
    const [result] = await callBatch(deps.db, inboundRecall, [prepared.sql]);
    invariant(result !== undefined, 'a recall call answers its item');
    throwIfRefusedOrFailed(result, 'inbound recall');
    return outcome(result.kind === 'applied' ? prepared.recalled : await load(transfer.id));
  }

  /**
   * The credit under this session id, if its sending bank may recall it now: a Completed credit
   * from another bank (or, given the recall's own id, one this recall already reversed).
   */
  async function findRecallable(
    sessionId: string,
    recallSessionId?: string,
  ): Promise<TransferRecord> {
    const transfer = await findInwardBySession(deps.db, sessionId);
    if (transfer === undefined) {
      throw recordNotFound();
    }
    if (transfer.debit.bankCode === deps.institutionCode) {
      throw new AppError(
        'TRANSFER_NOT_RECALLABLE',
        'Only a credit from another bank can be recalled: an intra-bank transfer is reversed.',
      );
    }
    const resent = transfer.status === 'Reversed' && transfer.reversalReference === recallSessionId;
    if (!resent && !canMove(transfer.status, 'Reversed')) {
      throw new AppError(
        'TRANSFER_NOT_RECALLABLE',
        `Only a Completed credit can be recalled: this one is ${transfer.status}.`,
      );
    }
    return transfer;
  }

  async function outcome(transfer: TransferRecord): Promise<RecallOutcome> {
    const liens =
      transfer.reversalReference === null
        ? []
        : await findLiensByReference(deps.db, transfer.reversalReference);
    return { transfer, liens };
  }

  async function load(transferId: string): Promise<TransferRecord> {
    const transfer = await findTransferById(deps.db, transferId);
    invariant(transfer !== undefined, `transfer ${transferId} is missing`);
    return transfer;
  }

  return {
    receive,
    findRecallable: (sessionId: string) => findRecallable(sessionId),
    /** The credit under this session id as it stands, with the lien its recall left. */
    async find(sessionId: string): Promise<RecallOutcome | undefined> {
      const transfer = await findInwardBySession(deps.db, sessionId);
      return transfer === undefined ? undefined : outcome(transfer);
    },
  };
}

export type InboundRecallService = ReturnType<typeof createInboundRecallService>;
