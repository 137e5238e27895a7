import { type Static, Type } from 'typebox';
import { batchKind, HoldItemSchema, NullableText, TimeText } from '../../../ledger/batch.ts';
import { PlaceItemSchema } from '../transfer-batch.ts';

/**
 * The bulk payouts' side of the batch contract (ledger/batch.ts): accepting a batch
 * (sql/bulk_accept_one.sql), placing one of its items (sql/bulk_place_one.sql, which wraps
 * the placement of POST /transfers) and recording an item's refusal (sql/bulk_refuse_one.sql).
 */

/** A new row of `bulk_batches`, keyed by column (the SQL inserts it whole). */
export const BulkBatchRowSchema = Type.Object({
  id: Type.String(),
  client_id: Type.String(),
  all_or_nothing: Type.Boolean(),
  status: Type.Literal('Processing'),
  total: Type.Integer({ minimum: 1, maximum: 1000 }),
  placed: Type.Literal(0),
  refused: Type.Integer({ minimum: 0 }),
  request_hash: Type.String(),
  created_at: TimeText,
  completed_at: Type.Null(),
  next_attempt_at: TimeText,
});

/**
 * A new row of `bulk_items`, keyed by column: Pending, or Refused at once when invalid. An item
 * is known by its batch and position (its primary key).
 */
export const BulkItemRowSchema = Type.Object({
  batch_id: Type.String(),
  client_id: Type.String(),
  position: Type.Integer({ minimum: 0 }),
  payment_reference: NullableText,
  request: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  status: Type.Union([Type.Literal('Pending'), Type.Literal('Refused')]),
  transfer_id: Type.Null(),
  error_code: NullableText,
  error_message: NullableText,
  hold_id: NullableText,
  ended_at: Type.Union([TimeText, Type.Null()]),
});
export type BulkItemRow = Static<typeof BulkItemRowSchema>;

export const AcceptItemSchema = Type.Object({
  idempotencyScope: Type.String(),
  idempotencyKey: Type.String(),
  batch: BulkBatchRowSchema,
  items: Type.Array(BulkItemRowSchema, { minItems: 1, maxItems: 1000 }),
  holds: Type.Array(HoldItemSchema),
});
export type AcceptItem = Static<typeof AcceptItemSchema>;

export const bulkAcceptance = batchKind({
  apply: 'bulk_accept_one',
  locks: 'bulk_accept_locks',
  item: AcceptItemSchema,
  result: Type.Union([
    Type.Object({ kind: Type.Literal('accepted') }),
    Type.Object({ kind: Type.Literal('replay'), batchId: Type.String() }),
  ]),
});

const RefusalSchema = Type.Object({ code: Type.String(), message: Type.Optional(Type.String()) });

/** One pending item placed, or refused for what the worker found before the call. */
export const BulkPlaceItemSchema = Type.Object({
  batchId: Type.String(),
  position: Type.Integer({ minimum: 0 }),
  at: TimeText,
  holdId: NullableText,
  holdAccountId: NullableText,
  refusal: Type.Optional(RefusalSchema),
  placement: Type.Optional(PlaceItemSchema),
});
export type BulkPlaceItem = Static<typeof BulkPlaceItemSchema>;

export const bulkPlacement = batchKind({
  apply: 'bulk_place_one',
  locks: 'bulk_place_locks',
  item: BulkPlaceItemSchema,
  result: Type.Object({ kind: Type.Literal('placed'), transferId: Type.String() }),
});

/** A refused item's outcome, recorded right after the placement call that refused it. */
export const BulkRefuseItemSchema = Type.Object({
  batchId: Type.String(),
  position: Type.Integer({ minimum: 0 }),
  at: TimeText,
  holdAccountId: NullableText,
  code: Type.String(),
  message: NullableText,
});
export type BulkRefuseItem = Static<typeof BulkRefuseItemSchema>;

export const bulkRefusal = batchKind({
  apply: 'bulk_refuse_one',
  locks: 'bulk_refuse_locks',
  item: BulkRefuseItemSchema,
  result: Type.Union([
    Type.Object({ kind: Type.Literal('refused') }),
    Type.Object({ kind: Type.Literal('ended') }),
  ]),
});
