import type { Principal } from '../../../auth/principal.ts';
import type { TransferConfig } from '../../../config/config.ts';
import type { Queryable } from '../../../db/db.ts';
import { AppError, recordNotFound } from '../../../errors/app-error.ts';
import { claimIdempotencyKey } from '../../../idempotency/idempotency-repository.ts';
import * as ledger from '../../../ledger/ledger-service.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newNipSessionId, newObjectId } from '../../../shared/ids.ts';
import type { Kobo } from '../../../shared/money.ts';
import type { Account } from '../../accounts/account.ts';
import { findAccountByNumber } from '../../accounts/account-repository.ts';
import { rememberBeneficiary } from '../../beneficiaries/remember-beneficiary.ts';
import { NO_CHARGES, nipCharges } from '../fee-schedule.ts';
import { postIntraBank } from '../intra-bank/intra-bank-posting.ts';
import {
  findUsableNameEnquiry,
  type NameEnquiry,
} from '../name-enquiry/name-enquiry-repository.ts';
import type { BankLookup } from '../name-enquiry/name-enquiry-service.ts';
import type { Transfer } from '../transfer.ts';
import {
  findOutwardByReference,
  insertTransfer,
  outboundVolumeSince,
} from '../transfer-repository.ts';
import { buildOutward } from './transfer-builder.ts';

export interface TransferRequest {
  readonly nameEnquiryReference: string;
  readonly debitAccountNumber: string;
  readonly beneficiaryBankCode: string;
  readonly beneficiaryAccountNumber: string;
  readonly amountKobo: Kobo;
  readonly saveBeneficiary: boolean;
  readonly narration?: string;
  readonly paymentReference?: string;
}

export interface PlacementDeps {
  readonly clock: Clock;
  readonly institutionCode: string;
  readonly config: TransferConfig;
  readonly banks: BankLookup;
}

/** Thrown inside the transaction to roll it back and answer an earlier transfer instead. */
export class ReplayOf extends Error {
  override readonly name = 'ReplayOf';
  constructor(readonly transferId: string) {
    super(`replay of ${transferId}`);
  }
}

/**
 * The first, atomic step of a transfer: checks, idempotency claims, the transfer row, and the
 * money (posted for intra-bank, held for NIP), all in the caller's transaction.
 */
export async function placeTransfer(
  tx: Queryable,
  deps: PlacementDeps,
  request: {
    principal: Principal;
    body: TransferRequest;
    requestHash: string;
    idempotencyKey?: string;
  },
): Promise<Transfer> {
  const { principal, body, requestHash } = request;
  const now = deps.clock.now();
  const debitAccount = await ownActiveAccount(tx, principal.clientId, body.debitAccountNumber);
  const transferId = newObjectId(deps.clock);
  if (request.idempotencyKey !== undefined) {
    const earlier = await claimIdempotencyKey(tx, {
      clientId: principal.clientId,
      key: request.idempotencyKey,
      requestHash,
      transferId,
      now,
    });
    if (earlier !== undefined) {
      throw earlier.requestHash === requestHash
        ? new ReplayOf(earlier.transferId)
        : new AppError('IDEMPOTENCY_KEY_REUSED');
    }
  }
  if (body.paymentReference !== undefined) {
    await refuseOrReplayReference(tx, principal.clientId, body.paymentReference, requestHash);
  }
  const enquiry = await usableEnquiry(tx, principal.clientId, body, now);
  const intraBank = body.beneficiaryBankCode === deps.institutionCode;
  if (intraBank && body.beneficiaryAccountNumber === debitAccount.accountNumber) {
    throw new AppError('SAME_ACCOUNT');
  }
  refuseAbovePerTransferLimit(deps.config, debitAccount, body.amountKobo);
  const sessionId = newNipSessionId(deps.institutionCode, deps.clock);
  const outward = buildOutward(
    {
      id: transferId,
      sessionId,
      paymentReference: body.paymentReference ?? sessionId,
      debitAccount,
      enquiry,
      amountKobo: body.amountKobo,
      charges: intraBank
        ? NO_CHARGES
        : nipCharges(body.amountKobo, deps.config.nipFeeTiers, deps.config.vatBasisPoints),
      narration: body.narration ?? `Transfer to ${enquiry.accountName}`,
      intraBank,
      institutionCode: deps.institutionCode,
    },
    deps.clock,
  );
  const holdId = intraBank ? null : newObjectId(deps.clock);
  const nextStatusQueryAt = intraBank
    ? null
    : new Date(now.getTime() + (deps.config.statusQueryScheduleSeconds[0] ?? 30) * 1000);
  const saveLater = !intraBank && body.saveBeneficiary;
  if (
    !(await insertTransfer(tx, outward, {
      requestHash,
      holdId,
      nextStatusQueryAt,
      saveBeneficiary: saveLater,
    }))
  ) {
    await refuseOrReplayReference(tx, principal.clientId, outward.paymentReference, requestHash);
    throw new AppError('CONFLICT');
  }
  if (intraBank) {
    const beneficiary = await findAccountByNumber(tx, body.beneficiaryAccountNumber);
    if (beneficiary === undefined || beneficiary.status !== 'Active') {
      throw new AppError(
        'NAME_ENQUIRY_FAILED',
        'The beneficiary account cannot receive transfers.',
      );
    }
    await postIntraBank(tx, deps, { outward, debitAccount, beneficiary, isSweep: false });
  } else {
    await ledger.hold(tx, {
      id: holdId as string,
      accountId: debitAccount.id,
      amountKobo: outward.amountKobo + outward.feeKobo + outward.vatKobo,
      reference: outward.sessionId,
      createdAt: now,
    });
  }
  // After the money moved: the ledger holds the debit account's row lock by now, taken in id
  // order with the other accounts, so the day's sum is exact and the lock order stays deadlock-free.
  await refuseAboveDailyLimit(tx, deps.config, debitAccount, now);
  // An intra-bank transfer has succeeded already; a NIP one saves it when it settles with 00.
  if (intraBank && body.saveBeneficiary) {
    await rememberBeneficiary(tx, deps, principal.clientId, enquiry);
  }
  return outward;
}

