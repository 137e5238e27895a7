import type { Principal } from '../../../auth/principal.ts';
import { AppError } from '../../../errors/app-error.ts';
import { itemFailure, refusalError } from '../../../errors/batch-items.ts';
import { findIdempotencyClaim, requestFingerprint } from '../../../idempotency/idempotency.ts';
import { callBatch } from '../../../ledger/batch.ts';
import { holdJson } from '../../../ledger/ledger-service.ts';
import { newObjectId } from '../../../shared/ids.ts';
import { invariant } from '../../../shared/invariant.ts';
import { lookUpPlacements } from '../outbound/transfer-placement.ts';
import { type CheckedItem, checkItem, readItem } from './bulk-acceptance.ts';
import { type AcceptItem, type BulkItemRow, bulkAcceptance } from './bulk-batch.ts';
import { type BulkPayoutServiceDeps, placePage } from './bulk-chunk.ts';
import {
  type BulkBatchRecord,
  type BulkItemRecord,
  findBulkBatch,
  findBulkItems,
  findPendingItems,
  findUsedReferences,
  listBulkBatches,
} from './bulk-repository.ts';

export type { BulkPayoutServiceDeps };

export interface BulkRequest {
  readonly transfers: readonly unknown[];
  readonly allOrNothing?: boolean;
}

/** Idempotency-Key claims of bulk batches live under this scope. */
const IDEMPOTENCY_SCOPE = 'transfers.bulk';

/** Pending items read at once: their name enquiries and look-ups are made together. */
const CHUNKS_PER_PAGE = 5;

/** How many refused items a 400 under allOrNothing names. */
const MAX_DETAILS = 50;

/**
 * Bulk payouts (docs/bulk-payouts.md): a batch of up to 1,000 transfers accepted in one call
 * with its Idempotency-Key, then placed by the bulk worker through the placement of
 * POST /transfers, item by item, each ending once (Placed or Refused).
 */
