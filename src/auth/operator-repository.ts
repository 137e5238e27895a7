import type { Queryable } from '../db/db.ts';
import type { OperatorRole } from './operator-roles.ts';

export interface OperatorRecord {
  readonly id: string;
  readonly email: string;
  readonly displayName: string;
  readonly roles: readonly OperatorRole[];
  readonly status: 'active' | 'disabled';
  readonly hasPassword: boolean;
  readonly hasSecondFactor: boolean;
  readonly ssoIssuer: string | null;
  readonly createdAt: Date;
  readonly createdBy: string;
  readonly updatedAt: Date;
}

export interface OperatorApiKeyRecord {
  readonly id: string;
  readonly operatorId: string;
  readonly name: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
  readonly lastUsedAt: Date | null;
}

/** Who a live credential belongs to: the operator's id, address and roles. */
export interface CredentialOwner {
  readonly operatorId: string;
  readonly email: string;
  readonly roles: readonly OperatorRole[];
  readonly credentialId: string;
}

const OPERATOR_COLUMNS = `id, email, display_name AS "displayName", roles, status,
  password_hash IS NOT NULL AS "hasPassword", totp_secret IS NOT NULL AS "hasSecondFactor",
  sso_issuer AS "ssoIssuer", created_at AS "createdAt", created_by AS "createdBy",
  updated_at AS "updatedAt"`;

const KEY_COLUMNS = `id, operator_id AS "operatorId", name, created_at AS "createdAt",
  expires_at AS "expiresAt", revoked_at AS "revokedAt", last_used_at AS "lastUsedAt"`;

export async function insertOperator(
  db: Queryable,
  operator: {
    id: string;
    email: string;
    displayName: string;
    roles: readonly OperatorRole[];
    createdBy: string;
    now: Date;
  },
): Promise<OperatorRecord | undefined> {
  const rows = await db.query<OperatorRecord>(
    `INSERT INTO operators (id, email, display_name, roles, status, created_at, created_by,
                            updated_at)
     VALUES ($1, $2, $3, $4, 'active', $5, $6, $5)
     ON CONFLICT (email) DO NOTHING
     RETURNING ${OPERATOR_COLUMNS}`,
    [
      operator.id,
      operator.email,
      operator.displayName,
      operator.roles,
      operator.now,
      operator.createdBy,
    ],
  );
  return rows[0];
}

export async function findOperator(db: Queryable, id: string): Promise<OperatorRecord | undefined> {
  const rows = await db.query<OperatorRecord>(
    `SELECT ${OPERATOR_COLUMNS} FROM operators WHERE id = $1`,
    [id],
  );
  return rows[0];
}

/** A page of operators, by email. */
export async function listOperators(
  db: Queryable,
  page: { limit: number; offset: number },
): Promise<{ rows: OperatorRecord[]; total: number }> {
  const rows = await db.query<OperatorRecord & { total: number }>(
    `SELECT ${OPERATOR_COLUMNS}, count(*) OVER ()::int AS total
       FROM operators ORDER BY email LIMIT $1 OFFSET $2`,
    [page.limit, page.offset],
  );
  return {
    rows: rows.map(({ total: _total, ...operator }) => operator),
    total: rows[0]?.total ?? 0,
  };
}

export async function updateOperatorRoles(
  db: Queryable,
  id: string,
  roles: readonly OperatorRole[],
  now: Date,
): Promise<OperatorRecord | undefined> {
  const rows = await db.query<OperatorRecord>(
    `UPDATE operators SET roles = $2, updated_at = $3 WHERE id = $1 RETURNING ${OPERATOR_COLUMNS}`,
    [id, roles, now],
  );
  return rows[0];
}

export async function updateOperatorStatus(
  db: Queryable,
  id: string,
  status: 'active' | 'disabled',
  now: Date,
): Promise<OperatorRecord | undefined> {
  const rows = await db.query<OperatorRecord>(
    `UPDATE operators SET status = $2, updated_at = $3 WHERE id = $1 RETURNING ${OPERATOR_COLUMNS}`,
    [id, status, now],
  );
  return rows[0];
}

/**
 * Whether an active admin operator can get in (break-glass closes once one can): one with a
 * password and a second factor, linked to the identity provider, or holding a live API key. An
 * admin who was only created, not set up, does not close it: break-glass still has to hand them
 * their setup link or first key.
 */
