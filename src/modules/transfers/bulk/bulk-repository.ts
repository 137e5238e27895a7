import { claimDue, type DueRows } from '../../../db/claim-due.ts';
import type { Queryable } from '../../../db/db.ts';
import type { DueClaim } from '../../../shared/poll-loop.ts';

/** A batch with its progress (counted from its items). */
export interface BulkBatchRecord {
  readonly id: string;
  readonly clientId: string;
  readonly allOrNothing: boolean;
  readonly status: 'Processing' | 'Completed';
  readonly total: number;
  readonly placed: number;
  readonly refused: number;
  readonly pending: number;
  readonly createdAt: Date;
  readonly completedAt: Date | null;
}

export interface BulkItemRecord {
  readonly batchId: string;
  readonly position: number;
  readonly paymentReference: string | null;
  /** The transfer request as checked at acceptance (amountKobo as text). */
  readonly request: StoredRequest | null;
  readonly status: 'Pending' | 'Placed' | 'Refused';
  readonly transferId: string | null;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  readonly holdId: string | null;
}

/** What bulk_items.request keeps of an accepted item. */
export interface StoredRequest {
  readonly nameEnquiryReference?: string;
  readonly debitAccountNumber: string;
  readonly beneficiaryBankCode: string;
  readonly beneficiaryAccountNumber: string;
  readonly amountKobo: string;
  readonly saveBeneficiary: boolean;
  readonly narration?: string;
  readonly paymentReference: string;
  /** Under allOrNothing, the account the item's hold is on. */
  readonly holdAccountId?: string;
}

interface BatchRow {
  id: string;
  client_id: string;
  all_or_nothing: boolean;
  status: 'Processing' | 'Completed';
  total: number;
  placed: number;
  refused: number;
  pending: number;
  created_at: Date;
  completed_at: Date | null;
}

interface ItemRow {
  batch_id: string;
  position: number;
  payment_reference: string | null;
  request: StoredRequest | null;
  status: 'Pending' | 'Placed' | 'Refused';
  transfer_id: string | null;
  error_code: string | null;
  error_message: string | null;
  hold_id: string | null;
}

const SELECT_BATCH = `SELECT b.id, b.client_id, b.all_or_nothing, b.status, b.total, b.created_at,
    b.completed_at, b.placed, b.refused, b.total - b.placed - b.refused AS pending
  FROM bulk_batches b`;

function toBatch(row: BatchRow): BulkBatchRecord {
  return {
    id: row.id,
    clientId: row.client_id,
    allOrNothing: row.all_or_nothing,
    status: row.status,
    total: row.total,
    placed: row.placed,
    refused: row.refused,
    pending: row.pending,
    createdAt: row.created_at,
    completedAt: row.completed_at,
  };
}

function toItem(row: ItemRow): BulkItemRecord {
  return {
    batchId: row.batch_id,
    position: row.position,
    paymentReference: row.payment_reference,
    request: row.request,
    status: row.status,
    transferId: row.transfer_id,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    holdId: row.hold_id,
  };
}

/** A client's batch by id; another client's is not found. */
export async function findBulkBatch(
  db: Queryable,
  clientId: string,
  id: string,
): Promise<BulkBatchRecord | undefined> {
  const rows = await db.query<BatchRow>(`${SELECT_BATCH} WHERE b.id = $1 AND b.client_id = $2`, [
    id,
    clientId,
  ]);
  return rows[0] === undefined ? undefined : toBatch(rows[0]);
}

/** A client's batches, newest first, a page of them, and how many there are. */
export async function listBulkBatches(
  db: Queryable,
  clientId: string,
  page: { page: number; limit: number },
): Promise<{ batches: BulkBatchRecord[]; total: number }> {
  const [rows, counted] = await Promise.all([
    db.query<BatchRow>(
      `${SELECT_BATCH} WHERE b.client_id = $1 ORDER BY b.created_at DESC, b.id DESC
        OFFSET $2 LIMIT $3`,
      [clientId, page.page * page.limit, page.limit],
    ),
    db.query<{ total: number }>(
      'SELECT count(*)::int AS total FROM bulk_batches WHERE client_id = $1',
      [clientId],
    ),
  ]);
  return { batches: rows.map(toBatch), total: counted[0]?.total ?? 0 };
}

/** A batch's items in their order. */
export async function findBulkItems(db: Queryable, batchId: string): Promise<BulkItemRecord[]> {
  const rows = await db.query<ItemRow>(
    'SELECT * FROM bulk_items WHERE batch_id = $1 ORDER BY position',
    [batchId],
  );
  return rows.map(toItem);
}

