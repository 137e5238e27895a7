import type { Queryable } from '../db/db.ts';

export interface DashboardSessionRecord {
  readonly operator: string;
  readonly expiresAt: Date;
}

export async function insertDashboardSession(
  db: Queryable,
  session: { tokenHash: string; operator: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO dashboard_sessions (token_hash, operator, created_at, expires_at)
     VALUES ($1, $2, $3, $4)`,
    [session.tokenHash, session.operator, session.createdAt, session.expiresAt],
  );
}

/** The session if it is live: not ended, not expired. One primary-key lookup. */
export async function findLiveDashboardSession(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<DashboardSessionRecord | undefined> {
  const rows = await db.query<{ operator: string; expires_at: Date }>(
    `SELECT operator, expires_at FROM dashboard_sessions
      WHERE token_hash = $1 AND ended_at IS NULL AND expires_at > $2`,
    [tokenHash, now],
  );
  const row = rows[0];
  return row === undefined ? undefined : { operator: row.operator, expiresAt: row.expires_at };
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
