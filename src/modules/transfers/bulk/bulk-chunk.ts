import type { Principal } from '../../../auth/principal.ts';
import type { TransferConfig } from '../../../config/config.ts';
import type { Db, Queryable } from '../../../db/db.ts';
import { AppError } from '../../../errors/app-error.ts';
import { callBatch } from '../../../ledger/batch.ts';
import type { Clock } from '../../../shared/clock.ts';
import type { Kobo } from '../../../shared/money.ts';
import { enqueueEvent } from '../../../webhooks/outbox.ts';
import type { BeneficiaryService } from '../../beneficiaries/index.ts';
import type { Collections } from '../collections.ts';
import { usableEnquiry } from '../name-enquiry/name-enquiry-repository.ts';
import type { NameEnquiryService } from '../name-enquiry/name-enquiry-service.ts';
import type { OutboundTransferService } from '../outbound/outbound-transfer-service.ts';
import { transferFingerprint } from '../outbound/outbound-transfer-service.ts';
import {
  lookUpPlacements,
  type PlacementLookup,
  type PreparedPlacement,
  preparePlacement,
  type TransferRequest,
} from '../outbound/transfer-placement.ts';
import { transferRequestOf } from './bulk-acceptance.ts';
import {
  type BulkPlaceItem,
  type BulkRefuseItem,
  bulkPlacement,
  bulkRefusal,
} from './bulk-batch.ts';
import {
  type BulkItemRecord,
  completeIfDone,
  countEnded,
  type StoredRequest,
} from './bulk-repository.ts';
import { bulkBatchView } from './bulk-view.ts';

/** What the bulk payout service is built from (bulk-payout-service.ts). */
export interface BulkPayoutServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly institutionCode: string;
  readonly config: TransferConfig;
  readonly maxAmountKobo: Kobo;
  readonly collections: Collections;
  readonly beneficiaries: Pick<BeneficiaryService, 'toSave'>;
  readonly nameEnquiry: Pick<NameEnquiryService, 'enquire'>;
  readonly outbound: Pick<OutboundTransferService, 'dispatch'>;
  /** Items per placement call: the group commit's batch size (db/group-commit.ts). */
  readonly chunkSize: number;
  /** How long a worker's claim of a batch lasts; each chunk renews it. */
  readonly claimSeconds: number;
}

type Batch = { readonly id: string; readonly clientId: string };

/** An item made ready for the placement call, or refused before it, or left for later. */
type Enquired =
  | { readonly kind: 'ready'; readonly request: TransferRequest }
  | { readonly kind: 'refused'; readonly code: string; readonly message: string }
  | { readonly kind: 'deferred' };

/**
 * A page of a batch's pending items (a few chunks: its name enquiries and look-ups are made once
 * for all), placed a chunk at a time (placeChunk), the one that ends the last item completing
 * the batch; with none left, the batch is completed alone (all its items were refused at once).
 * Answers the rail dispatches of the NIP transfers placed, and how many items wait for a name
 * enquiry the rail did not answer.
 */
export async function placePage(
  deps: BulkPayoutServiceDeps,
  batch: Batch,
  page: readonly BulkItemRecord[],
): Promise<{ dispatches: Promise<unknown>[]; deferred: number }> {
  if (page.length === 0) {
    await deps.db.transaction((tx) => completeAndTell(deps, tx, batch.id));
    return { dispatches: [], deferred: 0 };
  }
  const principal = { clientId: batch.clientId };
  const enquired = await withEnquiries(deps, principal, page);
  const ready = page.flatMap((item, index) => {
    const outcome = enquired.items[index];
    return outcome === undefined || outcome.kind === 'deferred' ? [] : [{ item, outcome }];
  });
  const deferred = page.length - ready.length;
  const found =
    ready.length === 0
      ? undefined
      : (enquired.found ?? (await lookUpPlacements(deps.db, deps, requestsOf(ready))));
  const dispatches: Promise<unknown>[] = [];
  for (let start = 0; found !== undefined && start < ready.length; start += deps.chunkSize) {
    const chunk = ready.slice(start, start + deps.chunkSize);
    dispatches.push(...(await placeChunk(deps, { batch, chunk, found })));
  }
  return { dispatches, deferred };
}

/**
 * One chunk, placed in one transaction: the placement call (each item placed and marked Placed
 * in its own subtransaction, or refused alone), the refusals recorded right after under the same
 * locks, what ended counted on the batch and its claim renewed, and when nothing is left the
 * batch Completed (with its transfer.bulk.completed event). A crash anywhere before the commit leaves every item of the
 * chunk Pending and nothing moved; after it, every one ended. Answers the rail dispatches of
 * the NIP transfers placed.
 */
