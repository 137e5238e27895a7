import { AppError } from '../errors/app-error.ts';
import { canonicalJson, sha256Hex } from '../shared/hashing.ts';

/**
 * The fingerprint of a request for replays: what defines its effect, in any key order. Every
 * module fingerprints with this, for `Idempotency-Key` and for its own references
 * (`paymentReference`, `externalReference`).
 */
export function requestFingerprint(request: unknown): string {
  return sha256Hex(canonicalJson(request));
}

/**
 * An `Idempotency-Key` claim as the SQL of a module's single-call write takes it: the module's
 * function calls idempotency_claim (src/idempotency/sql/idempotency_claim.sql) with these
 * inside the call that makes the resource, so the key and the effect commit together or not at
 * all (docs/api.md, "Idempotency"). A key is unique per client and scope.
 */
export function idempotencyClaimJson(claim: { scope: string; key: string | undefined }) {
  return claim.key === undefined
    ? {}
    : { idempotencyScope: claim.scope, idempotencyKey: claim.key };
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header as sent, or a 400 when it is not 1-255 visible characters. */
export function readIdempotencyKey(header: string | undefined): string | undefined {
  if (header !== undefined && !IDEMPOTENCY_KEY.test(header)) {
    throw new AppError('VALIDATION_ERROR', 'Idempotency-Key must be 1-255 visible characters.');
  }
  return header;
}

/**
 * Retention: deletes up to `limit` idempotency keys claimed before `before` (past their replay
 * window); how many. Takes any connection that runs SQL (this layer sits below the database's).
 */
export async function purgeOldIdempotencyKeys(
  db: { query<T>(sql: string, params?: readonly unknown[]): Promise<T[]> },
  before: Date,
  limit: number,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM idempotency_requests WHERE (client_id, scope, key) IN (
       SELECT client_id, scope, key FROM idempotency_requests WHERE created_at < $1
        ORDER BY created_at LIMIT $2)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before, limit],
  );
  return rows[0]?.n ?? 0;
}

/**
 * The claim an Idempotency-Key holds already, if any: for a write that must answer a replay
 * before it checks the request again (a bulk batch, whose own references would refuse its
 * replay). The write still claims the key in its own call, which settles a race between two.
 */
export async function findIdempotencyClaim(
  db: { query<T>(sql: string, params?: readonly unknown[]): Promise<T[]> },
  claim: { clientId: string; scope: string; key: string },
): Promise<{ requestHash: string; resourceId: string } | undefined> {
  const rows = await db.query<{ request_hash: string; resource_id: string }>(
    `SELECT request_hash, resource_id FROM idempotency_requests
      WHERE client_id = $1 AND scope = $2 AND key = $3`,
    [claim.clientId, claim.scope, claim.key],
  );
  const row = rows[0];
  return row === undefined
    ? undefined
    : { requestHash: row.request_hash, resourceId: row.resource_id };
}
