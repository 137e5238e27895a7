import type { Principal } from '../../auth/principal.ts';
import type { IdentityConfig } from '../../config/identity-config.ts';
import type { Db } from '../../db/db.ts';
import { AppError, recordNotFound } from '../../errors/app-error.ts';
import { throwIfRefusedOrFailed } from '../../errors/batch-items.ts';
import type { ErrorCode } from '../../errors/error-codes.ts';
import { callBatch } from '../../ledger/batch.ts';
import { type Charges, chargePostings, feeWithVat } from '../../ledger/charges.ts';
import { journalJson } from '../../ledger/ledger-service.ts';
import type { Clock } from '../../shared/clock.ts';
import { isObjectId, newObjectId } from '../../shared/ids.ts';
import { invariant } from '../../shared/invariant.ts';
import { findAccountsOpenedWith, findOwnActiveAccount } from '../accounts/index.ts';
import { identityCharge } from './identity-batch.ts';
import { otpDigest, otpMatches } from './otp.ts';
import type {
  CreditBureau,
  IdentityBureau,
  IdentityLookupOutcome,
  IdentityRecord,
  IdentityType,
} from './providers/identity-bureau.ts';
import {
  needsOtp,
  type OpenedAccount,
  type Verification,
  type VerificationWithAccounts,
} from './verification.ts';
import {
  findClientVerification,
  findPendingVerificationByNumber,
  listClientVerifications,
  recordOtpAttempt,
  replaceOtp,
  verificationRowJson,
} from './verification-repository.ts';

export interface IdentityServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly bureau: IdentityBureau;
  readonly config: IdentityConfig;
  readonly vatBasisPoints: bigint;
  /** Makes the OTP for each new verification: random in production, the documented one in sandbox. */
  readonly newOtp: () => string;
  /** Keys the stored OTP digests. */
  readonly otpSecret: string;
}

export interface InitiateRequest {
  readonly type: IdentityType;
  readonly number: string;
  readonly debitAccountNumber: string;
  readonly verifierId?: string;
  readonly provider?: CreditBureau;
  readonly otp?: string;
}

export interface ValidateRequest {
  readonly identityId: string;
  readonly type: IdentityType;
  readonly otp: string;
}

/**
 * Identity and credit checks. The bureau is asked first and nothing is charged unless it finds
 * the identity; the fee is then posted and the verification stored in one transaction, so an
 * account that cannot pay gets 402 and nothing is created.
 */
