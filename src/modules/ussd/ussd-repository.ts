import { claimDue, type DueRows } from '../../db/claim-due.ts';
import type { Queryable } from '../../db/db.ts';
import type { DueClaim } from '../../shared/poll-loop.ts';
import type {
  StoredUssdReferenceStatus,
  UssdReference,
  UssdReferenceStatus,
} from './ussd-reference.ts';

interface UssdReferenceRow {
  id: string;
  reference: string;
  client_id: string;
  merchant_name: string;
  ussd_bank_code: string;
  amount_kobo: bigint;
  settlement_account_id: string;
  settlement_account_number: string;
  callback_url: string | null;
  status: StoredUssdReferenceStatus;
  expires_at: Date;
  transfer_id: string | null;
  session_id: string | null;
  paid_ussd_bank_code: string | null;
  paid_kobo: bigint | null;
  paid_at: Date | null;
  status_queries: number;
  created_at: Date;
  updated_at: Date;
}

function toReference(row: UssdReferenceRow): UssdReference {
  return {
    id: row.id,
    reference: row.reference,
    clientId: row.client_id,
    merchantName: row.merchant_name,
    ussdBankCode: row.ussd_bank_code,
    amountKobo: BigInt(row.amount_kobo),
    settlementAccountId: row.settlement_account_id,
    settlementAccountNumber: row.settlement_account_number,
    callbackUrl: row.callback_url,
    status: row.status,
    expiresAt: new Date(row.expires_at),
    payment:
      row.transfer_id === null
        ? null
        : {
            transferId: row.transfer_id,
            sessionId: row.session_id ?? '',
            ussdBankCode: row.paid_ussd_bank_code ?? '',
            amountKobo: BigInt(row.paid_kobo ?? 0n),
            paidAt: new Date(row.paid_at ?? row.updated_at),
          },
    statusQueries: row.status_queries,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

const SELECT = 'SELECT * FROM ussd_references';

/** Stores a new reference; false when its digits are taken (the gateway issued them twice). */
export async function insertReference(
  db: Queryable,
  reference: UssdReference,
  firstStatusQueryAt: Date | null,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO ussd_references (id, reference, client_id, merchant_name, ussd_bank_code,
        amount_kobo, settlement_account_id, settlement_account_number, callback_url, status,
        expires_at, next_status_query_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (reference) DO NOTHING RETURNING id`,
    [
      reference.id,
      reference.reference,
      reference.clientId,
      reference.merchantName,
      reference.ussdBankCode,
      reference.amountKobo,
      reference.settlementAccountId,
      reference.settlementAccountNumber,
      reference.callbackUrl,
      reference.status,
      reference.expiresAt,
      firstStatusQueryAt,
      reference.createdAt,
      reference.updatedAt,
    ],
  );
  return rows.length === 1;
}

/** A reference by its digits, whoever owns it (for settling a payment on it). */
export async function findByReference(
  db: Queryable,
  reference: string,
): Promise<UssdReference | undefined> {
  const rows = await db.query<UssdReferenceRow>(`${SELECT} WHERE reference = $1`, [reference]);
  return rows[0] === undefined ? undefined : toReference(rows[0]);
}

export async function findClientReference(
  db: Queryable,
  clientId: string,
  reference: string,
): Promise<UssdReference | undefined> {
  const rows = await db.query<UssdReferenceRow>(
    `${SELECT} WHERE reference = $1 AND client_id = $2`,
    [reference, clientId],
  );
  return rows[0] === undefined ? undefined : toReference(rows[0]);
}

export interface UssdReferenceFilter {
  readonly clientId: string;
  readonly status?: UssdReferenceStatus;
  readonly from?: Date;
  readonly to?: Date;
  readonly now: Date;
  readonly offset: number;
  readonly limit: number;
}

/** A page of the client's references, newest first. */
export async function listReferences(db: Queryable, filter: UssdReferenceFilter) {
  // Expired and Pending are told apart by the time, as statusAt does.
  const where = `client_id = $1
      AND ($3::text IS NULL OR (CASE WHEN status = 'Pending' AND expires_at <= $2 THEN 'Expired'
                                     ELSE status END) = $3)
      AND ($4::timestamptz IS NULL OR created_at >= $4)
      AND ($5::timestamptz IS NULL OR created_at <= $5)`;
  const params = [
    filter.clientId,
    filter.now,
    filter.status ?? null,
    filter.from ?? null,
    filter.to ?? null,
  ];
  const [rows, counts] = await Promise.all([
    db.query<UssdReferenceRow>(
      `${SELECT} WHERE ${where} ORDER BY created_at DESC, id DESC OFFSET $6 LIMIT $7`,
      [...params, filter.offset, filter.limit],
    ),
    db.query<{ total: bigint }>(
      `SELECT count(*) AS total FROM ussd_references WHERE ${where}`,
      params,
    ),
  ]);
  return { references: rows.map(toReference), total: Number(counts[0]?.total ?? 0n) };
}

const DUE_STATUS_QUERIES: DueRows = {
  table: 'ussd_references',
  dueColumn: 'next_status_query_at',
  waiting: `status = 'Pending'`,
};

/**
 * Unpaid references due a status query, hidden from other workers for `claimSeconds` while the
 * gateway is asked.
 */
export async function claimDueQueries(db: Queryable, claim: DueClaim): Promise<UssdReference[]> {
  const rows = await claimDue<UssdReferenceRow>(db, DUE_STATUS_QUERIES, claim);
  return rows.map(toReference);
}

/** Counts a status query that found no payment, and when to ask next (null: never again). */
export async function scheduleNextQuery(
  db: Queryable,
  change: { id: string; next: Date | null; now: Date },
): Promise<void> {
  await db.query(
    `UPDATE ussd_references
        SET status_queries = status_queries + 1, next_status_query_at = $2, updated_at = $3
      WHERE id = $1 AND status = 'Pending'`,
    [change.id, change.next, change.now],
  );
}

/**
 * Unpaid references that will be asked about again (for /metrics): their payment notice may have
 * been lost. Counted from the partial index the status-query worker claims through
 * (ussd_references_due_queries).
 */
export async function countReferencesAwaitingStatusQuery(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ussd_references
      WHERE status = 'Pending' AND next_status_query_at IS NOT NULL`,
  );
  return rows[0]?.n ?? 0;
}
