import type { Principal } from '../../auth/principal.ts';
import type { Db } from '../../db/db.ts';
import { recordNotFound } from '../../errors/app-error.ts';
import * as ledger from '../../ledger/ledger-service.ts';
import { isObjectId } from '../../shared/ids.ts';
import { findAccountsByIds } from '../accounts/index.ts';
import type { OutboundTransferService } from './outbound/outbound-transfer-service.ts';
import type { TransferDirection, TransferStatus } from './transfer.ts';
import {
  findClientTransfer,
  findClientTransferById,
  findTransferById,
  listTransfers,
  type TransferRecord,
} from './transfer-repository.ts';

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
    if (transfer === undefined || (await paidIntoVirtualAccount(transfer))) {
      throw recordNotFound();
    }
    return transfer.status === 'Processing' && transfer.type === 'Outwards'
      ? deps.outbound.queryAndSettle(transfer)
      : transfer;
  }

  /**
   * A payment into a virtual account is the settlement account's Inwards row, its credit naming
   * the virtual account's number rather than the account's own. The status query does not answer
   * it: clients that get its virtualAccount.transfer webhook ask here first and take 400 as "not
   * our transfer" before asking /virtual-accounts/status; a 200 makes them take it for one of
   * their own payouts (docs/api.md, "Transfers").
   */
  async function paidIntoVirtualAccount(transfer: TransferRecord): Promise<boolean> {
    if (transfer.type !== 'Inwards') {
      return false;
    }
    const accounts = await findAccountsByIds(deps.db, [transfer.accountId]);
    return accounts.get(transfer.accountId)?.accountNumber !== transfer.credit.accountNumber;
  }

  /** History of the caller's transfers (or, for an operator, a client's). */
  function list(
    owner: Pick<Principal, 'clientId'>,
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
      clientId: owner.clientId,
      ...(query.accountId === undefined ? {} : { accountId: query.accountId }),
      ...(query.type === undefined ? {} : { type: query.type }),
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(query.from === undefined ? {} : { from: query.from }),
      ...(query.to === undefined ? {} : { to: query.to }),
      offset: query.page * query.limit,
      limit: query.limit,
    });
  }

  /**
   * Operator use: one transfer of a client with what is stored about it: the ledger entries of
   * its journals (an intra-bank transfer's twin shows the journal of its session), and for a
   * NIP transfer the network's answer and its status queries. Another client's is unknown.
   */
  async function story(clientId: string, transferId: string): Promise<TransferStory> {
    const found = isObjectId(transferId)
      ? await findClientTransferById(deps.db, clientId, transferId)
      : undefined;
    if (found === undefined) {
      throw recordNotFound();
    }
    const { transfer, nextStatusQueryAt, sessionTransferIds } = found;
    const { from, to } = storyWindow(transfer);
    const entries = await ledger.readTransferEntries(deps.db, {
      accountId: transfer.accountId,
      from,
      to,
      transferIds: sessionTransferIds,
    });
    const accounts = await findAccountsByIds(
      deps.db,
      entries.flatMap((entry) => (entry.accountKind === 'customer' ? [entry.accountId] : [])),
    );
    return {
      transfer,
      ledgerEntries: entries.map((entry) => ({
        ...entry,
        accountNumber: accounts.get(entry.accountId)?.accountNumber ?? null,
      })),
      nip:
        transfer.providerChannel === 'NIP'
          ? {
              sessionId: transfer.sessionId,
              responseCode: transfer.responseCode,
              responseMessage: transfer.responseMessage,
              statusQueries: transfer.statusQueries,
              // Processing: its next status query; Completed: the return check, if still due.
              nextStatusQueryAt:
                transfer.status === 'Processing' || transfer.status === 'Completed'
                  ? nextStatusQueryAt
                  : null,
            }
          : null,
    };
  }

  /** Operator use: one transfer by id, whichever client's it is (either side of an intra-bank one). */
  async function find(transferId: string): Promise<TransferRecord> {
    const transfer = isObjectId(transferId)
      ? await findTransferById(deps.db, transferId)
      : undefined;
    if (transfer === undefined) {
      throw recordNotFound();
    }
    return transfer;
  }

  return { status, list, story, find };
}

export type TransferService = ReturnType<typeof createTransferService>;

/**
 * Everything stored about a transfer (its journals, its webhook events) is written when it is
 * placed or settled: from its createdAt to its updatedAt. A placement takes its time a moment
 * before it builds the transfer, so the window opens a minute early (and closes a minute late).
 */
const STORY_SLACK_MS = 60_000;

export function storyWindow(transfer: Pick<TransferRecord, 'createdAt' | 'updatedAt'>) {
  return {
    from: new Date(transfer.createdAt.getTime() - STORY_SLACK_MS),
    to: new Date(transfer.updatedAt.getTime() + STORY_SLACK_MS),
  };
}

export interface TransferStory {
  readonly transfer: TransferRecord;
  readonly ledgerEntries: readonly (ledger.JournalEntry & { accountNumber: string | null })[];
  /** What the NIP network answered (NIP transfers only; null for intra-bank ones). */
  readonly nip: {
    readonly sessionId: string;
    readonly responseCode: string | null;
    readonly responseMessage: string | null;
    /** Status queries (TSQ) asked so far (outbound only). */
    readonly statusQueries: number;
    /**
     * When the next status query is due: while the transfer is Processing, or, once Completed,
     * the one after the return window (a lost return notice).
     */
    readonly nextStatusQueryAt: Date | null;
  } | null;
}
