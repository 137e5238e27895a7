import type { Principal } from '../../../auth/principal.ts';
import type { TransferConfig } from '../../../config/config.ts';
import type { Queryable } from '../../../db/db.ts';
import { AppError } from '../../../errors/app-error.ts';
import { claimIdempotencyKey, repointIdempotencyKey } from '../../../idempotency/idempotency.ts';
import { NO_CHARGES, tieredCharges } from '../../../ledger/charges.ts';
import * as ledger from '../../../ledger/ledger-service.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newNipSessionId, newObjectId } from '../../../shared/ids.ts';
import type { Kobo } from '../../../shared/money.ts';
import { type Account, findAccountsByNumber, requireActive } from '../../accounts/index.ts';
import type { BeneficiaryService } from '../../beneficiaries/index.ts';
import { insertIntraBank, postIntraBank } from '../intra-bank/intra-bank-posting.ts';
import { findReferenceAndEnquiry } from '../name-enquiry/name-enquiry-repository.ts';
import type { Transfer } from '../transfer.ts';
import { buildOutward } from '../transfer-builder.ts';
import {
  addToDailyOutbound,
  findOutwardByReference,
  insertTransfer,
  type TransferRecord,
} from '../transfer-repository.ts';

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
  readonly beneficiaries: Pick<BeneficiaryService, 'remember'>;
}

/** What placing a transfer came to: a new transfer, or the earlier one this request repeats. */
export type Placement =
  | {
      readonly kind: 'placed';
      /** The transfer as stored, so nothing has to read it back after the commit. */
      readonly transfer: TransferRecord;
      /** The account an intra-bank transfer credited, for the owner's auto-sweep. */
      readonly credited: Account | undefined;
    }
  | { readonly kind: 'replay'; readonly transferId: string };

/** Idempotency-Key claims of transfers live under this scope. */
const IDEMPOTENCY_SCOPE = 'transfers';

