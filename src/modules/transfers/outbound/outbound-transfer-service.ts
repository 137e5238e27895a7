import type { Principal } from '../../../auth/principal.ts';
import type { TransferConfig } from '../../../config/config.ts';
import type { Db } from '../../../db/db.ts';
import {
  createGroupCommit,
  type GroupCommitLimits,
  withoutQueueBound,
} from '../../../db/group-commit.ts';
import { itemFailure, refusalError } from '../../../errors/batch-items.ts';
import { requestFingerprint } from '../../../idempotency/idempotency.ts';
import { type BatchResult, callBatch } from '../../../ledger/batch.ts';
import type { Rail, TransferOutcome } from '../../../rails/rail.ts';
import type { Clock } from '../../../shared/clock.ts';
import { invariant } from '../../../shared/invariant.ts';
import type { BeneficiaryService } from '../../beneficiaries/index.ts';
import type { Collections } from '../collections.ts';
import type { Party } from '../transfer.ts';
import { transferPlacement, transferSettlement } from '../transfer-batch.ts';
import { endReturnCheck, findTransferById, type TransferRecord } from '../transfer-repository.ts';
import {
  lookUpPlacements,
  type PlacementLookup,
  type PreparedPlacement,
  preparePlacement,
  type TransferRequest,
} from './transfer-placement.ts';
import type { TransferReturnService } from './transfer-return.ts';
import { type PreparedSettlement, prepareSettlement } from './transfer-settlement.ts';

export interface OutboundTransferServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly rail: Rail;
  readonly institutionCode: string;
  readonly config: TransferConfig;
  readonly beneficiaries: Pick<BeneficiaryService, 'toSave'>;
  /** Group commit: the most items per call, calls in flight at once, and items waiting. */
  readonly batches: GroupCommitLimits;
  /** Numbers of ours that collect for an account (virtual accounts). */
  readonly collections: Collections;
  /** Returns a status query finds (the beneficiary bank sent a transfer back). */
  readonly returns: Pick<TransferReturnService, 'apply'>;
}

/**
 * Transfers a client sends: the one service that opens their transactions. Placing is one
 * transaction (checks, idempotency, money posted or held, the credited account's sweep); a NIP
 * transfer then goes to the rail outside any transaction, and what the rail answers is applied
 * in a second one. Status queries (from the API or the worker) apply their answer the same way,
 * and one that answers a return applies it after the settlement.
 */
