import { claimDue, type DueRows } from '../../db/claim-due.ts';
import type { Queryable } from '../../db/db.ts';
import type { Kobo } from '../../shared/money.ts';
import type { DueClaim } from '../../shared/poll-loop.ts';
import type { Transfer, TransferDirection, TransferStatus } from './transfer.ts';
import type { TransferRowJson } from './transfer-batch.ts';

/** What a stored transfer carries beyond its published fields. */
export interface TransferRecord extends Transfer {
  readonly requestHash: string | null;
  readonly holdId: string | null;
  readonly statusQueries: number;
  /** The request asked to save the beneficiary once the transfer succeeds. */
  readonly saveBeneficiary: boolean;
  /**
   * The daily limit key an Outwards transfer counted under (its account's, as it was placed):
   * a failure gives the amount back under the same key. Null on Inwards rows and on rows placed
   * before daily limits counted per identity (those counted under their account id).
   */
  readonly dailyLimitKey: string | null;
}

export interface NewTransferExtras {
  readonly requestHash?: string | null;
  readonly holdId?: string | null;
  readonly nextStatusQueryAt?: Date | null;
  readonly saveBeneficiary?: boolean;
  readonly dailyLimitKey?: string | null;
}

const TRANSFER_COLUMNS = `id, client_id, account_id, type, session_id, name_enquiry_reference,
    payment_reference, provider, provider_channel, provider_channel_code,
    destination_institution_code, credit_account_name, credit_account_number,
    credit_bank_code, credit_kyc_level, debit_account_name, debit_account_number,
    debit_bank_code, debit_kyc_level, transaction_location, narration, amount_kobo,
    fee_kobo, vat_kobo, stamp_duty_kobo, response_code, response_message, status,
    is_reversed, reversal_reference, created_at, updated_at, approved_at, declined_at,
    request_hash, hold_id, next_status_query_at, save_beneficiary, daily_limit_key`;
/** Column types, for rows that a SELECT supplies (it cannot take them from the table). */
const COLUMN_TYPES = [
  ...Array<string>(21).fill('text'),
  ...Array<string>(4).fill('bigint'),
  'text',
  'text',
  'text',
  'boolean',
  'text',
  ...Array<string>(4).fill('timestamptz'),
  'text',
  'text',
  'timestamptz',
  'boolean',
  'text',
];

/** `($1, ..., $39)` for the row at `index` of a statement, typed when `typed`. */
function placeholders(index: number, typed = false): string {
  const first = index * COLUMN_TYPES.length;
  const values = COLUMN_TYPES.map(
    (type, column) => `$${first + column + 1}${typed ? `::${type}` : ''}`,
  );
  return `(${values.join(', ')})`;
}

function transferValues(transfer: Transfer, extras: NewTransferExtras) {
  return [
    transfer.id,
    transfer.clientId,
    transfer.accountId,
    transfer.type,
    transfer.sessionId,
    transfer.nameEnquiryReference,
    transfer.paymentReference,
    transfer.provider,
    transfer.providerChannel,
    transfer.providerChannelCode,
    transfer.destinationInstitutionCode,
    transfer.credit.accountName,
    transfer.credit.accountNumber,
    transfer.credit.bankCode,
    transfer.credit.kycLevel,
    transfer.debit.accountName,
    transfer.debit.accountNumber,
    transfer.debit.bankCode,
    transfer.debit.kycLevel,
    transfer.transactionLocation,
    transfer.narration,
    transfer.amountKobo,
    transfer.feeKobo,
    transfer.vatKobo,
    transfer.stampDutyKobo,
    transfer.responseCode,
    transfer.responseMessage,
    transfer.status,
    transfer.isReversed,
    transfer.reversalReference,
    transfer.createdAt,
    transfer.updatedAt,
    transfer.approvedAt,
    transfer.declinedAt,
    extras.requestHash ?? null,
    extras.holdId ?? null,
    extras.nextStatusQueryAt ?? null,
    extras.saveBeneficiary ?? false,
    extras.dailyLimitKey ?? null,
  ];
}

/**
 * A new transfer as a row of the `transfers` table in JSON (bigints as text, times in ISO 8601),
 * for the batch functions, which insert it with jsonb_populate_record (TransferRowSchema in
 * transfer-batch.ts names the columns; a test holds them to the table's).
 */
