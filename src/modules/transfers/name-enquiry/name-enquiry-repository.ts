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

/** The name enquiry a new transfer quotes, when it is usable: the caller's, this account's, fresh. */
export async function findUsableEnquiry(
  db: Queryable,
  match: {
    clientId: string;
    sessionId: string;
    bankCode: string;
    accountNumber: string;
    now: Date;
  },
): Promise<NameEnquiry | undefined> {
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
  }>(
    `SELECT * FROM name_enquiries
      WHERE session_id = $1 AND client_id = $2 AND bank_code = $3 AND account_number = $4
        AND expires_at > $5`,
    [match.sessionId, match.clientId, match.bankCode, match.accountNumber, match.now],
  );
  const found = rows[0];
  return found === undefined
    ? undefined
    : {
        sessionId: found.session_id,
        clientId: found.client_id,
        bankCode: found.bank_code,
        accountNumber: found.account_number,
        accountName: found.account_name,
        kycLevel: found.kyc_level,
        bankVerificationNumber: found.bank_verification_number,
        createdAt: found.created_at,
        expiresAt: found.expires_at,
      };
}
