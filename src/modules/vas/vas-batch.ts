import { type Static, Type } from 'typebox';
import {
  batchKind,
  HoldItemSchema,
  JournalItemSchema,
  KoboText,
  NullableText,
  NullableTime,
  TimeText,
} from '../../ledger/batch.ts';
import { OutboxEventItemSchema } from '../../webhooks/outbox.ts';

/**
 * The VAS module's side of the batch contract (ledger/batch.ts): a purchase's placement
 * (sql/vas_place_one.sql) and the biller's answer applied to it (sql/vas_settle_one.sql).
 */

/** A new row of `vas_purchases`, keyed by column (purchaseRowJson). */
export const PurchaseRowSchema = Type.Object({
  id: Type.String(),
  client_id: Type.String(),
  account_id: Type.String(),
  debit_account_number: Type.String(),
  service: Type.String(),
  category_id: Type.String(),
  category_identifier: Type.String(),
  reference: Type.String(),
  status: Type.String(),
  amount_kobo: KoboText,
  commission_kobo: KoboText,
  channel: Type.String(),
  beneficiary: Type.String(),
  bundle_code: NullableText,
  vend_type: NullableText,
  receiver_name: NullableText,
  utility_token: NullableText,
  failure_message: NullableText,
  status_url: NullableText,
  hold_id: Type.String(),
  request_hash: Type.String(),
  status_queries: Type.Integer({ minimum: 0 }),
  next_status_query_at: NullableTime,
  created_at: TimeText,
  updated_at: TimeText,
  completed_at: NullableTime,
  daily_limit_key: NullableText,
});

/** A new purchase: its row, the hold on its price, its daily limit, its Idempotency-Key. */
export const VasPlaceItemSchema = Type.Object({
  purchase: PurchaseRowSchema,
  hold: HoldItemSchema,
  daily: Type.Object({ limit: KoboText, limitMessage: Type.String() }),
  idempotencyScope: Type.Optional(Type.String()),
  idempotencyKey: Type.Optional(Type.String()),
});
export type VasPlaceItem = Static<typeof VasPlaceItemSchema>;

export const vasPlacement = batchKind({
  apply: 'vas_place_one',
  locks: 'vas_place_locks',
  item: VasPlaceItemSchema,
  result: Type.Union([
    Type.Object({ kind: Type.Literal('placed') }),
    Type.Object({ kind: Type.Literal('replay'), purchaseId: Type.String() }),
  ]),
});

/** The biller's answer to a pending purchase, as it is to be applied. */
export const VasSettleItemSchema = Type.Object({
  purchaseId: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('successful'), Type.Literal('failed')]),
  at: TimeText,
  utilityToken: NullableText,
  receiverName: NullableText,
  failureMessage: NullableText,
  statusQueried: Type.Union([Type.Literal(0), Type.Literal(1)]),
  nextStatusQueryAt: NullableText,
  journal: Type.Optional(JournalItemSchema),
  events: Type.Array(OutboxEventItemSchema),
});
export type VasSettleItem = Static<typeof VasSettleItemSchema>;

export const vasSettlement = batchKind({
  apply: 'vas_settle_one',
  locks: 'vas_settle_locks',
  item: VasSettleItemSchema,
  result: Type.Union([
    Type.Object({ kind: Type.Literal('settled') }),
    Type.Object({ kind: Type.Literal('unchanged') }),
  ]),
});
