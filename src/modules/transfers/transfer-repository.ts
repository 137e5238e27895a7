import { claimDue, type DueRows } from '../../db/claim-due.ts';
import type { Queryable } from '../../db/db.ts';
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

/** Our Outwards transfer under this session id (the key a return notice names it by). */
export async function findOutwardBySession(
  db: Queryable,
  sessionId: string,
): Promise<TransferRecord | undefined> {
  const rows = await db.query<TransferRow>(
    `${SELECT_TRANSFER} WHERE session_id = $1 AND type = 'Outwards'`,
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

/**
 * A page of a client's transfers and how many match, in one statement (one round trip, one
 * connection). The count is its own scan (index-only where the filter allows), not
 * `count(*) OVER ()` on the page, which would fetch every matching row whole. The total joins
 * the page, so a page past the end is one row of NULL transfer columns that still says how
 * many there are.
 */
export async function listTransfers(db: Queryable, filter: TransferFilter) {
  const where = `client_id = $1 AND ($2::text IS NULL OR account_id = $2)
      AND ($3::text IS NULL OR type = $3) AND ($4::text IS NULL OR status = $4)
      AND ($5::timestamptz IS NULL OR created_at >= $5)
      AND ($6::timestamptz IS NULL OR created_at <= $6)`;
  const rows = await db.query<TransferRow & { matching: bigint }>(
    `WITH page AS (${SELECT_TRANSFER} WHERE ${where}
                    ORDER BY created_at DESC, id DESC OFFSET $7 LIMIT $8),
          total AS (SELECT count(*) AS matching FROM transfers WHERE ${where})
     SELECT total.matching, page.* FROM total LEFT JOIN page ON true
      ORDER BY page.created_at DESC, page.id DESC`,
    [
      filter.clientId,
      filter.accountId ?? null,
      filter.type ?? null,
      filter.status ?? null,
      filter.from ?? null,
      filter.to ?? null,
      filter.offset,
      filter.limit,
    ],
  );
  return {
    transfers: rows.filter((row) => row.id !== null).map(toTransferRecord),
    total: Number(rows[0]?.matching ?? 0n),
  };
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
 * Completed NIP transfers wait for one more status query after the return window
 * (transfer_settle_one set it), in case their return notice was lost; each claim counts as one.
 */
const DUE_RETURN_CHECKS: DueRows = {
  table: 'transfers',
  dueColumn: 'next_status_query_at',
  waiting: `status = 'Completed' AND next_status_query_at IS NOT NULL`,
  countIn: 'status_queries',
};

/**
 * Claims Completed NIP transfers due for their return check (transfers_return_check_idx), hidden
 * from other workers for claimSeconds as status queries are; a check that got no answer is due
 * again after it.
 */
export async function claimDueReturnChecks(
  db: Queryable,
  claim: DueClaim,
): Promise<TransferRecord[]> {
  const rows = await claimDue<TransferRow>(db, DUE_RETURN_CHECKS, claim);
  return rows.map(toTransferRecord);
}

/** The return check was answered (not returned): none is due any more. */
export async function endReturnCheck(db: Queryable, transferId: string): Promise<void> {
  await db.query(
    `UPDATE transfers SET next_status_query_at = NULL WHERE id = $1 AND status = 'Completed'`,
    [transferId],
  );
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
