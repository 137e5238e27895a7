import type { Principal } from '../../auth/principal.ts';
import type { Db } from '../../db/db.ts';
import { recordNotFound } from '../../errors/app-error.ts';
import { isObjectId } from '../../shared/ids.ts';
import type { OutboundTransferService } from './outbound/outbound-transfer-service.ts';
import type { TransferDirection, TransferStatus } from './transfer.ts';
import { findClientTransfer, listTransfers } from './transfer-repository.ts';

export interface TransferServiceDeps {
  readonly db: Db;
  readonly outbound: Pick<OutboundTransferService, 'queryAndSettle'>;
}

/** A client's transfers as they stand: status queries (TSQ) and history. */
export function createTransferService(deps: TransferServiceDeps) {
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
      ? deps.outbound.queryAndSettle(transfer)
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

  return { status, list };
}

export type TransferService = ReturnType<typeof createTransferService>;
