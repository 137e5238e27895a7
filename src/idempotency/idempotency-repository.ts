import type { Queryable } from '../db/db.ts';

export interface IdempotencyClaim {
  readonly clientId: string;
  /** The kind of request the key belongs to, e.g. `transfers`: a key is unique per scope. */
  readonly scope: string;
  readonly key: string;
  readonly requestHash: string;
  readonly resourceId: string;
  readonly now: Date;
}

/**
 * Inserts the claim unless the key exists; a concurrent claim of the same key waits for the
 * first transaction and then sees its row. Answers the existing claim when there is one.
 */
export async function insertOrFindClaim(
  db: Queryable,
  claim: IdempotencyClaim,
): Promise<{ requestHash: string; resourceId: string } | undefined> {
  const inserted = await db.query(
    `INSERT INTO idempotency_requests (client_id, scope, key, request_hash, resource_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING key`,
    [claim.clientId, claim.scope, claim.key, claim.requestHash, claim.resourceId, claim.now],
  );
  if (inserted.length === 1) {
    return undefined;
  }
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

/** Points a claim made in this transaction at another resource (the one its request repeated). */
export async function updateClaimResource(db: Queryable, claim: IdempotencyClaim): Promise<void> {
  await db.query(
    `UPDATE idempotency_requests SET resource_id = $4
      WHERE client_id = $1 AND scope = $2 AND key = $3`,
    [claim.clientId, claim.scope, claim.key, claim.resourceId],
  );
}
