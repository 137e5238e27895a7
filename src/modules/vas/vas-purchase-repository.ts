import { claimDue, type DueRows } from '../../db/claim-due.ts';
import type { Queryable } from '../../db/db.ts';
import type { DueClaim } from '../../shared/poll-loop.ts';
import type { VasService } from './providers/biller.ts';
import type { Channel, Purchase, PurchaseStatus } from './vas-purchase.ts';

interface PurchaseRow {
  id: string;
  client_id: string;
  account_id: string;
  debit_account_number: string;
  service: VasService;
  category_id: string;
  category_identifier: string;
  reference: string;
  status: PurchaseStatus;
  amount_kobo: bigint;
  commission_kobo: bigint;
  channel: Channel;
  beneficiary: string;
  bundle_code: string | null;
  vend_type: string | null;
  receiver_name: string | null;
  utility_token: string | null;
  failure_message: string | null;
  status_url: string | null;
  hold_id: string;
  daily_limit_key: string | null;
  request_hash: string;
  status_queries: number;
  next_status_query_at: Date | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

const date = (value: Date | null) => (value === null ? null : new Date(value));

function toPurchase(row: PurchaseRow): Purchase {
  return {
    id: row.id,
    clientId: row.client_id,
    accountId: row.account_id,
    debitAccountNumber: row.debit_account_number,
    service: row.service,
    categoryId: row.category_id,
    categoryIdentifier: row.category_identifier,
    reference: row.reference,
    status: row.status,
    amountKobo: BigInt(row.amount_kobo),
    commissionKobo: BigInt(row.commission_kobo),
    channel: row.channel,
    beneficiary: row.beneficiary,
    bundleCode: row.bundle_code,
    vendType: row.vend_type,
    receiverName: row.receiver_name,
    utilityToken: row.utility_token,
    failureMessage: row.failure_message,
    statusUrl: row.status_url,
    holdId: row.hold_id,
    dailyLimitKey: row.daily_limit_key,
    requestHash: row.request_hash,
    statusQueries: row.status_queries,
    nextStatusQueryAt: date(row.next_status_query_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    completedAt: date(row.completed_at),
  };
}

/** A new purchase as a `vas_purchases` row in JSON, for vas_place_one (jsonb_populate_record). */
export function purchaseRowJson(purchase: Purchase) {
  return {
    id: purchase.id,
    client_id: purchase.clientId,
    account_id: purchase.accountId,
    debit_account_number: purchase.debitAccountNumber,
    service: purchase.service,
    category_id: purchase.categoryId,
    category_identifier: purchase.categoryIdentifier,
    reference: purchase.reference,
    status: purchase.status,
    amount_kobo: purchase.amountKobo.toString(),
    commission_kobo: purchase.commissionKobo.toString(),
    channel: purchase.channel,
    beneficiary: purchase.beneficiary,
    bundle_code: purchase.bundleCode,
    vend_type: purchase.vendType,
    receiver_name: purchase.receiverName,
    utility_token: purchase.utilityToken,
    failure_message: purchase.failureMessage,
    status_url: purchase.statusUrl,
    hold_id: purchase.holdId,
    daily_limit_key: purchase.dailyLimitKey,
    request_hash: purchase.requestHash,
    status_queries: purchase.statusQueries,
    next_status_query_at: purchase.nextStatusQueryAt?.toISOString() ?? null,
    created_at: purchase.createdAt.toISOString(),
    updated_at: purchase.updatedAt.toISOString(),
    completed_at: purchase.completedAt?.toISOString() ?? null,
  };
}

export async function findPurchase(db: Queryable, id: string): Promise<Purchase | undefined> {
  const rows = await db.query<PurchaseRow>('SELECT * FROM vas_purchases WHERE id = $1', [id]);
  return rows[0] === undefined ? undefined : toPurchase(rows[0]);
}

export async function findClientPurchase(
  db: Queryable,
  clientId: string,
  id: string,
): Promise<Purchase | undefined> {
  const rows = await db.query<PurchaseRow>(
    'SELECT * FROM vas_purchases WHERE id = $1 AND client_id = $2',
    [id, clientId],
  );
  return rows[0] === undefined ? undefined : toPurchase(rows[0]);
}

export interface PurchaseFilter {
  readonly clientId: string;
  readonly service?: VasService;
  readonly status?: PurchaseStatus;
  readonly debitAccountNumber?: string;
  readonly from?: Date;
  readonly to?: Date;
  readonly offset: number;
  readonly limit: number;
}

/** A page of the client's purchases, newest first. */
export async function listPurchases(db: Queryable, filter: PurchaseFilter) {
  const where = `client_id = $1 AND ($2::text IS NULL OR service = $2)
      AND ($3::text IS NULL OR status = $3) AND ($4::text IS NULL OR debit_account_number = $4)
      AND ($5::timestamptz IS NULL OR created_at >= $5)
      AND ($6::timestamptz IS NULL OR created_at <= $6)`;
  const params = [
    filter.clientId,
    filter.service ?? null,
    filter.status ?? null,
    filter.debitAccountNumber ?? null,
    filter.from ?? null,
    filter.to ?? null,
  ];
  const [rows, counts] = await Promise.all([
    db.query<PurchaseRow>(
      `SELECT * FROM vas_purchases WHERE ${where}
        ORDER BY created_at DESC, id DESC OFFSET $7 LIMIT $8`,
      [...params, filter.offset, filter.limit],
    ),
    db.query<{ total: bigint }>(
      `SELECT count(*) AS total FROM vas_purchases WHERE ${where}`,
      params,
    ),
  ]);
  return { purchases: rows.map(toPurchase), total: Number(counts[0]?.total ?? 0n) };
}

const DUE_STATUS_QUERIES: DueRows = {
  table: 'vas_purchases',
  dueColumn: 'next_status_query_at',
  waiting: `status = 'pending'`,
};

/**
 * Claims pending purchases whose next status query is due: each is pushed `claimSeconds` into
 * the future so another worker skips it, and handed to this one.
 */
export async function claimDuePurchases(db: Queryable, claim: DueClaim): Promise<Purchase[]> {
  const rows = await claimDue<PurchaseRow>(db, DUE_STATUS_QUERIES, claim);
  return rows.map(toPurchase);
}

/**
 * Purchases the biller has not settled yet, each waiting for a status query (for /metrics):
 * counted from the partial index the status-query worker claims through (vas_purchases_due).
 */
export async function countPendingPurchases(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM vas_purchases WHERE status = 'pending'`,
  );
  return rows[0]?.n ?? 0;
}