export function createBulkPayoutService(deps: BulkPayoutServiceDeps) {
  /** Told of every batch this process accepts (the bulk worker, to start on it at once). */
  const acceptedListeners = new Set<() => void>();

  /**
   * Checks every item, then stores the batch, its items (the invalid ones Refused at once) and
   * under allOrNothing the hold of its total, in one call with the key. A replay answers the
   * batch as it stands; the same key with another request is refused.
   */
  async function accept(
    principal: Pick<Principal, 'clientId'>,
    body: BulkRequest,
    idempotencyKey: string,
  ): Promise<BulkBatchRecord> {
    const allOrNothing = body.allOrNothing ?? false;
    const requestHash = requestFingerprint({ transfers: body.transfers, allOrNothing });
    const claim = { clientId: principal.clientId, scope: IDEMPOTENCY_SCOPE, key: idempotencyKey };
    const earlier = await findIdempotencyClaim(deps.db, claim);
    if (earlier !== undefined) {
      return replayOf(principal, earlier, requestHash);
    }
    const checked = await checkAll(principal, body.transfers);
    if (allOrNothing && checked.some((item) => !item.ok)) {
      throw allOrNothingRefused(checked);
    }
    const item = acceptItem(principal, { checked, requestHash, allOrNothing, idempotencyKey });
    const [result] = await callBatch(deps.db, bulkAcceptance, [item]);
    invariant(result !== undefined, 'one result for one batch');
    if (result.kind === 'refused') {
      throw refusalError(result, 'bulk transfer');
    }
    if (result.kind === 'failed') {
      throw itemFailure(result, 'bulk transfer');
    }
    if (result.kind === 'replay') {
      return mustFind(principal, result.batchId);
    }
    for (const listener of acceptedListeners) {
      listener();
    }
    return mustFind(principal, item.batch.id);
  }

  async function replayOf(
    principal: Pick<Principal, 'clientId'>,
    earlier: { requestHash: string; resourceId: string },
    requestHash: string,
  ): Promise<BulkBatchRecord> {
    if (earlier.requestHash !== requestHash) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED');
    }
    return mustFind(principal, earlier.resourceId);
  }

  async function mustFind(principal: Pick<Principal, 'clientId'>, id: string) {
    const batch = await findBulkBatch(deps.db, principal.clientId, id);
    invariant(batch !== undefined, `bulk batch ${id} is missing`);
    return batch;
  }

  /** Both passes of bulk-acceptance.ts, with one read of the accounts and references for all. */
  async function checkAll(
    principal: Pick<Principal, 'clientId'>,
    transfers: readonly unknown[],
  ): Promise<CheckedItem[]> {
    const read = transfers.map((raw) => readItem(deps, raw));
    const bodies = read.flatMap((item) => (item.ok === 'read' ? [item.body] : []));
    const [found, used] = await Promise.all([
      lookUpPlacements(deps.db, deps, bodies),
      findUsedReferences(
        deps.db,
        principal.clientId,
        bodies.map((body) => body.paymentReference),
      ),
    ]);
    const context = { principal, now: deps.clock.now(), found, used, seen: new Set<string>() };
    return read.map((item) => (item.ok === 'read' ? checkItem(deps, item.body, context) : item));
  }

  /** The acceptance call's item: the batch row, its item rows and the holds. */
  function acceptItem(
    principal: Pick<Principal, 'clientId'>,
    request: {
      checked: readonly CheckedItem[];
      requestHash: string;
      allOrNothing: boolean;
      idempotencyKey: string;
    },
  ): AcceptItem {
    const now = deps.clock.now();
    const batchId = newObjectId(deps.clock);
    const holds: ReturnType<typeof holdJson>[] = [];
    const items = request.checked.map((checked, position): BulkItemRow => {
      const common = { batch_id: batchId, position };
      const row = { ...common, client_id: principal.clientId, transfer_id: null };
      if (!checked.ok) {
        return {
          ...row,
          payment_reference: checked.paymentReference,
          request: null,
          status: 'Refused',
          error_code: checked.code,
          error_message: checked.message,
          hold_id: null,
          ended_at: now.toISOString(),
        };
      }
      const holdId = request.allOrNothing ? newObjectId(deps.clock) : null;
      if (holdId !== null) {
        holds.push(
          holdJson({
            id: holdId,
            accountId: checked.debitAccountId,
            amountKobo: checked.totalKobo,
            reference: `bulk:${batchId}:${position}`,
            createdAt: now,
          }),
        );
      }
      return {
        ...row,
        payment_reference: checked.request.paymentReference,
        request: { ...checked.request },
        status: 'Pending',
        error_code: null,
        error_message: null,
        hold_id: holdId,
        ended_at: null,
      };
    });
    return {
      idempotencyScope: IDEMPOTENCY_SCOPE,
      idempotencyKey: request.idempotencyKey,
      batch: {
        id: batchId,
        client_id: principal.clientId,
        all_or_nothing: request.allOrNothing,
        status: 'Processing',
        total: items.length,
        placed: 0,
        refused: items.filter((item) => item.status === 'Refused').length,
        request_hash: request.requestHash,
        created_at: now.toISOString(),
        completed_at: null,
        next_attempt_at: now.toISOString(),
      },
      items,
      holds,
    };
  }

  /** A client's batch with every item's outcome; another client's is not found (404). */
  async function get(
    principal: Pick<Principal, 'clientId'>,
    id: string,
  ): Promise<{ batch: BulkBatchRecord; items: BulkItemRecord[] }> {
    const batch = await findBulkBatch(deps.db, principal.clientId, id);
    if (batch === undefined) {
      throw new AppError('BULK_BATCH_NOT_FOUND');
    }
    return { batch, items: await findBulkItems(deps.db, id) };
  }

  function list(principal: Pick<Principal, 'clientId'>, page: { page: number; limit: number }) {
    return listBulkBatches(deps.db, principal.clientId, page);
  }

  /**
   * Places a claimed batch's pending items, a chunk at a time, until none is left (the batch is
   * then Completed) or a chunk leaves some waiting (a name enquiry the rail did not answer: the
   * batch is claimed again when its claim runs out). NIP transfers go to the rail as their
   * chunk commits; this answers once they all have.
   */
  async function processBatch(batch: { id: string; clientId: string }): Promise<void> {
    const dispatches: Promise<unknown>[] = [];
    // Every item of a page ends (or is deferred, which ends this round), so the next page is
    // read after the last: the items ended before are not walked again.
    let after = -1;
    try {
      for (;;) {
        const limit = deps.chunkSize * CHUNKS_PER_PAGE;
        const items = await findPendingItems(deps.db, batch.id, { after, limit });
        const outcome = await placePage(deps, batch, items);
        dispatches.push(...outcome.dispatches);
        if (items.length < limit || outcome.deferred > 0) {
          return;
        }
        after = items[items.length - 1]?.position ?? after;
      }
    } finally {
      await Promise.allSettled(dispatches);
    }
  }

  return {
    accept,
    get,
    list,
    processBatch,
    /** Calls `listener` after each batch accepted here; answers how to stop. */
    onAccepted(listener: () => void): () => void {
      acceptedListeners.add(listener);
      return () => acceptedListeners.delete(listener);
    },
  };
}

export type BulkPayoutService = ReturnType<typeof createBulkPayoutService>;

/** The 400 of an allOrNothing batch with invalid items: each named (the first 50). */
function allOrNothingRefused(checked: readonly CheckedItem[]): AppError {
  const details = checked.flatMap((item, index) =>
    item.ok ? [] : [{ field: `transfers[${index}]`, message: `${item.code}: ${item.message}` }],
  );
  return new AppError(
    'VALIDATION_ERROR',
    `allOrNothing: ${details.length} of ${checked.length} transfers are invalid; none was accepted.`,
    { details: details.slice(0, MAX_DETAILS) },
  );
}
