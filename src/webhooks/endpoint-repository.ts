import type { Queryable } from '../db/db.ts';

export interface WebhookEndpoint {
  readonly clientId: string;
  readonly url: string | null;
  readonly secret: string;
  readonly previousSecret: string | null;
  readonly previousSecretExpiresAt: Date | null;
  readonly disabledAt: Date | null;
  readonly disabledReason: string | null;
  readonly updatedAt: Date;
}

interface EndpointRow {
  client_id: string;
  url: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  updated_at: Date;
}

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    clientId: row.client_id,
    url: row.url,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    disabledAt: row.disabled_at,
    disabledReason: row.disabled_reason,
    updatedAt: row.updated_at,
  };
}

const COLUMNS = `client_id, url, secret, previous_secret, previous_secret_expires_at, disabled_at,
  disabled_reason, updated_at`;

/** The client's endpoint, created with a fresh secret (and no URL) the first time it is needed. */
export async function ensureEndpoint(
  db: Queryable,
  clientId: string,
  freshSecret: string,
  now: Date,
): Promise<WebhookEndpoint> {
  await db.query(
    `INSERT INTO webhook_endpoints (client_id, secret, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (client_id) DO NOTHING`,
    [clientId, freshSecret, now],
  );
  const rows = await db.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE client_id = $1`,
    [clientId],
  );
  return toEndpoint(rows[0] as EndpointRow);
}

/** The endpoints these clients have (a client that never needed one has none yet). */
export async function findEndpoints(
  db: Queryable,
  clientIds: readonly string[],
): Promise<Map<string, WebhookEndpoint>> {
  const rows = await db.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE client_id = ANY($1::text[])`,
    [clientIds],
  );
  return new Map(rows.map((row) => [row.client_id, toEndpoint(row)]));
}

/** Sets the URL; a new URL re-enables an endpoint that a 410 disabled. */
export async function setEndpointUrl(
  db: Queryable,
  clientId: string,
  url: string | null,
  now: Date,
) {
  await db.query(
    `UPDATE webhook_endpoints SET url = $2, disabled_at = NULL, disabled_reason = NULL,
        updated_at = $3 WHERE client_id = $1`,
    [clientId, url, now],
  );
}

/** The old secret keeps signing (next to the new one) until previousExpiresAt. */
export async function rotateSecret(
  db: Queryable,
  update: { clientId: string; newSecret: string; previousExpiresAt: Date; now: Date },
) {
  await db.query(
    `UPDATE webhook_endpoints SET previous_secret = secret, secret = $2,
        previous_secret_expires_at = $3, updated_at = $4 WHERE client_id = $1`,
    [update.clientId, update.newSecret, update.previousExpiresAt, update.now],
  );
}

export async function disableEndpoint(db: Queryable, clientId: string, reason: string, now: Date) {
  await db.query(
    `UPDATE webhook_endpoints SET disabled_at = $3, disabled_reason = $2, updated_at = $3
      WHERE client_id = $1 AND disabled_at IS NULL`,
    [clientId, reason, now],
  );
}

/** The secrets to sign with now: the current one, plus the previous one during its grace period. */
export function signingSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
  const previousValid =
    endpoint.previousSecret !== null &&
    endpoint.previousSecretExpiresAt !== null &&
    endpoint.previousSecretExpiresAt > now;
  return previousValid ? [endpoint.secret, endpoint.previousSecret as string] : [endpoint.secret];
}
