import type { Queryable } from '../db/db.ts';

/**
 * A client's access to the API: disabled (no token is issued, no token works) and the time
 * before which every token it holds is revoked. No row means enabled, nothing revoked.
 */
export async function setClientDisabled(
  db: Queryable,
  clientId: string,
  disabled: boolean,
  now: Date,
): Promise<void> {
  // Disabling also revokes every token issued so far, so enabling again revives none of them.
  await db.query(
    `INSERT INTO client_access AS c (client_id, disabled_at, tokens_revoked_at, updated_at)
     VALUES ($1, CASE WHEN $2 THEN $3::timestamptz END, CASE WHEN $2 THEN $3::timestamptz END, $3)
     ON CONFLICT (client_id) DO UPDATE SET
       disabled_at = CASE WHEN $2 THEN coalesce(c.disabled_at, $3) END,
       tokens_revoked_at = CASE WHEN $2 THEN $3 ELSE c.tokens_revoked_at END,
       updated_at = $3`,
    [clientId, disabled, now],
  );
}

export async function revokeClientTokens(db: Queryable, clientId: string, now: Date) {
  await db.query(
    `INSERT INTO client_access AS c (client_id, tokens_revoked_at, updated_at) VALUES ($1, $2, $2)
     ON CONFLICT (client_id) DO UPDATE SET tokens_revoked_at = $2, updated_at = $2`,
    [clientId, now],
  );
}

export async function findClientAccess(
  db: Queryable,
  clientId: string,
): Promise<{ disabledAt: Date | null; tokensRevokedAt: Date | null }> {
  const rows = await db.query<{ disabled_at: Date | null; tokens_revoked_at: Date | null }>(
    'SELECT disabled_at, tokens_revoked_at FROM client_access WHERE client_id = $1',
    [clientId],
  );
  return {
    disabledAt: rows[0]?.disabled_at ?? null,
    tokensRevokedAt: rows[0]?.tokens_revoked_at ?? null,
  };
}

/** Clients whose tokens were revoked after `since`: when, by client id. */
export async function listClientTokenRevocations(
  db: Queryable,
  since: Date,
): Promise<{ clientId: string; revokedAt: Date }[]> {
  const rows = await db.query<{ client_id: string; tokens_revoked_at: Date }>(
    'SELECT client_id, tokens_revoked_at FROM client_access WHERE tokens_revoked_at > $1',
    [since],
  );
  return rows.map((row) => ({ clientId: row.client_id, revokedAt: row.tokens_revoked_at }));
}
