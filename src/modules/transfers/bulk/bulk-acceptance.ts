import type { Static } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Principal } from '../../../auth/principal.ts';
import type { TransferConfig } from '../../../config/config.ts';
import { limitsFor } from '../../../config/kyc-limits.ts';
import { AppError } from '../../../errors/app-error.ts';
import type { ErrorCode } from '../../../errors/error-codes.ts';
import { parseAmount } from '../../../http/amount.ts';
import { NO_CHARGES, tieredCharges } from '../../../ledger/charges.ts';
import type { Kobo } from '../../../shared/money.ts';
import { requireActive } from '../../accounts/index.ts';
import { findBank } from '../name-enquiry/bank-directory.ts';
import { usableEnquiry } from '../name-enquiry/name-enquiry-repository.ts';
import type { PlacementLookup, TransferRequest } from '../outbound/transfer-placement.ts';
import type { StoredRequest } from './bulk-repository.ts';
import { BulkTransferItem } from './bulk-schemas.ts';

/** An item as the request gave it, read or refused. */
export type CheckedItem =
  | {
      readonly ok: true;
      readonly request: StoredRequest;
      /** What the item takes from the debit account: amount, and for NIP fee and VAT. */
      readonly totalKobo: Kobo;
      readonly debitAccountId: string;
    }
  | {
      readonly ok: false;
      readonly paymentReference: string | null;
      readonly code: ErrorCode;
      readonly message: string;
    };

export interface AcceptanceDeps {
  readonly institutionCode: string;
  readonly config: TransferConfig;
  readonly maxAmountKobo: Kobo;
}

const checkItemSchema = Compile(BulkTransferItem);

/** A refused item, with the message the API gives for its code unless told another. */
function refused(paymentReference: unknown, code: ErrorCode, message?: string): CheckedItem {
  return {
    ok: false,
    paymentReference:
      typeof paymentReference === 'string' && paymentReference.length <= 64
        ? paymentReference
        : null,
    code,
    message: message ?? new AppError(code).message,
  };
}

function referenceOf(raw: unknown): unknown {
  return typeof raw === 'object' && raw !== null
    ? (raw as { paymentReference?: unknown }).paymentReference
    : undefined;
}

/** First pass, alone: the item's shape, its amount and its bank. */
export function readItem(
  deps: AcceptanceDeps,
  raw: unknown,
): CheckedItem | { ok: 'read'; body: TransferRequest & { paymentReference: string } } {
  if (!checkItemSchema.Check(raw)) {
    const [first] = checkItemSchema.Errors(raw);
    const where = first?.instancePath === '' ? 'item' : (first?.instancePath ?? 'item');
    return refused(
      referenceOf(raw),
      'VALIDATION_ERROR',
      `${where}: ${first?.message ?? 'invalid'}`,
    );
  }
  const item = raw as Static<typeof BulkTransferItem>;
  let amountKobo: Kobo;
  try {
    amountKobo = parseAmount(item.amount, deps.maxAmountKobo);
  } catch (error) {
    return refused(item.paymentReference, 'INVALID_AMOUNT', (error as Error).message);
  }
  if (findBank(item.beneficiaryBankCode, deps.institutionCode) === undefined) {
    return refused(item.paymentReference, 'UNKNOWN_BANK');
  }
  return {
    ok: 'read',
    body: {
      nameEnquiryReference: item.nameEnquiryReference ?? '',
      debitAccountNumber: item.debitAccountNumber,
      beneficiaryBankCode: item.beneficiaryBankCode,
      beneficiaryAccountNumber: item.beneficiaryAccountNumber,
      amountKobo,
      saveBeneficiary: item.saveBeneficiary ?? false,
      ...(item.narration === undefined ? {} : { narration: item.narration }),
      paymentReference: item.paymentReference,
    },
  };
}

/** What the second pass reads for every item at once. */
export interface AcceptanceContext {
  readonly principal: Pick<Principal, 'clientId'>;
  readonly now: Date;
  readonly found: PlacementLookup;
  /** References the client used before this request. */
  readonly used: ReadonlySet<string>;
  /** References seen earlier in this request (the check adds each one it passes). */
  readonly seen: Set<string>;
}

/**
 * Second pass, with what was read for all: the reference is new (in the request and for the
 * client), the debit account is the caller's and Active, the amount within the per-transfer
 * limit, an intra-bank beneficiary can receive, a quoted name enquiry is usable.
 */
