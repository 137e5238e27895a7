import type { Queryable } from '../db/db.ts';

/**
 * Claims an Idempotency-Key for a transfer inside the transfer's transaction. A concurrent
 * claim of the same key waits for this transaction; if it commits, the other sees the row.
 * Answers the existing claim when the key was already used.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  claim: { clientId: string; key: string; requestHash: string; transferId: string; now: Date },
): Promise<{ requestHash: string; transferId: string } | undefined> {
  const inserted = await db.query(
    `INSERT INTO idempotency_keys (client_id, key, request_hash, transfer_id, created_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING key`,
    [claim.clientId, claim.key, claim.requestHash, claim.transferId, claim.now],
  );
  if (inserted.length === 1) {
    return undefined;
  }
  const rows = await db.query<{ request_hash: string; transfer_id: string }>(
    'SELECT request_hash, transfer_id FROM idempotency_keys WHERE client_id = $1 AND key = $2',
    [claim.clientId, claim.key],
  );
  const row = rows[0];
  return row === undefined
    ? undefined
    : { requestHash: row.request_hash, transferId: row.transfer_id };
}