export function createOutboundTransferService(deps: OutboundTransferServiceDeps) {
  const settlementDeps = {
    clock: deps.clock,
    beneficiaries: deps.beneficiaries,
    statusQueryScheduleSeconds: deps.config.statusQueryScheduleSeconds,
    returnCheckSeconds: deps.config.returnCheckSeconds,
  };

  /**
   * Placements are group-committed: those that arrive while batches are in flight are placed
   * together in one database call (docs/architecture.md, "The money path").
   */
  const placements = createGroupCommit<
    PreparedPlacement,
    BatchResult<typeof transferPlacement.result>
  >({
    ...deps.batches,
    run: (batch) =>
      callBatch(
        deps.db,
        transferPlacement,
        batch.map((placement) => placement.sql),
      ),
  });

  /** Their look-ups are batched alike: two queries for every request that arrives together. */
  const lookups = createGroupCommit<TransferRequest, PlacementLookup>({
    ...deps.batches,
    run: async (bodies) => {
      const found = await lookUpPlacements(deps.db, deps, bodies);
      return bodies.map(() => found);
    },
  });

  /**
   * Rail answers are group-committed the same way, one call per batch of settlements. Never
   * refused for a full queue: the hold is committed and the rail has answered by then.
   */
  const settlements = createGroupCommit<
    PreparedSettlement,
    BatchResult<typeof transferSettlement.result>
  >({
    ...withoutQueueBound(deps.batches),
    run: (batch) =>
      callBatch(
        deps.db,
        transferSettlement,
        batch.map((settlement) => settlement.sql),
      ),
  });

  /** A replayed request answers the original transfer as it stands now and moves no money. */
  async function createTransfer(
    principal: Principal,
    body: TransferRequest,
    idempotencyKey?: string,
  ): Promise<TransferRecord> {
    const prepared = preparePlacement(
      deps,
      {
        principal,
        body,
        requestHash: transferFingerprint(body),
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      },
      await lookups.submit(body),
    );
    const result = await placements.submit(prepared);
    if (result.kind === 'refused') {
      throw refusalError(result, 'transfer');
    }
    if (result.kind === 'failed') {
      throw itemFailure(result, 'transfer');
    }
    if (result.kind === 'replay') {
      return load(result.transferId);
    }
    invariant(prepared.transfer !== undefined, 'a placed transfer was prepared');
    return prepared.transfer.status === 'Processing'
      ? dispatch(prepared.transfer)
      : prepared.transfer;
  }

  /** Sends the transfer to the rail after its hold committed, then applies what it answers. */
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
    return settle(transfer, outcome);
  }

  /** A status query (TSQ) for a Processing transfer, then what it answers applied. */
  async function queryAndSettle(transfer: TransferRecord): Promise<TransferRecord> {
    const outcome = await askRail(() =>
      deps.rail.queryStatus({ sessionId: transfer.sessionId, bankCode: transfer.credit.bankCode }),
    );
    return settle(transfer, tooEarlyToTellNotFound(transfer, outcome));
  }

  /**
   * The status query after a Completed transfer's return window, for a return whose notice never
   * came: a return found is applied; any other answer ends the check, and no answer leaves it due
   * again once its claim runs out.
   */
  async function checkForReturn(transfer: TransferRecord): Promise<TransferRecord> {
    const outcome = await askRail(() =>
      deps.rail.queryStatus({ sessionId: transfer.sessionId, bankCode: transfer.credit.bankCode }),
    );
    if (outcome.kind === 'returned') {
      return deps.returns.apply(transfer, outcome);
    }
    if (outcome.kind !== 'unknown') {
      await endReturnCheck(deps.db, transfer.id);
    }
    return transfer;
  }

  /**
   * Applies a rail answer; a transfer settled meanwhile (by another worker) is answered as is. A
   * return the answer reports is applied next, to the transfer as it then stands.
   */
  async function settle(
    transfer: TransferRecord,
    outcome: TransferOutcome,
  ): Promise<TransferRecord> {
    const prepared = prepareSettlement(settlementDeps, transfer, outcome);
    const result = await settlements.submit(prepared);
    if (result.kind === 'failed') {
      throw itemFailure(result, 'transfer');
    }
    const settled = result.kind === 'settled' ? prepared.settled : await load(transfer.id);
    return outcome.kind === 'returned' && settled.status === 'Completed'
      ? deps.returns.apply(settled, outcome)
      : settled;
  }

  /**
   * "No record" (25) means the network never got the transfer, unless the query overtook a slow
   * send: a young transfer's 25 is only unknown, and a later query decides.
   */
  function tooEarlyToTellNotFound(transfer: TransferRecord, outcome: TransferOutcome) {
    const ageSeconds = (deps.clock.now().getTime() - transfer.createdAt.getTime()) / 1000;
    return outcome.kind === 'failed' &&
      outcome.responseCode === NOT_FOUND &&
      ageSeconds < deps.config.statusQueryNotFoundGraceSeconds
      ? ({ ...outcome, kind: 'unknown' } as const)
      : outcome;
  }

  async function load(transferId: string): Promise<TransferRecord> {
    const transfer = await findTransferById(deps.db, transferId);
    invariant(transfer !== undefined, `transfer ${transferId} is missing`);
    return transfer;
  }

  return { createTransfer, dispatch, queryAndSettle, checkForReturn };
}

export type OutboundTransferService = ReturnType<typeof createOutboundTransferService>;

/**
 * What makes two transfer requests "the same request" for replays: the money movement itself.
 * Not the name-enquiry reference: clients run a fresh enquiry before every attempt, so a retry
 * carries a new one and must still replay the original transfer.
 */
export function transferFingerprint(body: TransferRequest): string {
  return requestFingerprint({
    debitAccountNumber: body.debitAccountNumber,
    beneficiaryBankCode: body.beneficiaryBankCode,
    beneficiaryAccountNumber: body.beneficiaryAccountNumber,
    amountKobo: body.amountKobo.toString(),
    narration: body.narration ?? null,
    paymentReference: body.paymentReference ?? null,
  });
}

function party(side: Party) {
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
