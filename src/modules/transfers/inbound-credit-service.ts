import type { Db, Queryable } from '../../db/db.ts';
import { AppError } from '../../errors/app-error.ts';
import { GL_ACCOUNTS } from '../../ledger/gl-accounts.ts';
import type { Posting } from '../../ledger/journal.ts';
import * as ledger from '../../ledger/ledger-service.ts';
import type { Clock } from '../../shared/clock.ts';
import { newNipSessionId, newObjectId } from '../../shared/ids.ts';
import type { Kobo } from '../../shared/money.ts';
import { enqueueEvent, type OutboxEvent } from '../../webhooks/outbox.ts';
import { findAccountByNumber } from '../accounts/account-repository.ts';
import { type StampDutyPolicy, stampDutyOnCredit } from './fee-schedule.ts';
import { NIP_APPROVED, type Transfer } from './transfer.ts';
import { insertTransfer } from './transfer-repository.ts';
import { transferView } from './transfer-view.ts';

export interface InboundCredit {
  readonly accountNumber: string;
  readonly amountKobo: Kobo;
  readonly narration?: string;
  readonly senderName: string;
  readonly senderAccountNumber: string;
  readonly senderBankCode: string;
}

export interface InboundCreditDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly institutionCode: string;
  readonly stampDuty: StampDutyPolicy;
  /** The GL account that mirrors money received from other banks. */
  readonly settlementAccountId: string;
  /** Writes the event in the credit's transaction; the outbox unless a benchmark swaps it out. */
  readonly publish?: (tx: Queryable, event: OutboxEvent) => Promise<unknown>;
}

/** A credit from another bank over NIP: one transfer row and one journal, in one transaction. */
export function createInboundCreditService(deps: InboundCreditDeps) {
  const publish = deps.publish ?? ((tx, event) => enqueueEvent(tx, deps.clock, event));

  async function receive(credit: InboundCredit): Promise<Transfer> {
    return deps.db.transaction(async (tx) => {
      const account = await findAccountByNumber(tx, credit.accountNumber);
      if (account === undefined) {
        throw new AppError('RECORD_NOT_FOUND');
      }
      if (account.status !== 'Active') {
        throw new AppError('ACCOUNT_NOT_ACTIVE');
      }
      const transfer = buildTransfer(credit, account);
      await insertTransfer(tx, transfer);
      await ledger.post(tx, {
        id: newObjectId(deps.clock),
        kind: 'inbound_transfer',
        narration: transfer.narration,
        reference: transfer.paymentReference,
        transferId: transfer.id,
        createdAt: transfer.createdAt,
        postings: creditPostings(transfer),
      });
      await publish(tx, {
        clientId: transfer.clientId,
        type: 'transfer',
        data: transferView(transfer),
        callbackUrl: account.callbackUrl,
      });
      return transfer;
    });
  }

  function buildTransfer(
    credit: InboundCredit,
    account: {
      id: string;
      clientId: string;
      accountName: string;
      accountNumber: string;
      kycLevel: string;
    },
  ): Transfer {
    const now = deps.clock.now();
    const sessionId = newNipSessionId(credit.senderBankCode, deps.clock);
    return {
      id: newObjectId(deps.clock),
      clientId: account.clientId,
      accountId: account.id,
      type: 'Inwards',
      sessionId,
      nameEnquiryReference: newNipSessionId(credit.senderBankCode, deps.clock),
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
        accountName: credit.senderName,
        accountNumber: credit.senderAccountNumber,
        bankCode: credit.senderBankCode,
        kycLevel: '1',
      },
      transactionLocation: '',
      narration: credit.narration ?? `Transfer from ${credit.senderName}`,
      amountKobo: credit.amountKobo,
      feeKobo: 0n,
      vatKobo: 0n,
      stampDutyKobo: stampDutyOnCredit(credit.amountKobo, deps.stampDuty),
      responseCode: NIP_APPROVED.code,
      responseMessage: NIP_APPROVED.message,
      status: 'Completed',
      isReversed: false,
      reversalReference: null,
      createdAt: now,
      updatedAt: now,
      approvedAt: now,
      declinedAt: null,
    };
  }

  /** Postings apply in order: the customer is credited before the stamp duty is taken. */
  function creditPostings(transfer: Transfer): Posting[] {
    const postings: Posting[] = [
      { accountId: deps.settlementAccountId, amountKobo: -transfer.amountKobo },
      { accountId: transfer.accountId, amountKobo: transfer.amountKobo },
    ];
    if (transfer.stampDutyKobo > 0n) {
      postings.push(
        {
          accountId: transfer.accountId,
          amountKobo: -transfer.stampDutyKobo,
          narration: `Stamp duty on ${transfer.sessionId}`,
        },
        { accountId: GL_ACCOUNTS.stampDutyPayable, amountKobo: transfer.stampDutyKobo },
      );
    }
    return postings;
  }

  return { receive };
}

export type InboundCreditService = ReturnType<typeof createInboundCreditService>;
