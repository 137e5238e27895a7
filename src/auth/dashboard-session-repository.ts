import type { Queryable } from '../db/db.ts';
import type { OperatorRole } from './operator-roles.ts';

export interface DashboardSessionRecord {
  /** The label shown and audited: the operator's email, or a break-glass sign-in's name. */
  readonly operator: string;
  /** The signed-in operator; null for a break-glass sign-in with the admin token. */
  readonly operatorId: string | null;
  readonly roles: readonly OperatorRole[];
  readonly expiresAt: Date;
}

export async function insertDashboardSession(
  db: Queryable,
  session: {
    tokenHash: string;
    operator: string;
    operatorId: string | null;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO dashboard_sessions (token_hash, operator, operator_id, created_at, expires_at,
                                     last_seen_at)
     VALUES ($1, $2, $3, $4, $5, $4)`,
    [session.tokenHash, session.operator, session.operatorId, session.createdAt, session.expiresAt],
  );
}

/**
 * The session if it is live: not ended, not past its absolute expiry, used within the idle
 * timeout, and its operator (if any) still active, so disabling an operator ends their sessions
 * at the next request on every process. Marks it seen (at most every 30 s) in the same
 * statement: the idle timeout counts from there.
 */
export async function findLiveDashboardSession(
  db: Queryable,
  tokenHash: string,
  now: Date,
  idleSeconds: number,
): Promise<DashboardSessionRecord | undefined> {
  const rows = await db.query<{
    operator: string;
    operator_id: string | null;
    roles: OperatorRole[] | null;
    expires_at: Date;
  }>(
    `WITH live AS (
       SELECT s.token_hash, s.operator, s.operator_id, o.roles, s.expires_at, s.last_seen_at
         FROM dashboard_sessions s LEFT JOIN operators o ON o.id = s.operator_id
        WHERE s.token_hash = $1 AND s.ended_at IS NULL AND s.expires_at > $2
          AND coalesce(s.last_seen_at, s.created_at) > $2 - make_interval(secs => $3)
          AND (s.operator_id IS NULL OR o.status = 'active')),
     seen AS (
       UPDATE dashboard_sessions SET last_seen_at = $2
        WHERE token_hash = (SELECT token_hash FROM live)
          AND (last_seen_at IS NULL OR last_seen_at < $2 - interval '30 seconds'))
     SELECT operator, operator_id, roles, expires_at FROM live`,
    [tokenHash, now, idleSeconds],
  );
  const row = rows[0];
  return row === undefined
    ? undefined
    : {
        operator: row.operator,
        operatorId: row.operator_id,
        roles: row.roles ?? [],
        expiresAt: row.expires_at,
      };
}

/** Ends every live session of one operator (sign-out everywhere); answers how many. */
export async function endOperatorDashboardSessions(
  db: Queryable,
  operatorId: string,
  now: Date,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH ended AS (UPDATE dashboard_sessions SET ended_at = $2
       WHERE operator_id = $1 AND ended_at IS NULL AND expires_at > $2 RETURNING 1)
     SELECT count(*)::int AS n FROM ended`,
    [operatorId, now],
  );
  return rows[0]?.n ?? 0;
}

export async function endDashboardSession(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<void> {
  await db.query(
    'UPDATE dashboard_sessions SET ended_at = $2 WHERE token_hash = $1 AND ended_at IS NULL',
    [tokenHash, now],
  );
}

/** Ends every live session; answers how many there were. */
export async function endAllDashboardSessions(db: Queryable, now: Date): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH ended AS (UPDATE dashboard_sessions SET ended_at = $1
       WHERE ended_at IS NULL AND expires_at > $1 RETURNING 1)
     SELECT count(*)::int AS n FROM ended`,
    [now],
  );
  return rows[0]?.n ?? 0;
}

/** Deletes up to `limit` sessions that expired before `before` (ended ones expire too). */
export async function purgeExpiredDashboardSessions(
  db: Queryable,
  before: Date,
  limit: number,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM dashboard_sessions WHERE token_hash IN (
       SELECT token_hash FROM dashboard_sessions WHERE expires_at < $1 ORDER BY expires_at LIMIT $2)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before, limit],
  );
  return rows[0]?.n ?? 0;
}