export function transferRowJson(
  transfer: Transfer,
  extras: NewTransferExtras = {},
): TransferRowJson {
  const iso = (at: Date | null) => at?.toISOString() ?? null;
  return {
    id: transfer.id,
    client_id: transfer.clientId,
    account_id: transfer.accountId,
    type: transfer.type,
    session_id: transfer.sessionId,
    name_enquiry_reference: transfer.nameEnquiryReference,
    payment_reference: transfer.paymentReference,
    provider: transfer.provider,
    provider_channel: transfer.providerChannel,
    provider_channel_code: transfer.providerChannelCode,
    destination_institution_code: transfer.destinationInstitutionCode,
    credit_account_name: transfer.credit.accountName,
    credit_account_number: transfer.credit.accountNumber,
    credit_bank_code: transfer.credit.bankCode,
    credit_kyc_level: transfer.credit.kycLevel,
    debit_account_name: transfer.debit.accountName,
    debit_account_number: transfer.debit.accountNumber,
    debit_bank_code: transfer.debit.bankCode,
    debit_kyc_level: transfer.debit.kycLevel,
    transaction_location: transfer.transactionLocation,
    narration: transfer.narration,
    amount_kobo: transfer.amountKobo.toString(),
    fee_kobo: transfer.feeKobo.toString(),
    vat_kobo: transfer.vatKobo.toString(),
    stamp_duty_kobo: transfer.stampDutyKobo.toString(),
    response_code: transfer.responseCode,
    response_message: transfer.responseMessage,
    status: transfer.status,
    is_reversed: transfer.isReversed,
    reversal_reference: transfer.reversalReference,
    created_at: transfer.createdAt.toISOString(),
    updated_at: transfer.updatedAt.toISOString(),
    approved_at: iso(transfer.approvedAt),
    declined_at: iso(transfer.declinedAt),
    request_hash: extras.requestHash ?? null,
    hold_id: extras.holdId ?? null,
    status_queries: 0,
    next_status_query_at: iso(extras.nextStatusQueryAt ?? null),
    save_beneficiary: extras.saveBeneficiary ?? false,
    daily_limit_key: extras.dailyLimitKey ?? null,
  };
}

/**
 * An intra-bank transfer and its recipient's Inwards twin in one statement: the twin is written
 * only when the transfer is (false, and nothing written, when the transfer's reference is taken).
 */
export async function insertTransferWithTwin(
  db: Queryable,
  outward: Transfer,
  extras: NewTransferExtras,
  inward: Transfer,
): Promise<boolean> {
  const rows = await db.query(
    `WITH outward AS (
       INSERT INTO transfers (${TRANSFER_COLUMNS}) VALUES ${placeholders(0)}
       ON CONFLICT DO NOTHING RETURNING id)
     INSERT INTO transfers (${TRANSFER_COLUMNS})
     SELECT * FROM (VALUES ${placeholders(1, true)}) AS twin
      WHERE EXISTS (SELECT 1 FROM outward)
     RETURNING id`,
    [...transferValues(outward, extras), ...transferValues(inward, {})],
  );
  return rows.length === 1;
}

interface TransferRow {
  id: string;
  client_id: string;
  account_id: string;
  type: TransferDirection;
  session_id: string;
  name_enquiry_reference: string | null;
  payment_reference: string;
  provider: string;
  provider_channel: string;
  provider_channel_code: string;
  destination_institution_code: string;
  credit_account_name: string;
  credit_account_number: string;
  credit_bank_code: string;
  credit_kyc_level: string | null;
  debit_account_name: string;
  debit_account_number: string;
  debit_bank_code: string;
  debit_kyc_level: string | null;
  transaction_location: string;
  narration: string;
  amount_kobo: bigint;
  fee_kobo: bigint;
  vat_kobo: bigint;
  stamp_duty_kobo: bigint;
  response_code: string | null;
  response_message: string | null;
  status: TransferStatus;
  is_reversed: boolean;
  reversal_reference: string | null;
  created_at: Date;
  updated_at: Date;
  approved_at: Date | null;
  declined_at: Date | null;
  request_hash: string | null;
  hold_id: string | null;
  status_queries: number;
  save_beneficiary: boolean;
  daily_limit_key: string | null;
}