async function placeChunk(
  deps: BulkPayoutServiceDeps,
  parts: {
    batch: Batch;
    chunk: readonly { item: BulkItemRecord; outcome: Enquired }[];
    found: PlacementLookup;
  },
): Promise<Promise<unknown>[]> {
  const { batch, found } = parts;
  const now = deps.clock.now();
  const prepared = parts.chunk.map(({ item, outcome }) =>
    prepareItem(deps, { batch, item, outcome, found, now }),
  );
  const results = await deps.db.transaction(async (tx) => {
    const placed = await callBatch(
      tx,
      bulkPlacement,
      prepared.map((entry) => entry.sql),
    );
    const refusals = placed.flatMap((result, index): BulkRefuseItem[] => {
      const entry = prepared[index];
      if (entry === undefined || (result.kind !== 'refused' && result.kind !== 'failed')) {
        return [];
      }
      const { code, message } =
        result.kind === 'refused'
          ? result
          : { code: 'INTERNAL_ERROR', message: 'The transfer could not be placed.' };
      return [{ ...refuseKeys(entry.sql), code, message }];
    });
    const refused = refusals.length === 0 ? [] : await callBatch(tx, bulkRefusal, refusals);
    const counted = await countEnded(tx, batch.id, {
      placed: placed.filter((result) => result.kind === 'placed').length,
      refused: refused.filter((result) => result.kind === 'refused').length,
      claimUntil: new Date(now.getTime() + deps.claimSeconds * 1000),
    });
    if (counted.status === 'Processing' && counted.ended === counted.total) {
      await completeAndTell(deps, tx, batch.id);
    }
    return placed;
  });
  return results.flatMap((result, index) => {
    const transfer = prepared[index]?.transfer;
    return result.kind === 'placed' && transfer?.status === 'Processing'
      ? [deps.outbound.dispatch(transfer)]
      : [];
  });
}

function requestsOf(ready: readonly { outcome: Enquired }[]): TransferRequest[] {
  return ready.flatMap(({ outcome }) => (outcome.kind === 'ready' ? [outcome.request] : []));
}

function refuseKeys(item: BulkPlaceItem) {
  return {
    batchId: item.batchId,
    position: item.position,
    at: item.at,
    holdAccountId: item.holdAccountId,
  };
}

/**
 * Name enquiries the batch makes: for each item whose quoted enquiry is missing, expired or not
 * this beneficiary's. One the other bank refuses refuses the item; one the rail does not answer
 * leaves it for later. Answers the look-up of the placements when no enquiry was made.
 */
async function withEnquiries(
  deps: BulkPayoutServiceDeps,
  principal: Pick<Principal, 'clientId'>,
  pending: readonly BulkItemRecord[],
): Promise<{ items: Enquired[]; found: PlacementLookup | undefined }> {
  const requests = pending.map((item) => transferRequestOf(item.request as StoredRequest));
  const found = await lookUpPlacements(deps.db, deps, requests);
  const now = deps.clock.now();
  const usable = (request: TransferRequest) =>
    usableEnquiry(found.enquiries.get(request.nameEnquiryReference), {
      clientId: principal.clientId,
      bankCode: request.beneficiaryBankCode,
      accountNumber: request.beneficiaryAccountNumber,
      now,
    }) !== undefined;
  if (requests.every(usable)) {
    return { items: requests.map((request) => ({ kind: 'ready', request })), found };
  }
  const items = await Promise.all(
    requests.map((request) =>
      usable(request) ? ready(request) : enquire(deps, principal, request),
    ),
  );
  return { items, found: undefined };
}

async function ready(request: TransferRequest): Promise<Enquired> {
  return { kind: 'ready', request };
}

async function enquire(
  deps: BulkPayoutServiceDeps,
  principal: Pick<Principal, 'clientId'>,
  request: TransferRequest,
): Promise<Enquired> {
  try {
    const enquiry = await deps.nameEnquiry.enquire(principal, {
      bankCode: request.beneficiaryBankCode,
      accountNumber: request.beneficiaryAccountNumber,
    });
    return { kind: 'ready', request: { ...request, nameEnquiryReference: enquiry.sessionId } };
  } catch (error) {
    if (error instanceof AppError && error.code !== 'RAIL_UNAVAILABLE') {
      return { kind: 'refused', code: error.code, message: error.message };
    }
    return { kind: 'deferred' };
  }
}

/**
 * The bulk item of one pending item: its placement as POST /transfers prepares it, or the
 * refusal found before the call (an account no longer the client's or not Active).
 */
function prepareItem(
  deps: BulkPayoutServiceDeps,
  parts: {
    batch: Batch;
    item: BulkItemRecord;
    outcome: Enquired;
    found: PlacementLookup;
    now: Date;
  },
): { sql: BulkPlaceItem; transfer: PreparedPlacement['transfer'] } {
  const { batch, item, outcome } = parts;
  const base = {
    batchId: batch.id,
    position: item.position,
    at: parts.now.toISOString(),
    holdId: item.holdId,
    holdAccountId: item.holdId === null ? null : (item.request?.holdAccountId ?? null),
  };
  if (outcome.kind !== 'ready') {
    const refusal =
      outcome.kind === 'refused' ? outcome : { code: 'RAIL_UNAVAILABLE', message: '' };
    return { sql: { ...base, refusal }, transfer: undefined };
  }
  try {
    const prepared = preparePlacement(
      deps,
      {
        principal: { clientId: batch.clientId },
        body: outcome.request,
        requestHash: transferFingerprint(outcome.request),
      },
      parts.found,
    );
    return { sql: { ...base, placement: prepared.sql }, transfer: prepared.transfer };
  } catch (error) {
    if (!(error instanceof AppError)) {
      throw error;
    }
    return {
      sql: { ...base, refusal: { code: error.code, message: error.message } },
      transfer: undefined,
    };
  }
}

/** Completes the batch if its items all ended, with its event, in the caller's transaction. */
async function completeAndTell(
  deps: BulkPayoutServiceDeps,
  tx: Queryable,
  batchId: string,
): Promise<void> {
  const completed = await completeIfDone(tx, batchId, deps.clock.now());
  if (completed !== undefined) {
    await enqueueEvent(tx, deps.clock, {
      clientId: completed.clientId,
      type: 'transfer.bulk.completed',
      data: bulkBatchView(completed),
    });
  }
}
