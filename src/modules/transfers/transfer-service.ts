import type { Principal } from '../../auth/principal.ts';
import type { TransferConfig } from '../../config/config.ts';
import type { Db } from '../../db/db.ts';
import { recordNotFound } from '../../errors/app-error.ts';
import type { Rail } from '../../rails/rail.ts';
import type { Clock } from '../../shared/clock.ts';
import { sha256Hex } from '../../shared/hashing.ts';
import { isObjectId } from '../../shared/ids.ts';
import { invariant } from '../../shared/invariant.ts';
import { deleteBeneficiary, listBeneficiaries } from '../beneficiaries/beneficiary-repository.ts';
import type { BankLookup } from './name-enquiry/name-enquiry-service.ts';
import { placeTransfer, ReplayOf, type TransferRequest } from './outbound/transfer-placement.ts';
import { createTransferSettlement } from './outbound/transfer-settlement.ts';
import type { TransferDirection, TransferStatus } from './transfer.ts';
import {
  findClientTransfer,
  findTransferById,
  listTransfers,
  type TransferRecord,
} from './transfer-repository.ts';

export interface TransferServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly rail: Rail;
  readonly banks: BankLookup;
  readonly institutionCode: string;
  readonly config: TransferConfig;
}

export function createTransferService(deps: TransferServiceDeps) {
  const settlement = createTransferSettlement({
    db: deps.db,
    clock: deps.clock,
    rail: deps.rail,
    banks: deps.banks,
    statusQueryScheduleSeconds: deps.config.statusQueryScheduleSeconds,
    notFoundGraceSeconds: deps.config.statusQueryNotFoundGraceSeconds,
  });

  /**
   * Places the transfer (one transaction: checks, idempotency, money held or posted), then, for
   * NIP, dispatches it to the rail and settles what the rail answers. A replayed request answers
   * the original transfer as it stands now and moves no money.
   */
  async function createTransfer(
    principal: Principal,
    body: TransferRequest,
    idempotencyKey?: string,
  ): Promise<TransferRecord> {
    const requestHash = fingerprint(body);
    let placedId: string;
    try {
      placedId = await deps.db.transaction(async (tx) => {
        const placed = await placeTransfer(
          tx,
          {
            clock: deps.clock,
            institutionCode: deps.institutionCode,
            config: deps.config,
            banks: deps.banks,
          },
          {
            principal,
            body,
            requestHash,
            ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
          },
        );
        return placed.id;
      });
    } catch (error) {
      if (error instanceof ReplayOf) {
        return load(error.transferId);
      }
      throw error;
    }
    const placed = await load(placedId);
    return placed.status === 'Processing' ? settlement.dispatch(placed) : placed;
  }

  /** TSQ: the transfer as it stands; a Processing one is asked about first. */
  async function status(
    principal: Principal,
    key: { sessionId?: string; paymentReference?: string },
  ) {
    const transfer = await findClientTransfer(deps.db, principal.clientId, key);
    if (transfer === undefined) {
      throw recordNotFound();
    }
    return transfer.status === 'Processing' && transfer.type === 'Outwards'
      ? settlement.queryAndSettle(transfer)
      : transfer;
  }

  function list(
    principal: Principal,
    query: {
      accountId?: string;
      type?: TransferDirection;
      status?: TransferStatus;
      from?: Date;
      to?: Date;
      page: number;
      limit: number;
    },
  ) {
    if (query.accountId !== undefined && !isObjectId(query.accountId)) {
      throw recordNotFound();
    }
    return listTransfers(deps.db, {
      clientId: principal.clientId,
      ...(query.accountId === undefined ? {} : { accountId: query.accountId }),
      ...(query.type === undefined ? {} : { type: query.type }),
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(query.from === undefined ? {} : { from: query.from }),
      ...(query.to === undefined ? {} : { to: query.to }),
      offset: query.page * query.limit,
      limit: query.limit,
    });
  }

  function beneficiaries(principal: Principal, page: { page: number; limit: number }) {
    return listBeneficiaries(deps.db, {
      clientId: principal.clientId,
      offset: page.page * page.limit,
      limit: page.limit,
    });
  }

  async function removeBeneficiary(principal: Principal, beneficiaryId: string) {
    const removed = isObjectId(beneficiaryId)
      ? await deleteBeneficiary(deps.db, principal.clientId, beneficiaryId)
      : undefined;
    if (removed === undefined) {
      throw recordNotFound();
    }
    return removed;
  }

  async function load(transferId: string): Promise<TransferRecord> {
    const transfer = await findTransferById(deps.db, transferId);
    invariant(transfer !== undefined, `transfer ${transferId} is missing`);
    return transfer;
  }

  return { createTransfer, status, list, beneficiaries, removeBeneficiary, settlement };
}

export type TransferService = ReturnType<typeof createTransferService>;

/**
 * What makes two transfer requests "the same request" for replays: the money movement itself.
 * Not the name-enquiry reference: clients run a fresh enquiry before every attempt, so a retry
 * carries a new one and must still replay the original transfer.
 */
function fingerprint(body: TransferRequest): string {
  return sha256Hex(
    JSON.stringify([
      body.debitAccountNumber,
      body.beneficiaryBankCode,
      body.beneficiaryAccountNumber,
      body.amountKobo.toString(),
      body.narration ?? null,
      body.paymentReference ?? null,
    ]),
  );
}