export async function activeAdminExists(db: Queryable, now: Date): Promise<boolean> {
  const rows = await db.query<{ found: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM operators o
        WHERE o.status = 'active' AND 'admin' = ANY (o.roles)
          AND ((o.password_hash IS NOT NULL AND o.totp_secret IS NOT NULL)
               OR o.sso_subject IS NOT NULL
               OR EXISTS (SELECT 1 FROM operator_api_keys k
                           WHERE k.operator_id = o.id AND k.revoked_at IS NULL
                             AND k.expires_at > $1))) AS found`,
    [now],
  );
  return rows[0]?.found === true;
}

export async function insertOperatorApiKey(
  db: Queryable,
  key: {
    id: string;
    operatorId: string;
    name: string;
    tokenHash: string;
    now: Date;
    expiresAt: Date;
  },
): Promise<OperatorApiKeyRecord> {
  const rows = await db.query<OperatorApiKeyRecord>(
    `INSERT INTO operator_api_keys (id, operator_id, name, token_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${KEY_COLUMNS}`,
    [key.id, key.operatorId, key.name, key.tokenHash, key.now, key.expiresAt],
  );
  const row = rows[0];
  if (row === undefined) {
    throw new Error('operator_api_keys insert returned no row');
  }
  return row;
}

export async function listOperatorApiKeys(
  db: Queryable,
  operatorId: string,
): Promise<OperatorApiKeyRecord[]> {
  return db.query<OperatorApiKeyRecord>(
    `SELECT ${KEY_COLUMNS} FROM operator_api_keys WHERE operator_id = $1 ORDER BY created_at, id`,
    [operatorId],
  );
}

/** Revokes one of an operator's keys; undefined when the operator has no such key. */
export async function revokeOperatorApiKey(
  db: Queryable,
  operatorId: string,
  keyId: string,
  now: Date,
): Promise<OperatorApiKeyRecord | undefined> {
  const rows = await db.query<OperatorApiKeyRecord>(
    `UPDATE operator_api_keys SET revoked_at = coalesce(revoked_at, $3)
      WHERE id = $1 AND operator_id = $2 RETURNING ${KEY_COLUMNS}`,
    [keyId, operatorId, now],
  );
  return rows[0];
}

/**
 * The owner of a live API key: the key neither revoked nor expired, its operator active (a
 * disabled operator's keys stop at the next request, on every process). Marks the key used, at
 * most once a minute, in the same statement.
 */
export async function findApiKeyOwner(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<CredentialOwner | undefined> {
  const rows = await db.query<CredentialOwner>(
    `WITH owner AS (
       SELECT k.id AS "credentialId", o.id AS "operatorId", o.email, o.roles, k.last_used_at
         FROM operator_api_keys k JOIN operators o ON o.id = k.operator_id
        WHERE k.token_hash = $1 AND k.revoked_at IS NULL AND k.expires_at > $2
          AND o.status = 'active'),
     touched AS (
       UPDATE operator_api_keys SET last_used_at = $2
        WHERE id = (SELECT "credentialId" FROM owner)
          AND (last_used_at IS NULL OR last_used_at < $2 - interval '60 seconds'))
     SELECT "credentialId", "operatorId", email, roles FROM owner`,
    [tokenHash, now],
  );
  return rows[0];
}

/** The operator an identity provider's (issuer, subject) is linked to, or has the email. */
export async function findOperatorForSso(
  db: Queryable,
  identity: { issuer: string; subject: string; email: string },
): Promise<(OperatorRecord & { ssoSubject: string | null }) | undefined> {
  const rows = await db.query<OperatorRecord & { ssoSubject: string | null }>(
    `SELECT ${OPERATOR_COLUMNS}, sso_subject AS "ssoSubject" FROM operators
      WHERE (sso_issuer = $1 AND sso_subject = $2) OR email = $3
      ORDER BY (sso_subject IS NOT DISTINCT FROM $2) DESC LIMIT 1`,
    [identity.issuer, identity.subject, identity.email],
  );
  return rows[0];
}

/** Links an operator to the identity provider's subject and takes the roles it grants. */
export async function linkOperatorToSso(
  db: Queryable,
  id: string,
  link: { issuer: string; subject: string; roles: readonly OperatorRole[]; now: Date },
): Promise<OperatorRecord | undefined> {
  const rows = await db.query<OperatorRecord>(
    `UPDATE operators SET sso_issuer = $2, sso_subject = $3, roles = $4, updated_at = $5
      WHERE id = $1 RETURNING ${OPERATOR_COLUMNS}`,
    [id, link.issuer, link.subject, link.roles, link.now],
  );
  return rows[0];
}
