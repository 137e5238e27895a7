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

/**
 * In one query: the client's earlier Outwards transfer under this reference (if any), and the
 * name enquiry a new transfer quotes when it is usable (the caller's, this account's, fresh).
 */
export async function findReferenceAndEnquiry(
  db: Queryable,
  match: {
    clientId: string;
    paymentReference: string | undefined;
    sessionId: string;
    bankCode: string;
    accountNumber: string;
    now: Date;
  },
): Promise<{
  earlier: { id: string; requestHash: string | null } | undefined;
  enquiry: NameEnquiry | undefined;
}> {
  const rows = await db.query<{
    earlier: { id: string; request_hash: string | null } | null;
    enquiry: Record<string, string | null> | null;
  }>(
    `SELECT
       (SELECT json_build_object('id', t.id, 'request_hash', t.request_hash) FROM transfers t
         WHERE t.client_id = $1 AND t.payment_reference = $2 AND t.type = 'Outwards') AS earlier,
       (SELECT row_to_json(e) FROM name_enquiries e
         WHERE e.session_id = $3 AND e.client_id = $1 AND e.bank_code = $4
           AND e.account_number = $5 AND e.expires_at > $6) AS enquiry`,
    [
      match.clientId,
      match.paymentReference ?? null,
      match.sessionId,
      match.bankCode,
      match.accountNumber,
      match.now,
    ],
  );
  const row = rows[0];
  const found = row?.enquiry ?? null;
  return {
    earlier:
      row?.earlier === null || row?.earlier === undefined
        ? undefined
        : { id: row.earlier.id, requestHash: row.earlier.request_hash },
    enquiry:
      found === null
        ? undefined
        : {
            sessionId: String(found.session_id),
            clientId: String(found.client_id),
            bankCode: String(found.bank_code),
            accountNumber: String(found.account_number),
            accountName: String(found.account_name),
            kycLevel: String(found.kyc_level),
            bankVerificationNumber: found.bank_verification_number ?? null,
            createdAt: new Date(String(found.created_at)),
            expiresAt: new Date(String(found.expires_at)),
          },
  };
}
