import type { Static } from 'typebox';
import type { BulkBatchRecord, BulkItemRecord } from './bulk-repository.ts';
import type { BulkBatchSchema, BulkItemSchema } from './bulk-schemas.ts';

/** A batch on the wire: its progress, counted from its items. */
export function bulkBatchView(batch: BulkBatchRecord): Static<typeof BulkBatchSchema> {
  return {
    _id: batch.id,
    status: batch.status,
    allOrNothing: batch.allOrNothing,
    total: batch.total,
    placed: batch.placed,
    refused: batch.refused,
    pending: batch.pending,
    createdAt: batch.createdAt.toISOString(),
    completedAt: batch.completedAt?.toISOString() ?? null,
  };
}

export function bulkItemView(item: BulkItemRecord): Static<typeof BulkItemSchema> {
  return {
    index: item.position,
    paymentReference: item.paymentReference,
    status: item.status,
    transferId: item.transferId,
    errorCode: item.errorCode,
    errorMessage: item.errorMessage,
  };
}