export function createIdentityService(deps: IdentityServiceDeps) {
  async function initiate(principal: Principal, request: InitiateRequest): Promise<Verification> {
    requireTypeFields(request);
    const account = await findOwnActiveAccount(
      deps.db,
      principal.clientId,
      request.debitAccountNumber,
    );
    const record = foundRecord(await askBureau(request));
    const id = newObjectId(deps.clock);
    const now = deps.clock.now();
    const challenge = needsOtp(request.type) ? await sendOtp(id, record, now) : undefined;
    const { feeKobo, vatKobo } = charges(request.type);
    const verification: Verification = {
      id,
      clientId: principal.clientId,
      type: request.type,
      number: request.number,
      provider: request.provider ?? null,
      verifierId: request.verifierId ?? null,
      debitAccountId: account.id,
      debitAccountNumber: account.accountNumber,
      feeKobo,
      vatKobo,
      status: challenge === undefined ? 'Verified' : 'Pending',
      record,
      otpDigest: challenge?.digest ?? null,
      otpExpiresAt: challenge?.expiresAt ?? null,
      otpAttempts: 0,
      createdAt: now,
      updatedAt: now,
      verifiedAt: challenge === undefined ? now : null,
    };
    const journalId = feeKobo > 0n ? newObjectId(deps.clock) : null;
    const [charged] = await callBatch(deps.db, identityCharge, [
      {
        verification: verificationRowJson({ ...verification, journalId }),
        ...(journalId === null
          ? {}
          : {
              journal: journalJson({
                id: journalId,
                kind: 'fee',
                narration: `${request.type} verification fee`,
                reference: id,
                createdAt: now,
                postings: chargePostings(account.id, {
                  feeKobo,
                  vatKobo,
                  vatNarration: `VAT on ${request.type} verification fee`,
                }),
              }),
            }),
      },
    ]);
    invariant(charged !== undefined, 'one verification, one answer');
    throwIfRefusedOrFailed(charged, 'identity');
    return verification;
  }

  /** Checks the OTP; wrong guesses are counted (and committed) even though the call fails. */
  async function validate(principal: Principal, request: ValidateRequest): Promise<Verification> {
    if (!isObjectId(request.identityId)) {
      throw recordNotFound();
    }
    const now = deps.clock.now();
    const result = await deps.db.transaction(
      async (tx): Promise<{ verification: Verification } | { refusal: ErrorCode }> => {
        const found = await findClientVerification(tx, principal.clientId, request.identityId, {
          forUpdate: true,
        });
        if (found === undefined) {
          return { refusal: 'RECORD_NOT_FOUND' };
        }
        const refusal = refusalBeforeOtp(found, request, now);
        if (refusal !== undefined || found.status === 'Verified') {
          return refusal === undefined ? { verification: found } : { refusal };
        }
        const attempts = found.otpAttempts + 1;
        const right = otpMatches(deps.otpSecret, found.id, request.otp, found.otpDigest ?? '');
        const status = right
          ? 'Verified'
          : attempts >= deps.config.otpMaxAttempts
            ? 'Failed'
            : 'Pending';
        await recordOtpAttempt(tx, { id: found.id, status, attempts, at: now });
        if (!right) {
          return { refusal: status === 'Failed' ? 'OTP_ATTEMPTS_EXCEEDED' : 'OTP_INVALID' };
        }
        return {
          verification: {
            ...found,
            status,
            otpAttempts: attempts,
            updatedAt: now,
            verifiedAt: now,
          },
        };
      },
    );
    if ('refusal' in result) {
      throw result.refusal === 'RECORD_NOT_FOUND' ? recordNotFound() : new AppError(result.refusal);
    }
    return result.verification;
  }

  /**
   * The legacy `POST /identity/send-otp`: a fresh OTP for the caller's newest verification of
   * this number still waiting for one, with a new expiry. Nothing is charged again and the wrong
   * attempts already made still count.
   */
  async function resendOtp(principal: Principal, number: string): Promise<Verification> {
    const pending = await findPendingVerificationByNumber(deps.db, principal.clientId, number);
    if (pending === undefined) {
      throw recordNotFound();
    }
    const now = deps.clock.now();
    const challenge = await sendOtp(pending.id, pending.record, now);
    const replaced = await replaceOtp(deps.db, {
      id: pending.id,
      digest: challenge.digest,
      expiresAt: challenge.expiresAt,
      at: now,
    });
    if (!replaced) {
      throw recordNotFound();
    }
    return {
      ...pending,
      otpDigest: challenge.digest,
      otpExpiresAt: challenge.expiresAt,
      updatedAt: now,
    };
  }

  function refusalBeforeOtp(
    verification: Verification,
    request: ValidateRequest,
    now: Date,
  ): ErrorCode | undefined {
    if (verification.type !== request.type) {
      return 'IDENTITY_MISMATCH';
    }
    if (verification.status === 'Failed') {
      return 'OTP_ATTEMPTS_EXCEEDED';
    }
    if (verification.status === 'Pending' && (verification.otpExpiresAt ?? now) <= now) {
      return 'OTP_EXPIRED';
    }
    return undefined;
  }

  async function askBureau(request: InitiateRequest): Promise<IdentityLookupOutcome> {
    try {
      return await deps.bureau.lookup({
        type: request.type,
        number: request.number,
        ...(request.verifierId === undefined ? {} : { verifierId: request.verifierId }),
        ...(request.provider === undefined ? {} : { provider: request.provider }),
        ...(request.otp === undefined ? {} : { otp: request.otp }),
      });
    } catch {
      return { kind: 'unavailable', message: 'The identity bureau did not answer.' };
    }
  }

  async function sendOtp(verificationId: string, record: IdentityRecord, now: Date) {
    if (record.kind !== 'person') {
      throw new AppError('IDENTITY_MISMATCH', 'The bureau returned no person for this number.');
    }
    const otp = deps.newOtp();
    let delivered: boolean;
    try {
      delivered = await deps.bureau.deliverOtp({
        phoneNumber: record.phoneNumber,
        otp,
        reference: verificationId,
      });
    } catch {
      delivered = false;
    }
    if (!delivered) {
      throw new AppError(
        'IDENTITY_BUREAU_UNAVAILABLE',
        "The OTP could not be sent to the identity's phone. Try again later.",
      );
    }
    return {
      digest: otpDigest(deps.otpSecret, verificationId, otp),
      expiresAt: new Date(now.getTime() + deps.config.otpTtlSeconds * 1000),
    };
  }

  /**
   * Operator use: a page of the client's verifications, newest first, each with the accounts
   * opened with it (one query for the page's accounts).
   */
  async function listWithAccounts(
    clientId: string,
    page: { page: number; limit: number },
  ): Promise<{ verifications: VerificationWithAccounts[]; total: number }> {
    const { verifications, total } = await listClientVerifications(deps.db, {
      clientId,
      offset: page.page * page.limit,
      limit: page.limit,
    });
    const opened =
      verifications.length === 0
        ? []
        : await findAccountsOpenedWith(
            deps.db,
            clientId,
            verifications.map((verification) => verification.id),
          );
    const byVerification = new Map<string, OpenedAccount[]>();
    for (const { verificationId, ...account } of opened) {
      byVerification.set(verificationId, [...(byVerification.get(verificationId) ?? []), account]);
    }
    return {
      verifications: verifications.map((verification) => ({
        verification,
        accounts: byVerification.get(verification.id) ?? [],
      })),
      total,
    };
  }

  function charges(type: IdentityType): Charges {
    return feeWithVat(deps.config.feesKobo[type] ?? 0n, deps.vatBasisPoints);
  }

  return {
    initiate,
    validate,
    resendOtp,
    listWithAccounts,
    /** The caller's verification, for checks that build on it (sub-accounts). */
    find: (clientId: string, verificationId: string) =>
      isObjectId(verificationId)
        ? findClientVerification(deps.db, clientId, verificationId)
        : Promise.resolve(undefined),
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;

/** What each type needs beyond type and number (ibs-api-reference §4.7.1). */
function requireTypeFields(request: InitiateRequest): void {
  const missing =
    request.type === 'vNIN' && request.verifierId === undefined
      ? 'verifierId is required for vNIN'
      : request.type === 'CREDITCHECK' && request.provider === undefined
        ? 'provider (creditRegistry or firstCentral) is required for CREDITCHECK'
        : request.type === 'BVNUSSD' && request.otp === undefined
          ? 'otp is required for BVNUSSD'
          : undefined;
  if (missing !== undefined) {
    throw new AppError('VALIDATION_ERROR', missing);
  }
}

function foundRecord(outcome: IdentityLookupOutcome): IdentityRecord {
  switch (outcome.kind) {
    case 'found':
      return outcome.record;
    case 'notFound':
      throw new AppError('IDENTITY_NOT_FOUND');
    case 'mismatch':
      throw new AppError('IDENTITY_MISMATCH', outcome.message);
    case 'unavailable':
      throw new AppError('IDENTITY_BUREAU_UNAVAILABLE');
  }
}