export function toTransferRecord(row: TransferRow): TransferRecord {
  return {
    id: row.id,
    clientId: row.client_id,
    accountId: row.account_id,
    type: row.type,
    sessionId: row.session_id,
    nameEnquiryReference: row.name_enquiry_reference,
    paymentReference: row.payment_reference,
    provider: row.provider,
    providerChannel: row.provider_channel,
    providerChannelCode: row.provider_channel_code,
    destinationInstitutionCode: row.destination_institution_code,
    credit: {
      accountName: row.credit_account_name,
      accountNumber: row.credit_account_number,
      bankCode: row.credit_bank_code,
      kycLevel: row.credit_kyc_level,
    },
    debit: {
      accountName: row.debit_account_name,
      accountNumber: row.debit_account_number,
      bankCode: row.debit_bank_code,
      kycLevel: row.debit_kyc_level,
    },
    transactionLocation: row.transaction_location,
    narration: row.narration,
    amountKobo: row.amount_kobo,
    feeKobo: row.fee_kobo,
    vatKobo: row.vat_kobo,
    stampDutyKobo: row.stamp_duty_kobo,
    responseCode: row.response_code,
    responseMessage: row.response_message,
    status: row.status,
    isReversed: row.is_reversed,
    reversalReference: row.reversal_reference,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    approvedAt: row.approved_at,
    declinedAt: row.declined_at,
    requestHash: row.request_hash,
    holdId: row.hold_id,
    statusQueries: row.status_queries,
    saveBeneficiary: row.save_beneficiary,
    dailyLimitKey: row.daily_limit_key,
  };
}

export const SELECT_TRANSFER = 'SELECT * FROM transfers';

export async function findTransferById(
  db: Queryable,
  transferId: string,
  options: { forUpdate?: boolean } = {},
): Promise<TransferRecord | undefined> {
  const rows = await db.query<TransferRow>(
    `${SELECT_TRANSFER} WHERE id = $1${options.forUpdate === true ? ' FOR UPDATE' : ''}`,
    [transferId],
  );
  return rows[0] === undefined ? undefined : toTransferRecord(rows[0]);
}

