import type { Queryable } from '../../db/db.ts';

/** The stored states; `expired` is a pending request past its expiry, read, never written. */
export type StoredApprovalStatus = 'pending' | 'approved' | 'rejected' | 'applied' | 'failed';

export interface ApprovalRecord {
  readonly id: string;
  readonly routeKey: string;
  readonly routeRole: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  readonly requestedByOperatorId: string | null;
  readonly requestedByActor: string;
  readonly requestedAt: Date;
  readonly expiresAt: Date;
  readonly status: StoredApprovalStatus;
  readonly decidedByOperatorId: string | null;
  readonly decidedByActor: string | null;
  readonly decidedAt: Date | null;
  readonly resultStatus: number | null;
  readonly resultAnswer: unknown;
}

export type NewApproval = Pick<
  ApprovalRecord,
  | 'id'
  | 'routeKey'
  | 'routeRole'
  | 'params'
  | 'query'
  | 'body'
  | 'requestedByOperatorId'
  | 'requestedByActor'
  | 'requestedAt'
  | 'expiresAt'
>;

/** Who decided, when, and (for an approval) the hash of the one-time execution secret. */
export interface Decision {
  readonly operatorId: string | null;
  readonly actor: string;
  readonly now: Date;
}

const COLUMNS = `id, route_key AS "routeKey", route_role AS "routeRole", params, query, body,
  requested_by_operator_id AS "requestedByOperatorId", requested_by_actor AS "requestedByActor",
  requested_at AS "requestedAt", expires_at AS "expiresAt", status,
  decided_by_operator_id AS "decidedByOperatorId", decided_by_actor AS "decidedByActor",
  decided_at AS "decidedAt", result_status AS "resultStatus", result_answer AS "resultAnswer"`;

export async function insertApproval(
  db: Queryable,
  approval: NewApproval,
): Promise<ApprovalRecord> {
  const rows = await db.query<ApprovalRecord>(
    `INSERT INTO approval_requests (id, route_key, route_role, params, query, body,
       requested_by_operator_id, requested_by_actor, requested_at, expires_at, status)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7, $8, $9, $10, 'pending')
     RETURNING ${COLUMNS}`,
    [
      approval.id,
      approval.routeKey,
      approval.routeRole,
      JSON.stringify(approval.params),
      JSON.stringify(approval.query),
      approval.body === undefined ? null : JSON.stringify(approval.body),
      approval.requestedByOperatorId,
      approval.requestedByActor,
      approval.requestedAt,
      approval.expiresAt,
    ],
  );
  return rows[0] as ApprovalRecord;
}

export async function findApproval(db: Queryable, id: string): Promise<ApprovalRecord | undefined> {
  const rows = await db.query<ApprovalRecord>(
    `SELECT ${COLUMNS} FROM approval_requests WHERE id = $1`,
    [id],
  );
  return rows[0];
}

/** `expired`: pending past its expiry; `pending`: pending and not yet expired. */
export type ApprovalFilter = StoredApprovalStatus | 'expired';

export async function listApprovals(
  db: Queryable,
  query: { status: ApprovalFilter | undefined; now: Date; limit: number; offset: number },
): Promise<{ rows: ApprovalRecord[]; total: number }> {
  const { where, params } = filterOf(query.status, query.now);
  const rows = await db.query<ApprovalRecord>(
    `SELECT ${COLUMNS} FROM approval_requests ${where}
      ORDER BY requested_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, query.limit, query.offset],
  );
  const [count] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM approval_requests ${where}`,
    params,
  );
  return { rows, total: count?.total ?? 0 };
}

function filterOf(status: ApprovalFilter | undefined, now: Date) {
  switch (status) {
    case undefined:
      return { where: '', params: [] };
    case 'pending':
      return { where: "WHERE status = 'pending' AND expires_at > $1", params: [now] };
    case 'expired':
      return { where: "WHERE status = 'pending' AND expires_at <= $1", params: [now] };
    default:
      return { where: 'WHERE status = $1', params: [status] };
  }
}

/**
 * The approval's one atomic step: a pending, unexpired request that someone other than its
 * requester decides on. Of two approvers at once, one gets the row; the other, nothing.
 */
export async function claimApproval(
  db: Queryable,
  id: string,
  by: Decision,
  executionSecretHash: string,
): Promise<ApprovalRecord | undefined> {
  const rows = await db.query<ApprovalRecord>(
    `UPDATE approval_requests
        SET status = 'approved', decided_by_operator_id = $2, decided_by_actor = $3,
            decided_at = $4, execution_secret_hash = $5
      WHERE id = $1 AND status = 'pending' AND expires_at > $4
        AND requested_by_operator_id IS DISTINCT FROM $2
      RETURNING ${COLUMNS}`,
    [id, by.operatorId, by.actor, by.now, executionSecretHash],
  );
  return rows[0];
}

/** A pending, unexpired request rejected (or cancelled by its requester). */
export async function rejectApproval(
  db: Queryable,
  id: string,
  by: Decision,
): Promise<ApprovalRecord | undefined> {
  const rows = await db.query<ApprovalRecord>(
    `UPDATE approval_requests
        SET status = 'rejected', decided_by_operator_id = $2, decided_by_actor = $3,
            decided_at = $4
      WHERE id = $1 AND status = 'pending' AND expires_at > $4
      RETURNING ${COLUMNS}`,
    [id, by.operatorId, by.actor, by.now],
  );
  return rows[0];
}

/**
 * Lets the approved request through once: the secret's hash is cleared as it is matched, so
 * the same secret, sent again from anywhere, opens nothing.
 */
export async function spendExecutionSecret(
  db: Queryable,
  execution: { id: string; routeKey: string; secretHash: string; operatorId: string | null },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE approval_requests SET execution_secret_hash = NULL
      WHERE id = $1 AND route_key = $2 AND status = 'approved'
        AND execution_secret_hash = $3 AND decided_by_operator_id = $4
      RETURNING id`,
    [execution.id, execution.routeKey, execution.secretHash, execution.operatorId],
  );
  return rows.length === 1;
}

/** What the approved request answered when it ran. */
export async function settleApproval(
  db: Queryable,
  id: string,
  outcome: { statusCode: number; answer: unknown },
): Promise<ApprovalRecord | undefined> {
  const rows = await db.query<ApprovalRecord>(
    `UPDATE approval_requests
        SET status = $2, result_status = $3, result_answer = $4::jsonb,
            execution_secret_hash = NULL
      WHERE id = $1 AND status = 'approved'
      RETURNING ${COLUMNS}`,
    [
      id,
      outcome.statusCode < 300 ? 'applied' : 'failed',
      outcome.statusCode,
      JSON.stringify(outcome.answer ?? null),
    ],
  );
  return rows[0];
}