export function checkItem(
  deps: AcceptanceDeps,
  body: TransferRequest & { paymentReference: string },
  context: AcceptanceContext,
): CheckedItem {
  const reference = body.paymentReference;
  if (context.seen.has(reference)) {
    return refused(
      reference,
      'DUPLICATE_REFERENCE',
      'This paymentReference appears earlier in this batch.',
    );
  }
  context.seen.add(reference);
  if (context.used.has(reference)) {
    return refused(reference, 'DUPLICATE_REFERENCE', 'This paymentReference was already used.');
  }
  const accounts = context.found.accounts;
  let debit: ReturnType<typeof requireActive>;
  try {
    debit = requireActive(accounts.get(body.debitAccountNumber), context.principal);
  } catch (error) {
    return error instanceof AppError
      ? refused(reference, error.code)
      : refused(reference, 'RECORD_NOT_FOUND');
  }
  const refusal = beneficiaryRefusal(deps, body, context, debit);
  if (refusal !== undefined) {
    return refused(reference, refusal.code, refusal.message);
  }
  const intraBank = body.beneficiaryBankCode === deps.institutionCode;
  const charges = intraBank
    ? NO_CHARGES
    : tieredCharges(body.amountKobo, deps.config.nipFeeTiers, deps.config.vatBasisPoints);
  return {
    ok: true,
    request: storedRequest(body, debit.id),
    totalKobo: body.amountKobo + charges.feeKobo + charges.vatKobo,
    debitAccountId: debit.id,
  };
}

function beneficiaryRefusal(
  deps: AcceptanceDeps,
  body: TransferRequest,
  context: AcceptanceContext,
  debit: { accountNumber: string; kycLevel: string },
): { code: ErrorCode; message?: string } | undefined {
  const intraBank = body.beneficiaryBankCode === deps.institutionCode;
  if (intraBank && body.beneficiaryAccountNumber === debit.accountNumber) {
    return { code: 'SAME_ACCOUNT' };
  }
  if (body.amountKobo > limitsFor(deps.config, debit.kycLevel).perTransferKobo) {
    return { code: 'TRANSFER_LIMIT_EXCEEDED', message: 'Amount is above the per-transfer limit.' };
  }
  if (intraBank) {
    const number = body.beneficiaryAccountNumber;
    const credited =
      context.found.accounts.get(number) ??
      context.found.collections.get(number)?.settlementAccount;
    if (credited === undefined || credited.status !== 'Active') {
      return {
        code: 'NAME_ENQUIRY_FAILED',
        message: 'The beneficiary account cannot receive transfers.',
      };
    }
  }
  if (body.nameEnquiryReference !== '') {
    const usable = usableEnquiry(context.found.enquiries.get(body.nameEnquiryReference), {
      clientId: context.principal.clientId,
      bankCode: body.beneficiaryBankCode,
      accountNumber: body.beneficiaryAccountNumber,
      now: context.now,
    });
    if (usable === undefined) {
      return { code: 'NAME_ENQUIRY_INVALID' };
    }
  }
  return undefined;
}

function storedRequest(
  body: TransferRequest & { paymentReference: string },
  debitAccountId: string,
): StoredRequest {
  return {
    ...(body.nameEnquiryReference === ''
      ? {}
      : { nameEnquiryReference: body.nameEnquiryReference }),
    debitAccountNumber: body.debitAccountNumber,
    beneficiaryBankCode: body.beneficiaryBankCode,
    beneficiaryAccountNumber: body.beneficiaryAccountNumber,
    amountKobo: body.amountKobo.toString(),
    saveBeneficiary: body.saveBeneficiary,
    ...(body.narration === undefined ? {} : { narration: body.narration }),
    paymentReference: body.paymentReference,
    holdAccountId: debitAccountId,
  };
}

/** A stored request back as the placement takes it. */
export function transferRequestOf(stored: StoredRequest): TransferRequest {
  return {
    nameEnquiryReference: stored.nameEnquiryReference ?? '',
    debitAccountNumber: stored.debitAccountNumber,
    beneficiaryBankCode: stored.beneficiaryBankCode,
    beneficiaryAccountNumber: stored.beneficiaryAccountNumber,
    amountKobo: BigInt(stored.amountKobo),
    saveBeneficiary: stored.saveBeneficiary,
    ...(stored.narration === undefined ? {} : { narration: stored.narration }),
    paymentReference: stored.paymentReference,
  };
}
