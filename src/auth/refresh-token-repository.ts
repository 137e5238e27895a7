import type { Queryable } from '../db/db.ts';

export interface RefreshTokenRecord {
  readonly id: string;
  readonly familyId: string;
  readonly appId: string;
  readonly expiresAt: Date;
  readonly usedAt: Date | null;
  readonly revokedAt: Date | null;
}

export async function insertRefreshToken(
  db: Queryable,
  token: {
    id: string;
    tokenHash: string;
    familyId: string;
    appId: string;
    issuedAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO refresh_tokens (id, token_hash, family_id, app_id, issued_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [token.id, token.tokenHash, token.familyId, token.appId, token.issuedAt, token.expiresAt],
  );
}

/**
 * Marks a live token used in one statement, so two concurrent refreshes cannot both win.
 * Returns undefined when the token is unknown, used, revoked or expired.
 */
export async function consumeRefreshToken(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<RefreshTokenRecord | undefined> {
  const rows = await db.query<RefreshTokenRow>(
    `UPDATE refresh_tokens SET used_at = $2
      WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2
      RETURNING id, family_id, app_id, expires_at, used_at, revoked_at`,
    [tokenHash, now],
  );
  return rows[0] === undefined ? undefined : toRecord(rows[0]);
}

export async function findRefreshToken(
  db: Queryable,
  tokenHash: string,
): Promise<RefreshTokenRecord | undefined> {
  const rows = await db.query<RefreshTokenRow>(
    `SELECT id, family_id, app_id, expires_at, used_at, revoked_at
       FROM refresh_tokens WHERE token_hash = $1`,
    [tokenHash],
  );
  return rows[0] === undefined ? undefined : toRecord(rows[0]);
}

export async function revokeFamily(db: Queryable, familyId: string, now: Date): Promise<void> {
  await db.query(
    'UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL',
    [familyId, now],
  );
}

interface RefreshTokenRow {
  id: string;
  family_id: string;
  app_id: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
}

function toRecord(row: RefreshTokenRow): RefreshTokenRecord {
  return {
    id: row.id,
    familyId: row.family_id,
    appId: row.app_id,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
    revokedAt: row.revoked_at,
  };
}

/** Retention: deletes up to `limit` refresh tokens that expired before `before`; how many. */
export async function purgeExpiredRefreshTokens(
  db: Queryable,
  before: Date,
  limit: number,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM refresh_tokens WHERE id IN (
       SELECT id FROM refresh_tokens WHERE expires_at < $1 ORDER BY expires_at LIMIT $2)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before, limit],
  );
  return rows[0]?.n ?? 0;
}

/** Revokes every live refresh token of one app, or of every app of a client. */
export async function revokeRefreshTokensOf(
  db: Queryable,
  owner: { readonly appId: string } | { readonly clientId: string },
  now: Date,
): Promise<void> {
  const apps =
    'appId' in owner
      ? { sql: 'app_id = $1', id: owner.appId }
      : { sql: 'app_id IN (SELECT id FROM oauth_apps WHERE client_id = $1)', id: owner.clientId };
  await db.query(
    `UPDATE refresh_tokens SET revoked_at = $2
      WHERE ${apps.sql} AND revoked_at IS NULL AND used_at IS NULL AND expires_at > $2`,
    [apps.id, now],
  );
}