/** Transfers by id, in the order asked for (missing ones left out). */
export async function findTransfersByIds(
  db: Queryable,
  ids: readonly string[],
): Promise<TransferRecord[]> {
  const rows = await db.query<TransferRow>(`${SELECT_TRANSFER} WHERE id = ANY($1)`, [ids]);
  const byId = new Map(rows.map((row) => [row.id, toTransferRecord(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The credit another bank sent under this session id, if it arrived. */
export async function findInwardBySession(
  db: Queryable,
  sessionId: string,
): Promise<TransferRecord | undefined> {
  const rows = await db.query<TransferRow>(
    `${SELECT_TRANSFER} WHERE session_id = $1 AND type = 'Inwards'`,
    [sessionId],
  );
  return rows[0] === undefined ? undefined : toTransferRecord(rows[0]);
}

/** A client's transfer by session id or payment reference; their Outwards side first. */
export async function findClientTransfer(
  db: Queryable,
  clientId: string,
  key: { sessionId?: string; paymentReference?: string },
): Promise<TransferRecord | undefined> {
  const rows = await db.query<TransferRow>(
    `${SELECT_TRANSFER} WHERE client_id = $1
        AND ($2::text IS NULL OR session_id = $2) AND ($3::text IS NULL OR payment_reference = $3)
      ORDER BY (type = 'Outwards') DESC LIMIT 1`,
    [clientId, key.sessionId ?? null, key.paymentReference ?? null],
  );
  return rows[0] === undefined ? undefined : toTransferRecord(rows[0]);
}

/**
 * A client's transfer by id, with when its next status query is due, and the ids of every
 * transfer of its session (an intra-bank transfer and its recipient's twin share one).
 */
export async function findClientTransferById(
  db: Queryable,
  clientId: string,
  transferId: string,
): Promise<
  | { transfer: TransferRecord; nextStatusQueryAt: Date | null; sessionTransferIds: string[] }
  | undefined
> {
  const rows = await db.query<
    TransferRow & { next_status_query_at: Date | null; session_transfer_ids: string[] }
  >(
    `SELECT t.*, ARRAY(SELECT s.id FROM transfers s WHERE s.session_id = t.session_id
                        ORDER BY s.id) AS session_transfer_ids
       FROM transfers t WHERE t.id = $1 AND t.client_id = $2`,
    [transferId, clientId],
  );
  const row = rows[0];
  return row === undefined
    ? undefined
    : {
        transfer: toTransferRecord(row),
        nextStatusQueryAt: row.next_status_query_at,
        sessionTransferIds: row.session_transfer_ids,
      };
}

export interface TransferFilter {
  readonly clientId: string;
  readonly accountId?: string;
  readonly type?: TransferDirection;
  readonly status?: TransferStatus;
  readonly from?: Date;
  readonly to?: Date;
  readonly offset: number;
  readonly limit: number;
}

export async function listTransfers(db: Queryable, filter: TransferFilter) {
  const where = `client_id = $1 AND ($2::text IS NULL OR account_id = $2)
      AND ($3::text IS NULL OR type = $3) AND ($4::text IS NULL OR status = $4)
      AND ($5::timestamptz IS NULL OR created_at >= $5)
      AND ($6::timestamptz IS NULL OR created_at <= $6)`;
  const params = [
    filter.clientId,
    filter.accountId ?? null,
    filter.type ?? null,
    filter.status ?? null,
    filter.from ?? null,
    filter.to ?? null,
  ];
  const [rows, counts] = await Promise.all([
    db.query<TransferRow>(
      `${SELECT_TRANSFER} WHERE ${where} ORDER BY created_at DESC, id DESC OFFSET $7 LIMIT $8`,
      [...params, filter.offset, filter.limit],
    ),
    db.query<{ total: bigint }>(`SELECT count(*) AS total FROM transfers WHERE ${where}`, params),
  ]);
  return { transfers: rows.map(toTransferRecord), total: Number(counts[0]?.total ?? 0n) };
}

/**
 * Adds an outbound transfer to its daily limit key's total for the day it was made in Lagos
 * (transfer_limit_day), and answers the day's new total. The key's row is shared
 * by every account of one verified identity, so it is written only under the key's batch lock
 * (ledger_lock_batch): taken here in the same statement, it costs nothing when
 * the batch that credited the account took it already in its global order (sweepLockIds), as it
 * does unless the account's sweep settings changed in between.
 */
export async function addToDailyOutbound(
  db: Queryable,
  entry: { limitKey: string; madeAt: Date; amountKobo: Kobo },
): Promise<Kobo> {
  const rows = await db.query<{ total_kobo: bigint }>(
    `INSERT INTO daily_outbound_totals AS d (limit_key, day, total_kobo)
     SELECT $1, transfer_limit_day($2::timestamptz), $3::bigint
       FROM ledger_lock_batch(ARRAY[$1::text])
     ON CONFLICT (limit_key, day) DO UPDATE SET total_kobo = d.total_kobo + EXCLUDED.total_kobo
     RETURNING total_kobo`,
    [entry.limitKey, entry.madeAt, entry.amountKobo],
  );
  return rows[0]?.total_kobo ?? 0n;
}

/** Processing transfers wait for a status query; each claim counts as one. */
const DUE_STATUS_QUERIES: DueRows = {
  table: 'transfers',
  dueColumn: 'next_status_query_at',
  waiting: `status = 'Processing'`,
  countIn: 'status_queries',
};

/**
 * Claims Processing transfers due for a status query: the count goes up and the next query is
 * pushed out by claimSeconds, so other workers skip them while this one asks the rail.
 */
export async function claimDueStatusQueries(
  db: Queryable,
  claim: DueClaim,
): Promise<TransferRecord[]> {
  const rows = await claimDue<TransferRow>(db, DUE_STATUS_QUERIES, claim);
  return rows.map(toTransferRecord);
}

/**
 * NIP transfers still Processing, each waiting for a status query to settle it (for /metrics):
 * counted from the partial index the status-query worker claims through
 * (transfers_status_query_idx).
 */
export async function countProcessingTransfers(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM transfers WHERE status = 'Processing'`,
  );
  return rows[0]?.n ?? 0;
}