async function ownActiveAccount(tx: Queryable, clientId: string, accountNumber: string) {
  const account = await findAccountByNumber(tx, accountNumber);
  if (account === undefined || account.clientId !== clientId) {
    throw recordNotFound();
  }
  if (account.status !== 'Active') {
    throw new AppError('ACCOUNT_NOT_ACTIVE');
  }
  return account;
}

async function refuseOrReplayReference(
  tx: Queryable,
  clientId: string,
  reference: string,
  requestHash: string,
) {
  const earlier = await findOutwardByReference(tx, clientId, reference);
  if (earlier !== undefined) {
    throw earlier.requestHash === requestHash
      ? new ReplayOf(earlier.id)
      : new AppError('DUPLICATE_REFERENCE');
  }
}

async function usableEnquiry(
  tx: Queryable,
  clientId: string,
  body: TransferRequest,
  now: Date,
): Promise<NameEnquiry> {
  const enquiry = await findUsableNameEnquiry(tx, {
    sessionId: body.nameEnquiryReference,
    clientId,
    bankCode: body.beneficiaryBankCode,
    accountNumber: body.beneficiaryAccountNumber,
    now,
  });
  if (enquiry === undefined) {
    throw new AppError('NAME_ENQUIRY_INVALID');
  }
  return enquiry;
}

function refuseAbovePerTransferLimit(config: TransferConfig, account: Account, amountKobo: Kobo) {
  if (amountKobo > limitsFor(config, account.kycLevel).perTransferKobo) {
    throw new AppError('TRANSFER_LIMIT_EXCEEDED', 'Amount is above the per-transfer limit.');
  }
}

/** The day's outbound volume includes this transfer, already inserted in the same transaction. */
async function refuseAboveDailyLimit(
  tx: Queryable,
  config: TransferConfig,
  account: Account,
  now: Date,
) {
  const startOfDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const spent = await outboundVolumeSince(tx, account.id, startOfDay);
  if (spent > limitsFor(config, account.kycLevel).dailyKobo) {
    throw new AppError('TRANSFER_LIMIT_EXCEEDED', "Amount is above the account's daily limit.");
  }
}

/** The general limits, lowered for an account below full KYC. */
function limitsFor(config: TransferConfig, kycLevel: string) {
  const tier = config.limitsByKycLevel.get(kycLevel);
  const lower = (general: bigint, tiered: bigint | undefined) =>
    tiered !== undefined && tiered < general ? tiered : general;
  return {
    perTransferKobo: lower(config.perTransferLimitKobo, tier?.perTransferKobo),
    dailyKobo: lower(config.dailyLimitKobo, tier?.dailyKobo),
  };
}
