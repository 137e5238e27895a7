import type { Queryable } from '../../db/db.ts';
import type {
  CheckoutChannel,
  CheckoutCustomer,
  CheckoutSession,
  CheckoutStatus,
  FeeBearer,
} from './checkout-session.ts';

interface SessionRow {
  id: string;
  client_id: string;
  reference_code: string;
  request_hash: string;
  amount_kobo: bigint;
  fee_bearer: FeeBearer;
  customer: CheckoutCustomer;
  merchant_name: string;
  settlement_account_id: string;
  settlement_account_number: string;
  redirect_url: string | null;
  webhook_url: string | null;
  custom_icon_url: string | null;
  metadata: Record<string, unknown> | null;
  origin: string | null;
  status: 'Pending' | 'Completed';
  virtual_account_id: string | null;
  ussd_reference: string | null;
  ussd_reference_id: string | null;
  channel: CheckoutChannel | null;
  transfer_id: string | null;
  paid_kobo: bigint | null;
  fees_kobo: bigint | null;
  paid_at: Date | null;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

function toSession(row: SessionRow): CheckoutSession {
  return {
    id: row.id,
    clientId: row.client_id,
    referenceCode: row.reference_code,
    requestHash: row.request_hash,
    amountKobo: BigInt(row.amount_kobo),
    feeBearer: row.fee_bearer,
    customer: row.customer,
    merchantName: row.merchant_name,
    settlementAccountId: row.settlement_account_id,
    settlementAccountNumber: row.settlement_account_number,
    redirectUrl: row.redirect_url,
    webhookUrl: row.webhook_url,
    customIconUrl: row.custom_icon_url,
    metadata: row.metadata,
    origin: row.origin,
    status: row.status,
    virtualAccountId: row.virtual_account_id,
    ussdReference: row.ussd_reference,
    ussdReferenceId: row.ussd_reference_id,
    payment:
      row.channel === null || row.transfer_id === null
        ? null
        : {
            channel: row.channel,
            transferId: row.transfer_id,
            paidKobo: BigInt(row.paid_kobo ?? 0n),
            feesKobo: BigInt(row.fees_kobo ?? 0n),
            paidAt: new Date(row.paid_at ?? row.updated_at),
          },
    expiresAt: new Date(row.expires_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

const SELECT = 'SELECT * FROM checkout_sessions';

/** Stores a new session; false when the same config of the referenceCode is stored already. */
export async function insertSession(db: Queryable, session: CheckoutSession): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO checkout_sessions (id, client_id, reference_code, request_hash, amount_kobo,
        fee_bearer, customer, merchant_name, settlement_account_id, settlement_account_number,
        redirect_url, webhook_url, custom_icon_url, metadata, origin, status, expires_at,
        created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12, $13, $14::jsonb, $15, $16,
             $17, $18, $19)
     ON CONFLICT (client_id, reference_code, request_hash) DO NOTHING RETURNING id`,
    [
      session.id,
      session.clientId,
      session.referenceCode,
      session.requestHash,
      session.amountKobo,
      session.feeBearer,
      JSON.stringify(session.customer),
      session.merchantName,
      session.settlementAccountId,
      session.settlementAccountNumber,
      session.redirectUrl,
      session.webhookUrl,
      session.customIconUrl,
      session.metadata === null ? null : JSON.stringify(session.metadata),
      session.origin,
      session.status,
      session.expiresAt,
      session.createdAt,
      session.updatedAt,
    ],
  );
  return rows.length === 1;
}

export async function findSession(db: Queryable, id: string): Promise<CheckoutSession | undefined> {
  const rows = await db.query<SessionRow>(`${SELECT} WHERE id = $1`, [id]);
  return rows[0] === undefined ? undefined : toSession(rows[0]);
}

/** Every session opened for the client's referenceCode (one per distinct config), oldest first. */
export async function findByReferenceCode(
  db: Queryable,
  clientId: string,
  referenceCode: string,
): Promise<CheckoutSession[]> {
  const rows = await db.query<SessionRow>(
    `${SELECT} WHERE client_id = $1 AND reference_code = $2 ORDER BY created_at, id`,
    [clientId, referenceCode],
  );
  return rows.map(toSession);
}

/**
 * A page of the client's sessions, newest first. `status` as a reader sees it: Expired is a
 * Pending session past its expiry at `now` (statusAt).
 */
export async function listSessions(
  db: Queryable,
  filter: {
    clientId: string;
    status?: CheckoutStatus;
    now: Date;
    offset: number;
    limit: number;
  },
): Promise<{ sessions: CheckoutSession[]; total: number }> {
  const where = `client_id = $1
      AND ($3::text IS NULL OR (CASE WHEN status = 'Pending' AND expires_at <= $2 THEN 'Expired'
                                     ELSE status END) = $3)`;
  const params = [filter.clientId, filter.now, filter.status ?? null];
  const [rows, counts] = await Promise.all([
    db.query<SessionRow>(
      `${SELECT} WHERE ${where} ORDER BY created_at DESC, id DESC OFFSET $4 LIMIT $5`,
      [...params, filter.offset, filter.limit],
    ),
    db.query<{ total: bigint }>(
      `SELECT count(*) AS total FROM checkout_sessions WHERE ${where}`,
      params,
    ),
  ]);
  return { sessions: rows.map(toSession), total: Number(counts[0]?.total ?? 0n) };
}

/**
 * Records the method the customer opened (the latest of its kind replaces the earlier), and
 * answers whether the session was still Pending. It is recorded even when it was not (paid
 * since it was looked at): a payment into it then finds the session, which refuses it.
 */
export async function recordMethod(
  db: Queryable,
  change: {
    id: string;
    virtualAccountId?: string;
    ussdReference?: { reference: string; id: string };
    now: Date;
  },
): Promise<boolean> {
  const rows = await db.query<{ status: string }>(
    `UPDATE checkout_sessions
        SET virtual_account_id = coalesce($2, virtual_account_id),
            ussd_reference = coalesce($3, ussd_reference),
            ussd_reference_id = coalesce($4, ussd_reference_id),
            updated_at = CASE WHEN status = 'Pending' THEN $5 ELSE updated_at END
      WHERE id = $1 RETURNING status`,
    [
      change.id,
      change.virtualAccountId ?? null,
      change.ussdReference?.reference ?? null,
      change.ussdReference?.id ?? null,
      change.now,
    ],
  );
  return rows[0]?.status === 'Pending';
}

/**
 * The sessions that opened these methods (virtual account ids, USSD reference ids), whatever
 * their status: what a payment to any of them completes, or is refused by.
 */
export async function findByMethods(
  db: Queryable,
  methodIds: readonly string[],
): Promise<CheckoutSession[]> {
  const rows = await db.query<SessionRow>(
    `${SELECT} WHERE virtual_account_id = ANY($1::text[]) OR ussd_reference_id = ANY($1::text[])`,
    [methodIds],
  );
  return rows.map(toSession);
}
