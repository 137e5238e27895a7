import type { Queryable } from '../../../db/db.ts';

export interface NameEnquiry {
  readonly sessionId: string;
  readonly clientId: string;
  readonly bankCode: string;
  readonly accountNumber: string;
  readonly accountName: string;
  readonly kycLevel: string;
  readonly bankVerificationNumber: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

export async function insertNameEnquiry(db: Queryable, enquiry: NameEnquiry): Promise<void> {
  await db.query(
    `INSERT INTO name_enquiries (session_id, client_id, bank_code, account_number, account_name,
        kyc_level, bank_verification_number, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      enquiry.sessionId,
      enquiry.clientId,
      enquiry.bankCode,
      enquiry.accountNumber,
      enquiry.accountName,
      enquiry.kycLevel,
      enquiry.bankVerificationNumber,
      enquiry.createdAt,
      enquiry.expiresAt,
    ],
  );
}

/** Name enquiries by session id, in one query (look-ups of many transfers at once). */
export async function findEnquiriesBySession(
  db: Queryable,
  sessionIds: readonly string[],
): Promise<Map<string, NameEnquiry>> {
  const rows = await db.query<{
    session_id: string;
    client_id: string;
    bank_code: string;
    account_number: string;
    account_name: string;
    kyc_level: string;
    bank_verification_number: string | null;
    created_at: Date;
    expires_at: Date;
  }>('SELECT * FROM name_enquiries WHERE session_id = ANY($1)', [sessionIds]);
  return new Map(
    rows.map((found) => [
      found.session_id,
      {
        sessionId: found.session_id,
        clientId: found.client_id,
        bankCode: found.bank_code,
        accountNumber: found.account_number,
        accountName: found.account_name,
        kycLevel: found.kyc_level,
        bankVerificationNumber: found.bank_verification_number,
        createdAt: found.created_at,
        expiresAt: found.expires_at,
      },
    ]),
  );
}

/**
 * The enquiry a new transfer may quote: the caller's own, of this very account, and fresh.
 * Anything else is as good as none (NAME_ENQUIRY_INVALID), whoever's it is.
 */
export function usableEnquiry(
  enquiry: NameEnquiry | undefined,
  match: { clientId: string; bankCode: string; accountNumber: string; now: Date },
): NameEnquiry | undefined {
  return enquiry !== undefined &&
    enquiry.clientId === match.clientId &&
    enquiry.bankCode === match.bankCode &&
    enquiry.accountNumber === match.accountNumber &&
    enquiry.expiresAt.getTime() > match.now.getTime()
    ? enquiry
    : undefined;
}

/** Retention: deletes up to `limit` name enquiries that expired before `before`; how many. */
export async function purgeExpiredEnquiries(
  db: Queryable,
  before: Date,
  limit: number,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM name_enquiries WHERE session_id IN (
       SELECT session_id FROM name_enquiries WHERE expires_at < $1 ORDER BY expires_at LIMIT $2)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before, limit],
  );
  return rows[0]?.n ?? 0;
}