/**
 * Up to `limit` of a batch's items still pending after position `after`, in their order. The
 * worker reads a batch page by page, each after the last: a read from the start would walk
 * every item ended before (their rows and index entries) at every page.
 */
export async function findPendingItems(
  db: Queryable,
  batchId: string,
  page: { after: number; limit: number },
): Promise<BulkItemRecord[]> {
  const rows = await db.query<ItemRow>(
    `SELECT * FROM bulk_items WHERE batch_id = $1 AND position > $2 AND status = 'Pending'
      ORDER BY position LIMIT $3`,
    [batchId, page.after, page.limit],
  );
  return rows.map(toItem);
}

/**
 * Of these paymentReferences, those the client used already: by a transfer it sent, or by an
 * item of a batch that is not refused.
 */
export async function findUsedReferences(
  db: Queryable,
  clientId: string,
  references: readonly string[],
): Promise<Set<string>> {
  if (references.length === 0) {
    return new Set();
  }
  // One index probe per reference (LATERAL ... LIMIT 1 keeps it a nested loop): `= ANY ($2)`
  // let the planner walk every transfer and item of the client and filter them, a read that
  // grew with the client's history (docs/benchmarks.md, row (h)).
  const rows = await db.query<{ reference: string }>(
    `SELECT r.reference FROM unnest($2::text[]) AS r (reference)
       CROSS JOIN LATERAL (SELECT FROM transfers t WHERE t.client_id = $1
           AND t.type = 'Outwards' AND t.payment_reference = r.reference LIMIT 1) AS t
     UNION
     SELECT r.reference FROM unnest($2::text[]) AS r (reference)
       CROSS JOIN LATERAL (SELECT FROM bulk_items i WHERE i.client_id = $1
           AND i.status <> 'Refused' AND i.payment_reference = r.reference LIMIT 1) AS i`,
    [clientId, references],
  );
  return new Set(rows.map((row) => row.reference));
}

/** Processing batches wait for the bulk worker; a claim hides one while it is worked on. */
const DUE_BATCHES: DueRows = {
  table: 'bulk_batches',
  dueColumn: 'next_attempt_at',
  waiting: `status = 'Processing'`,
  returning: 'id, client_id',
};

/** Claims up to `limit` Processing batches for this worker (db/claim-due.ts). */
export async function claimDueBulkBatches(
  db: Queryable,
  claim: DueClaim,
): Promise<{ id: string; clientId: string }[]> {
  const rows = await claimDue<{ id: string; client_id: string }>(db, DUE_BATCHES, claim);
  return rows.map((row) => ({ id: row.id, clientId: row.client_id }));
}

/**
 * What a chunk's transaction ended, counted on its batch, with the batch's claim renewed: under
 * the lock of the batch's row, which this update takes, so the counts are exact. Answers the
 * batch as it now stands.
 */
export async function countEnded(
  tx: Queryable,
  batchId: string,
  ended: { placed: number; refused: number; claimUntil: Date },
): Promise<{ status: string; ended: number; total: number }> {
  const rows = await tx.query<{ status: string; ended: number; total: number }>(
    `UPDATE bulk_batches SET placed = placed + $2, refused = refused + $3,
            next_attempt_at = CASE WHEN status = 'Processing' THEN $4::timestamptz END
      WHERE id = $1
      RETURNING status, placed + refused AS ended, total`,
    [batchId, ended.placed, ended.refused, ended.claimUntil],
  );
  const [row] = rows;
  if (row === undefined) {
    throw new Error(`bulk batch ${batchId} is missing`);
  }
  return row;
}

/**
 * Marks the batch Completed if every item ended, once: the update re-reads the row under its
 * lock (its counts are kept by the transactions that end items, countEnded), so of two
 * transactions only one completes it. Answers the batch when this call completed it.
 */
export async function completeIfDone(
  tx: Queryable,
  batchId: string,
  at: Date,
): Promise<BulkBatchRecord | undefined> {
  const rows = await tx.query<BatchRow>(
    `UPDATE bulk_batches b SET status = 'Completed', completed_at = $2, next_attempt_at = NULL
      WHERE id = $1 AND status = 'Processing' AND placed + refused = total
      RETURNING b.id, b.client_id, b.all_or_nothing, b.status, b.total, b.created_at,
        b.completed_at, b.placed, b.refused, 0 AS pending`,
    [batchId, at],
  );
  return rows[0] === undefined ? undefined : toBatch(rows[0]);
}
