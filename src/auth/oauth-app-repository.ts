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

// An app authenticates while it is not revoked and its client is not disabled.
const SELECT_ACTIVE_APP = `SELECT id, client_id, oauth_client_id, name, created_at FROM oauth_apps a
  WHERE revoked_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM client_access c
                     WHERE c.client_id = a.client_id AND c.disabled_at IS NOT NULL)`;

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

export interface AppWithKeys extends OAuthAppRecord {
  readonly revokedAt: Date | null;
  readonly keys: readonly {
    readonly id: string;
    readonly algorithm: AssertionAlgorithm;
    readonly createdAt: Date;
    readonly revokedAt: Date | null;
  }[];
}

/** A client's apps, revoked ones included, each with all its keys (operator view). */
export async function listAppsOfClient(db: Queryable, clientId: string): Promise<AppWithKeys[]> {
  const rows = await db.query<
    AppRow & {
      revoked_at: Date | null;
      keys: {
        id: string;
        algorithm: AssertionAlgorithm;
        created_at: string;
        revoked_at: string | null;
      }[];
    }
  >(
    `SELECT a.id, a.client_id, a.oauth_client_id, a.name, a.created_at, a.revoked_at,
            coalesce((SELECT jsonb_agg(jsonb_build_object('id', k.id, 'algorithm', k.algorithm,
                        'created_at', k.created_at, 'revoked_at', k.revoked_at) ORDER BY k.created_at)
                        FROM oauth_app_keys k WHERE k.app_id = a.id), '[]') AS keys
       FROM oauth_apps a WHERE a.client_id = $1 ORDER BY a.created_at`,
    [clientId],
  );
  return rows.map((row) => ({
    ...toApp(row),
    revokedAt: row.revoked_at,
    keys: row.keys.map((key) => ({
      id: key.id,
      algorithm: key.algorithm,
      createdAt: new Date(key.created_at),
      revokedAt: key.revoked_at === null ? null : new Date(key.revoked_at),
    })),
  }));
}

/** Revokes an app and every token it holds; false when it is unknown or already revoked. */
export async function revokeApp(db: Queryable, appId: string, now: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE oauth_apps SET revoked_at = $2, tokens_revoked_at = $2
      WHERE id = $1 AND revoked_at IS NULL RETURNING id`,
    [appId, now],
  );
  return rows.length === 1;
}

/** Every token the app was issued until now stops working (a key was revoked, say). */
export async function revokeAppTokens(db: Queryable, appId: string, now: Date): Promise<void> {
  await db.query('UPDATE oauth_apps SET tokens_revoked_at = $2 WHERE id = $1', [appId, now]);
}

/** Revokes one key of an app; false when the app has no such live key. */
export async function revokeAppKey(
  db: Queryable,
  appId: string,
  keyId: string,
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE oauth_app_keys SET revoked_at = $3
      WHERE id = $2 AND app_id = $1 AND revoked_at IS NULL RETURNING id`,
    [appId, keyId, now],
  );
  return rows.length === 1;
}

/** Apps whose tokens were revoked after `since`: when, by app id. */
export async function listAppTokenRevocations(
  db: Queryable,
  since: Date,
): Promise<{ appId: string; revokedAt: Date }[]> {
  const rows = await db.query<{ id: string; tokens_revoked_at: Date }>(
    'SELECT id, tokens_revoked_at FROM oauth_apps WHERE tokens_revoked_at > $1',
    [since],
  );
  return rows.map((row) => ({ appId: row.id, revokedAt: row.tokens_revoked_at }));
}

export async function findApp(
  db: Queryable,
  appId: string,
): Promise<(OAuthAppRecord & { revokedAt: Date | null }) | undefined> {
  const rows = await db.query<AppRow & { revoked_at: Date | null }>(
    `SELECT id, client_id, oauth_client_id, name, created_at, revoked_at FROM oauth_apps
      WHERE id = $1`,
    [appId],
  );
  return rows[0] === undefined ? undefined : { ...toApp(rows[0]), revokedAt: rows[0].revoked_at };
}
