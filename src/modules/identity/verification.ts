import type { Kobo } from '../../shared/money.ts';
import type { CreditBureau, IdentityRecord, IdentityType } from './providers/identity-bureau.ts';

export type VerificationStatus = 'Pending' | 'Verified' | 'Failed';

/** One identity or credit check a client ran, with its OTP challenge when it has one. */
export interface Verification {
  readonly id: string;
  readonly clientId: string;
  readonly type: IdentityType;
  readonly number: string;
  readonly provider: CreditBureau | null;
  readonly verifierId: string | null;
  readonly debitAccountId: string;
  readonly debitAccountNumber: string;
  readonly feeKobo: Kobo;
  readonly vatKobo: Kobo;
  readonly status: VerificationStatus;
  readonly record: IdentityRecord;
  readonly otpDigest: string | null;
  readonly otpExpiresAt: Date | null;
  readonly otpAttempts: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly verifiedAt: Date | null;
}

/** An account of the client opened with a verification: as its holder's, or a director's. */
export interface OpenedAccount {
  readonly accountId: string;
  readonly accountNumber: string;
  readonly as: 'holder' | 'director';
}

/** A verification with the accounts opened with it (operator use). */
export interface VerificationWithAccounts {
  readonly verification: Verification;
  readonly accounts: readonly OpenedAccount[];
}

/** BVN and NIN checks send an OTP to the identity's phone; the others verify at once. */
export function needsOtp(type: IdentityType): boolean {
  return type === 'BVN' || type === 'NIN';
}