/**
 * The first, atomic step of a transfer, in the caller's transaction: checks, idempotency claims,
 * the transfer row, and the money (posted for intra-bank, held for NIP). A request that repeats
 * an earlier one (same Idempotency-Key or paymentReference, same fingerprint) answers a replay
 * and writes nothing but, for a new key, the key's claim on the earlier transfer.
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
): Promise<Placement> {
  const { principal, body, requestHash } = request;
  const now = deps.clock.now();
  const intraBank = body.beneficiaryBankCode === deps.institutionCode;
  // The debit account and, intra-bank, the recipient's, in one query.
  const accounts = await findAccountsByNumber(
    tx,
    intraBank
      ? [body.debitAccountNumber, body.beneficiaryAccountNumber]
      : [body.debitAccountNumber],
  );
  const debitAccount = requireActive(accounts.get(body.debitAccountNumber), principal);
  const transferId = newObjectId(deps.clock);
  const claim =
    request.idempotencyKey === undefined
      ? undefined
      : {
          clientId: principal.clientId,
          scope: IDEMPOTENCY_SCOPE,
          key: request.idempotencyKey,
          requestHash,
          resourceId: transferId,
          now,
        };
  if (claim !== undefined) {
    const claimed = await claimIdempotencyKey(tx, claim);
    if (claimed.kind === 'replay') {
      return { kind: 'replay', transferId: claimed.resourceId };
    }
    if (claimed.kind === 'reused') {
      throw new AppError('IDEMPOTENCY_KEY_REUSED');
    }
  }
  // A repeat of an earlier transfer by reference: a new key now names that transfer too.
  const replayOf = async (earlierId: string): Promise<Placement> => {
    if (claim !== undefined) {
      await repointIdempotencyKey(tx, { ...claim, resourceId: earlierId });
    }
    return { kind: 'replay', transferId: earlierId };
  };
  const found = await findReferenceAndEnquiry(tx, {
    clientId: principal.clientId,
    paymentReference: body.paymentReference,
    sessionId: body.nameEnquiryReference,
    bankCode: body.beneficiaryBankCode,
    accountNumber: body.beneficiaryAccountNumber,
    now,
  });
  if (found.earlier !== undefined) {
    return replayOf(sameRequestOrRefuse(found.earlier, requestHash));
  }
  const enquiry = found.enquiry;
  if (enquiry === undefined) {
    throw new AppError('NAME_ENQUIRY_INVALID');
  }
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
      nameEnquiryReference: enquiry.sessionId,
      debitAccount,
      counterparty: {
        bankCode: enquiry.bankCode,
        accountNumber: enquiry.accountNumber,
        accountName: enquiry.accountName,
        kycLevel: enquiry.kycLevel,
      },
      amountKobo: body.amountKobo,
      charges: intraBank
        ? NO_CHARGES
        : tieredCharges(body.amountKobo, deps.config.nipFeeTiers, deps.config.vatBasisPoints),
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
  const extras = { requestHash, holdId, saveBeneficiary: !intraBank && body.saveBeneficiary };
  let credited: Account | undefined;
  let inserted: boolean;
  if (intraBank) {
    credited = accounts.get(body.beneficiaryAccountNumber);
    if (credited === undefined || credited.status !== 'Active') {
      throw new AppError(
        'NAME_ENQUIRY_FAILED',
        'The beneficiary account cannot receive transfers.',
      );
    }
    const inward = await insertIntraBank(tx, deps.clock, {
      outward,
      extras,
      beneficiary: credited,
    });
    inserted = inward !== undefined;
    if (inward !== undefined) {
      await postIntraBank(tx, deps.clock, { outward, inward, debitAccount, beneficiary: credited });
    }
  } else {
    inserted = await insertTransfer(tx, outward, { ...extras, nextStatusQueryAt });
    if (inserted) {
      await ledger.hold(tx, {
        id: holdId as string,
        accountId: debitAccount.id,
        amountKobo: outward.amountKobo + outward.feeKobo + outward.vatKobo,
        reference: outward.sessionId,
        createdAt: now,
      });
    }
  }
  if (!inserted) {
    // A concurrent request with this reference committed first.
    const winner = await findOutwardByReference(tx, principal.clientId, outward.paymentReference);
    if (winner !== undefined) {
      return replayOf(sameRequestOrRefuse(winner, requestHash));
    }
    throw new AppError('CONFLICT');
  }
  // After the money moved: the ledger holds the debit account's row lock by now, taken in id
  // order with the other accounts, so the day's total is exact and no lock order is added.
  await refuseAboveDailyLimit(tx, deps.config, debitAccount, outward);
  // An intra-bank transfer has succeeded already; a NIP one saves it when it settles with 00.
  if (intraBank && body.saveBeneficiary) {
    await deps.beneficiaries.remember(tx, principal.clientId, enquiry);
  }
  return { kind: 'placed', transfer: { ...outward, ...extras, statusQueries: 0 }, credited };
}

/** The earlier transfer's id when this request is the same; 409 when it is not. */
function sameRequestOrRefuse(
  earlier: { id: string; requestHash: string | null },
  requestHash: string,
): string {
  if (earlier.requestHash !== requestHash) {
    throw new AppError('DUPLICATE_REFERENCE');
  }
  return earlier.id;
}

function refuseAbovePerTransferLimit(config: TransferConfig, account: Account, amountKobo: Kobo) {
  if (amountKobo > limitsFor(config, account.kycLevel).perTransferKobo) {
    throw new AppError('TRANSFER_LIMIT_EXCEEDED', 'Amount is above the per-transfer limit.');
  }
}

/** The day's outbound total, this transfer included, against the account's daily limit. */
async function refuseAboveDailyLimit(
  tx: Queryable,
  config: TransferConfig,
  account: Account,
  outward: Transfer,
) {
  const spent = await addToDailyOutbound(tx, {
    accountId: account.id,
    madeAt: outward.createdAt,
    amountKobo: outward.amountKobo,
  });
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
