import type { Db } from '../../../db/db.ts';
import { createGroupCommit, type GroupCommitLimits } from '../../../db/group-commit.ts';
import { AppError } from '../../../errors/app-error.ts';
import { itemFailure } from '../../../errors/batch-items.ts';
import type { ErrorCode } from '../../../errors/error-codes.ts';
import { type BatchResult, callBatch } from '../../../ledger/batch.ts';
import { chargePostings, type StampDutyPolicy, stampDutyOn } from '../../../ledger/charges.ts';
import type { Posting } from '../../../ledger/journal.ts';
import { journalJson } from '../../../ledger/ledger-service.ts';
import type { InboundCreditRequest } from '../../../rails/rail.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newObjectId } from '../../../shared/ids.ts';
import { invariant } from '../../../shared/invariant.ts';
import { outboxEventsJson } from '../../../webhooks/outbox.ts';
import {
  type Account,
  findAccountByNumber,
  findSweepDestination,
  requireActive,
} from '../../accounts/index.ts';
import { asCollectionPayment, type CollectionAccount, type Collections } from '../collections.ts';
import { prepareSweep, sweepDestinationNumber } from '../intra-bank/auto-sweep.ts';
import { NIP_APPROVED, type Transfer } from '../transfer.ts';
import { type ReceiveItem, type SweepItem, transferReceipt } from '../transfer-batch.ts';
import { findInwardBySession, transferRowJson } from '../transfer-repository.ts';
import { initialStatus } from '../transfer-state.ts';
import { transferView } from '../transfer-view.ts';

export interface InboundCreditDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly institutionCode: string;
  readonly stampDuty: StampDutyPolicy;
  /** The GL account that mirrors money received from other banks. */
  readonly settlementAccountId: string;
  /** Group commit: the most credits per call, and calls in flight at once. */
  readonly batches: GroupCommitLimits;
  /** Numbers of ours that collect for an account (virtual accounts). */
  readonly collections: Collections;
}

/** The NIP answer a sending bank gets for a credit we refuse, by our refusal code. */
const NIP_REFUSALS: Readonly<Record<string, { code: string; message: string }>> = {
  VIRTUAL_ACCOUNT_CLOSED: { code: '07', message: 'Invalid Account' },
  VIRTUAL_ACCOUNT_AMOUNT_REFUSED: { code: '13', message: 'Invalid Amount' },
  USSD_REFERENCE_CLOSED: { code: '07', message: 'Invalid Account' },
  USSD_AMOUNT_MISMATCH: { code: '13', message: 'Invalid Amount' },
};

/** A credit ready for the call (kind transferReceipt, sql/transfer_receive_one.sql). */
interface PreparedCredit {
  readonly sql: ReceiveItem;
}

/**
 * A credit from another bank over NIP: one transfer row and one journal. The sender's session id
 * is unique, so a resent credit answers the first one and moves nothing. Credits that arrive
 * together are group-committed, one database call per batch (like placements); the hot GL
 * settlement account is locked once per batch. A credit to a collection account (a virtual
 * account by its number, or a USSD reference its module names) lands on its settlement
 * account, less the collection charges, if its owner accepts it in the same call; a refusal
 * moves nothing and answers the sender with a NIP code.
 */
