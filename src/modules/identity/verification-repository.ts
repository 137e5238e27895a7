import type { Queryable } from '../../db/db.ts';
import type { VerificationRowJson } from './identity-batch.ts';
import type { CreditBureau, IdentityRecord, IdentityType } from './providers/identity-bureau.ts';
import type { Verification, VerificationStatus } from './verification.ts';

interface VerificationRow {
  id: string;
  client_id: string;
  type: IdentityType;
  number: string;
  provider: CreditBureau | null;
  verifier_id: string | null;
  debit_account_id: string;
  debit_account_number: string;
  fee_kobo: bigint;
  vat_kobo: bigint;
  status: VerificationStatus;
  record: Record<string, unknown>;
  otp_digest: string | null;
  otp_expires_at: Date | null;
  otp_attempts: number;
  created_at: Date;
  updated_at: Date;
  verified_at: Date | null;
}

const SELECT_VERIFICATION = 'SELECT v.* FROM identity_verifications v';

/**
 * A new verification as a row of `identity_verifications` in JSON, for identity_charge_one,
 * which inserts it with jsonb_populate_record (VerificationRowSchema names the columns).
 */
export function verificationRowJson(
  verification: Verification & { journalId: string | null },
): VerificationRowJson {
  const iso = (at: Date | null) => at?.toISOString() ?? null;
  return {
    id: verification.id,
    client_id: verification.clientId,
    type: verification.type,
    number: verification.number,
    provider: verification.provider,
    verifier_id: verification.verifierId,
    debit_account_id: verification.debitAccountId,
    debit_account_number: verification.debitAccountNumber,
    fee_kobo: verification.feeKobo.toString(),
    vat_kobo: verification.vatKobo.toString(),
    journal_id: verification.journalId,
    status: verification.status,
    record: JSON.parse(recordToJson(verification.record)),
    otp_digest: verification.otpDigest,
    otp_expires_at: iso(verification.otpExpiresAt),
    otp_attempts: verification.otpAttempts,
    created_at: verification.createdAt.toISOString(),
    updated_at: verification.updatedAt.toISOString(),
    verified_at: iso(verification.verifiedAt),
  };
}

/** A client's verification; another client's id answers nothing, as an unknown one does. */
export async function findClientVerification(
  db: Queryable,
  clientId: string,
  verificationId: string,
  options: { forUpdate?: boolean } = {},
): Promise<Verification | undefined> {
  const rows = await db.query<VerificationRow>(
    `${SELECT_VERIFICATION} WHERE v.id = $1 AND v.client_id = $2${
      options.forUpdate === true ? ' FOR UPDATE OF v' : ''
    }`,
    [verificationId, clientId],
  );
  return rows[0] === undefined ? undefined : toVerification(rows[0]);
}

/** A page of the client's verifications, newest first. */
export async function listClientVerifications(
  db: Queryable,
  filter: { clientId: string; offset: number; limit: number },
): Promise<{ verifications: Verification[]; total: number }> {
  const [rows, counts] = await Promise.all([
    db.query<VerificationRow>(
      `${SELECT_VERIFICATION} WHERE v.client_id = $1
        ORDER BY v.created_at DESC, v.id DESC OFFSET $2 LIMIT $3`,
      [filter.clientId, filter.offset, filter.limit],
    ),
    db.query<{ total: bigint }>(
      'SELECT count(*) AS total FROM identity_verifications WHERE client_id = $1',
      [filter.clientId],
    ),
  ]);
  return { verifications: rows.map(toVerification), total: Number(counts[0]?.total ?? 0n) };
}

/** The client's newest verification of this number still waiting for its OTP. */
export async function findPendingVerificationByNumber(
  db: Queryable,
  clientId: string,
  number: string,
): Promise<Verification | undefined> {
  const rows = await db.query<VerificationRow>(
    `${SELECT_VERIFICATION}
      WHERE v.client_id = $1 AND v.number = $2 AND v.status = 'Pending'
      ORDER BY v.created_at DESC, v.id DESC LIMIT 1`,
    [clientId, number],
  );
  return rows[0] === undefined ? undefined : toVerification(rows[0]);
}

/**
 * A new OTP for a verification still Pending. The attempt count stays: sending again never buys
 * more guesses. False when the verification left Pending meanwhile.
 */
export async function replaceOtp(
  db: Queryable,
  update: { id: string; digest: string; expiresAt: Date; at: Date },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE identity_verifications
        SET otp_digest = $2, otp_expires_at = $3, updated_at = $4
      WHERE id = $1 AND status = 'Pending'
      RETURNING id`,
    [update.id, update.digest, update.expiresAt, update.at],
  );
  return rows.length === 1;
}

/** Records one OTP attempt: how many there have been, and the status it leaves. */
export async function recordOtpAttempt(
  db: Queryable,
  update: { id: string; status: VerificationStatus; attempts: number; at: Date },
): Promise<void> {
  await db.query(
    `UPDATE identity_verifications
        SET otp_attempts = $3, status = $2, updated_at = $4,
            verified_at = CASE WHEN $2 = 'Verified' THEN $4 ELSE verified_at END
      WHERE id = $1`,
    [update.id, update.status, update.attempts, update.at],
  );
}

function toVerification(row: VerificationRow): Verification {
  return {
    id: row.id,
    clientId: row.client_id,
    type: row.type,
    number: row.number,
    provider: row.provider,
    verifierId: row.verifier_id,
    debitAccountId: row.debit_account_id,
    debitAccountNumber: row.debit_account_number,
    feeKobo: row.fee_kobo,
    vatKobo: row.vat_kobo,
    status: row.status,
    record: recordFromJson(row.record),
    otpDigest: row.otp_digest,
    otpExpiresAt: row.otp_expires_at,
    otpAttempts: row.otp_attempts,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    verifiedAt: row.verified_at,
  };
}

/** JSON has no bigint: the credit report's kobo amount is stored as a decimal string. */
function recordToJson(record: IdentityRecord): string {
  return JSON.stringify(record, (_key, value) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
}

function recordFromJson(json: Record<string, unknown>): IdentityRecord {
  if (json.kind === 'creditReport') {
    return {
      ...json,
      outstandingBalanceKobo: BigInt(String(json.outstandingBalanceKobo)),
    } as unknown as IdentityRecord;
  }
  return json as unknown as IdentityRecord;
}
