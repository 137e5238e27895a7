import type { Queryable } from '../db/db.ts';
import type { AssertionAlgorithm } from './public-keys.ts';

export interface OAuthAppRecord {
  readonly id: string;
  readonly clientId: string;
  readonly oauthClientId: string;
  readonly name: string;
  readonly createdAt: Date;
}

export interface AppKeyRecord {
  readonly id: string;
  readonly publicKeyPem: string;
  readonly algorithm: AssertionAlgorithm;
}

interface AppRow {
  id: string;
  client_id: string;
  oauth_client_id: string;
  name: string;
  created_at: Date;
}

function toApp(row: AppRow): OAuthAppRecord {
  return {
    id: row.id,
    clientId: row.client_id,
    oauthClientId: row.oauth_client_id,
    name: row.name,
    createdAt: row.created_at,
  };
}

export async function insertApp(db: Queryable, app: OAuthAppRecord): Promise<void> {
  await db.query(
    `INSERT INTO oauth_apps (id, client_id, oauth_client_id, name, created_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [app.id, app.clientId, app.oauthClientId, app.name, app.createdAt],
  );
}

export async function insertAppKey(
  db: Queryable,
  key: AppKeyRecord & { appId: string; createdAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO oauth_app_keys (id, app_id, public_key_pem, algorithm, created_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [key.id, key.appId, key.publicKeyPem, key.algorithm, key.createdAt],
  );
}

const SELECT_ACTIVE_APP = `SELECT id, client_id, oauth_client_id, name, created_at FROM oauth_apps
  WHERE revoked_at IS NULL`;

export async function findActiveAppByOAuthClientId(
  db: Queryable,
  oauthClientId: string,
): Promise<OAuthAppRecord | undefined> {
  const rows = await db.query<AppRow>(`${SELECT_ACTIVE_APP} AND oauth_client_id = $1`, [
    oauthClientId,
  ]);
  return rows[0] === undefined ? undefined : toApp(rows[0]);
}

export async function listActiveAppKeys(db: Queryable, appId: string): Promise<AppKeyRecord[]> {
  const rows = await db.query<{
    id: string;
    public_key_pem: string;
    algorithm: AssertionAlgorithm;
  }>(
    `SELECT id, public_key_pem, algorithm FROM oauth_app_keys
      WHERE app_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC`,
    [appId],
  );
  return rows.map((row) => ({
    id: row.id,
    publicKeyPem: row.public_key_pem,
    algorithm: row.algorithm,
  }));
}

/** Strict mode: records an assertion id; false when it was already used. */
export async function rememberAssertionId(
  db: Queryable,
  entry: { appId: string; jti: string; expiresAt: Date },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO used_assertion_ids (app_id, jti, expires_at) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING RETURNING jti`,
    [entry.appId, entry.jti, entry.expiresAt],
  );
  return rows.length === 1;
}

/** Retention: deletes up to `limit` remembered assertion ids that expired before `before`. */
export async function purgeExpiredAssertionIds(
  db: Queryable,
  before: Date,
  limit: number,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM used_assertion_ids WHERE (app_id, jti) IN (
       SELECT app_id, jti FROM used_assertion_ids WHERE expires_at < $1
        ORDER BY expires_at LIMIT $2)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before, limit],
  );
  return rows[0]?.n ?? 0;
}