export function createInboundCreditService(deps: InboundCreditDeps) {
  const credits = createGroupCommit<PreparedCredit, BatchResult<typeof transferReceipt.result>>({
    ...deps.batches,
    run: (batch) =>
      callBatch(
        deps.db,
        transferReceipt,
        batch.map((credit) => credit.sql),
      ),
  });

  /**
   * Receives a credit for the account or virtual account it names, or, when `collectedBy` is
   * given (a USSD payment its gateway reported), for that collection's settlement account.
   */
  async function receive(
    credit: InboundCreditRequest,
    collectedBy?: CollectionAccount,
  ): Promise<Transfer> {
    const { account, collection } =
      collectedBy === undefined
        ? await creditedAccount(credit.beneficiaryAccountNumber)
        : { account: collectedBy.settlementAccount, collection: collectedBy };
    const received = buildTransfer(credit, account);
    const transfer =
      collection === undefined
        ? received
        : asCollectionPayment(received, collection, received.stampDutyKobo);
    const journal = journalJson({
      id: newObjectId(deps.clock),
      kind: 'inbound_transfer',
      narration: collection === undefined ? transfer.narration : collection.narration(transfer),
      reference: transfer.paymentReference,
      transferId: transfer.id,
      createdAt: transfer.createdAt,
      postings: creditPostings(transfer),
    });
    // Every credit to an account tells its owner with a `transfer` event (to the account's
    // callbackUrl, or the client's webhook URL); a collection's payment adds its owner's events.
    const events = [
      {
        clientId: transfer.clientId,
        type: 'transfer' as const,
        data: transferView(transfer),
        callbackUrl: account.callbackUrl,
      },
      ...(collection === undefined ? [] : collection.paymentEvents(transfer)),
    ];
    const sweep = await sweepOf(account);
    const result = await credits.submit({
      sql: {
        at: transfer.createdAt.toISOString(),
        transfer: transferRowJson(transfer),
        journal,
        events: outboxEventsJson(deps.clock, events),
        ...(collection === undefined
          ? {}
          : {
              claims: collection.claims({
                ...transfer,
                receivedAt: credit.receivedAt ?? transfer.createdAt,
              }),
            }),
        ...(sweep === undefined ? {} : { sweep }),
      },
    });
    if (result.kind === 'failed') {
      throw itemFailure(result, 'transfer');
    }
    if (result.kind === 'refused') {
      throw refusal(result.code, result.message);
    }
    if (result.kind === 'duplicate') {
      const earlier = await findInwardBySession(deps.db, credit.sessionId);
      invariant(
        earlier !== undefined,
        `inbound session ${credit.sessionId} conflicts but is missing`,
      );
      return earlier;
    }
    return transfer;
  }

  /**
   * The credited account's auto-sweep, applied in the same call once the credit lands: its
   * destination is found now (one more query, only for an account with auto-sweep on) and
   * checked again under the batch's locks.
   */
  async function sweepOf(account: Account): Promise<SweepItem | undefined> {
    const number = sweepDestinationNumber(account);
    return number === undefined
      ? undefined
      : prepareSweep(deps, account, await findSweepDestination(deps.db, account, number));
  }

  /** The account a credit lands on: an account of ours, or a collection account's settlement. */
  async function creditedAccount(
    accountNumber: string,
  ): Promise<{ account: Account; collection?: CollectionAccount }> {
    const account = await findAccountByNumber(deps.db, accountNumber);
    if (account !== undefined) {
      return { account: requireActive(account) };
    }
    const collection = (await deps.collections.findByNumbers(deps.db, [accountNumber])).get(
      accountNumber,
    );
    if (collection === undefined) {
      return { account: requireActive(undefined) };
    }
    // Expiry waits for the call (it is judged by when the credit was received); a settlement
    // account that cannot take money closes the collection now.
    if (collection.settlementAccount.status !== 'Active') {
      throw refusal('VIRTUAL_ACCOUNT_CLOSED', 'The virtual account cannot take payments.');
    }
    return { account: collection.settlementAccount, collection };
  }

  function buildTransfer(
    credit: InboundCreditRequest,
    account: {
      id: string;
      clientId: string;
      accountName: string;
      accountNumber: string;
      kycLevel: string;
    },
  ): Transfer {
    const now = deps.clock.now();
    const { sessionId, originator } = credit;
    return {
      id: newObjectId(deps.clock),
      clientId: account.clientId,
      accountId: account.id,
      type: 'Inwards',
      sessionId,
      nameEnquiryReference: credit.nameEnquiryReference,
      // Inbound NIP credits carry the session id as their payment reference.
      paymentReference: sessionId,
      provider: 'NIBSS',
      providerChannel: 'NIP',
      providerChannelCode: '3',
      destinationInstitutionCode: deps.institutionCode,
      credit: {
        accountName: account.accountName,
        accountNumber: account.accountNumber,
        bankCode: deps.institutionCode,
        kycLevel: account.kycLevel,
      },
      debit: {
        accountName: originator.accountName,
        accountNumber: originator.accountNumber,
        bankCode: originator.bankCode,
        kycLevel: originator.kycLevel,
      },
      transactionLocation: '',
      narration: credit.narration,
      amountKobo: credit.amountKobo,
      feeKobo: 0n,
      vatKobo: 0n,
      stampDutyKobo: stampDutyOn(credit.amountKobo, deps.stampDuty),
      responseCode: NIP_APPROVED.code,
      responseMessage: NIP_APPROVED.message,
      status: initialStatus('inbound'),
      isReversed: false,
      reversalReference: null,
      createdAt: now,
      updatedAt: now,
      approvedAt: now,
      declinedAt: null,
    };
  }

  /** Postings apply in order: the customer is credited before any charge is taken. */
  function creditPostings(transfer: Transfer): Posting[] {
    return [
      { accountId: deps.settlementAccountId, amountKobo: -transfer.amountKobo },
      { accountId: transfer.accountId, amountKobo: transfer.amountKobo },
      ...chargePostings(transfer.accountId, {
        feeKobo: transfer.feeKobo,
        vatKobo: transfer.vatKobo,
        stampDutyKobo: transfer.stampDutyKobo,
        feeNarration: `Collection fee on ${transfer.sessionId}`,
        vatNarration: `VAT on collection fee on ${transfer.sessionId}`,
        stampDutyNarration: `Stamp duty on ${transfer.sessionId}`,
      }),
    ];
  }

  return { receive, find: (sessionId: string) => findInwardBySession(deps.db, sessionId) };
}

export type InboundCreditService = ReturnType<typeof createInboundCreditService>;

/** A credit the call refused (only collection accounts refuse), with the NIP answer for the sender. */
function refusal(code: string, message: string | null): AppError {
  const nip = NIP_REFUSALS[code];
  invariant(nip !== undefined, `an inbound credit was refused with an unknown code: ${code}`);
  return new AppError(code as ErrorCode, message ?? undefined, {
    details: [{ field: 'nip', message: `${nip.code} ${nip.message}` }],
  });
}
