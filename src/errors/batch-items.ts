import { invariant } from '../shared/invariant.ts';
import { AppError } from './app-error.ts';
import { ERROR_CODES, type ErrorCode } from './error-codes.ts';

/**
 * What the batch runner (apply_batch, ledger/batch.ts) answers for an item it refused:
 * a business rule said no (OTP01 / OIB01), with our error code. Only that item rolled back.
 */
export interface ItemRefusal {
  readonly kind: 'refused';
  readonly code: string;
  readonly message: string | null;
}

/** An item of a batch call that failed for a reason other than a refusal: it alone. */
export interface ItemFailure {
  readonly kind: 'failed';
  readonly sqlstate: string;
  readonly message: string;
}

/** The 4xx a refused item's caller gets; the SQL names only codes the API has. */
export function refusalError(refusal: ItemRefusal, call: string): AppError {
  const code = refusal.code in ERROR_CODES ? (refusal.code as ErrorCode) : undefined;
  invariant(code !== undefined, `the ${call} call refused with an unknown code: ${refusal.code}`);
  return new AppError(code, refusal.message ?? undefined);
}

/** The error a caller whose item failed alone gets (a 500: it is our fault, not theirs). */
export function itemFailure(failure: ItemFailure, call: string): Error {
  return Object.assign(new Error(`${call} batch item failed: ${failure.message}`), {
    code: failure.sqlstate,
  });
}

/** Throws the caller's error for a refused or failed item; any other answer passes. */
export function throwIfRefusedOrFailed(
  result: { readonly kind: string } | ItemRefusal | ItemFailure,
  call: string,
): void {
  if (result.kind === 'refused') {
    throw refusalError(result as ItemRefusal, call);
  }
  if (result.kind === 'failed') {
    throw itemFailure(result as ItemFailure, call);
  }
}
