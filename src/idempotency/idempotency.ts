import type { Queryable } from '../db/db.ts';
import { canonicalJson, sha256Hex } from '../shared/hashing.ts';
import {
  type IdempotencyClaim,
  insertOrFindClaim,
  updateClaimResource,
} from './idempotency-repository.ts';

/**
 * The fingerprint of a request for replays: what defines its effect, in any key order. Every
 * module fingerprints with this, for `Idempotency-Key` and for its own references
 * (`paymentReference`, `externalReference`).
 */
export function requestFingerprint(request: unknown): string {
  return sha256Hex(canonicalJson(request));
}

/** A first use of the key, a replay of the resource it made, or a reuse with another request. */
export type ClaimOutcome =
  | { readonly kind: 'claimed' }
  | { readonly kind: 'replay'; readonly resourceId: string }
  | { readonly kind: 'reused' };

/**
 * Claims an `Idempotency-Key` inside the transaction that makes the resource, so the key and the
 * effect commit together or not at all (docs/api.md, "Idempotency").
 */
export async function claimIdempotencyKey(
  tx: Queryable,
  claim: IdempotencyClaim,
): Promise<ClaimOutcome> {
  const earlier = await insertOrFindClaim(tx, claim);
  if (earlier === undefined) {
    return { kind: 'claimed' };
  }
  return earlier.requestHash === claim.requestHash
    ? { kind: 'replay', resourceId: earlier.resourceId }
    : { kind: 'reused' };
}

/**
 * A key claimed in this transaction whose request turned out to repeat an earlier resource (by
 * the resource's own reference): the key now names that resource, and replays answer it.
 */
export async function repointIdempotencyKey(tx: Queryable, claim: IdempotencyClaim) {
  await updateClaimResource(tx, claim);
}

export type { IdempotencyClaim };
