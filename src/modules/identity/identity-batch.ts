import { type Static, Type } from 'typebox';
import {
  batchKind,
  JournalItemSchema,
  KoboText,
  NullableText,
  NullableTime,
  TimeText,
} from '../../ledger/batch.ts';

/**
 * The identity module's side of the batch contract (ledger/batch.ts): a verification stored with
 * the fee it charges, in one call of the one runner (sql/identity_charge_one.sql), so the fee
 * moves money like every other movement: under the batch's locks, refused alone when the
 * account cannot pay or is no longer Active.
 */

/** A new row of `identity_verifications`, keyed by column (verificationRowJson). */
export const VerificationRowSchema = Type.Object({
  id: Type.String(),
  client_id: Type.String(),
  type: Type.String(),
  number: Type.String(),
  provider: NullableText,
  verifier_id: NullableText,
  debit_account_id: Type.String(),
  debit_account_number: Type.String(),
  fee_kobo: KoboText,
  vat_kobo: KoboText,
  journal_id: NullableText,
  status: Type.String(),
  record: Type.Unknown(),
  otp_digest: NullableText,
  otp_expires_at: NullableTime,
  otp_attempts: Type.Integer({ minimum: 0 }),
  created_at: TimeText,
  updated_at: TimeText,
  verified_at: NullableTime,
});
export type VerificationRowJson = Static<typeof VerificationRowSchema>;

/** A verification and, when it costs anything, the journal of its fee and VAT. */
export const IdentityChargeItemSchema = Type.Object({
  verification: VerificationRowSchema,
  journal: Type.Optional(JournalItemSchema),
});

export const identityCharge = batchKind({
  apply: 'identity_charge_one',
  locks: 'identity_charge_locks',
  item: IdentityChargeItemSchema,
  result: Type.Object({ kind: Type.Literal('charged') }),
});
