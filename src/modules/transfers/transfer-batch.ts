import { type Static, Type } from 'typebox';
import {
  batchKind,
  ClaimSchema,
  HoldItemSchema,
  JournalItemSchema,
  KoboText,
  NullableText,
  NullableTime,
  TimeText,
} from '../../ledger/batch.ts';
import { LienItemSchema, WriteOffJournalSchema } from '../../ledger/liens.ts';
import { OutboxEventItemSchema } from '../../webhooks/outbox.ts';
import { BeneficiaryToSaveSchema } from '../beneficiaries/index.ts';

/**
 * The transfers module's side of the batch contract (ledger/batch.ts): what each of its four
 * kinds of item carries into its SQL function and what that function answers. Reading a transfer
 * from its route, this is where TypeScript hands it to SQL: placement → sql/transfer_place_one.sql,
 * a rail answer → sql/transfer_settle_one.sql, a credit from another bank →
 * sql/transfer_receive_one.sql, a NIP transfer the beneficiary bank sent back →
 * sql/transfer_return_one.sql, a credit the sending bank recalls → sql/transfer_recall_one.sql, an
 * operator's reversal of an intra-bank transfer → sql/transfer_reverse_one.sql, an operator's
 * release of a lien → sql/transfer_lien_release_one.sql; each kind's lock keys come from
 * sql/<kind>_locks.sql.
 */

/**
 * A new row of `transfers`, keyed by column (transferRowJson): the SQL inserts it whole with
 * jsonb_populate_record, so a test checks these keys against the table's columns.
 */
export const TransferRowSchema = Type.Object({
  id: Type.String(),
  client_id: Type.String(),
  account_id: Type.String(),
  type: Type.Union([Type.Literal('Inwards'), Type.Literal('Outwards')]),
  session_id: Type.String(),
  name_enquiry_reference: NullableText,
  payment_reference: Type.String(),
  provider: Type.String(),
  provider_channel: Type.String(),
  provider_channel_code: Type.String(),
  destination_institution_code: Type.String(),
  credit_account_name: Type.String(),
  credit_account_number: Type.String(),
  credit_bank_code: Type.String(),
  credit_kyc_level: NullableText,
  debit_account_name: Type.String(),
  debit_account_number: Type.String(),
  debit_bank_code: Type.String(),
  debit_kyc_level: NullableText,
  transaction_location: Type.String(),
  narration: Type.String(),
  amount_kobo: KoboText,
  fee_kobo: KoboText,
  vat_kobo: KoboText,
  stamp_duty_kobo: KoboText,
  response_code: NullableText,
  response_message: NullableText,
  status: Type.String(),
  is_reversed: Type.Boolean(),
  reversal_reference: NullableText,
  created_at: TimeText,
  updated_at: TimeText,
  approved_at: NullableTime,
  declined_at: NullableTime,
  request_hash: NullableText,
  hold_id: NullableText,
  status_queries: Type.Integer({ minimum: 0 }),
  next_status_query_at: NullableTime,
  save_beneficiary: Type.Boolean(),
  daily_limit_key: NullableText,
});
export type TransferRowJson = Static<typeof TransferRowSchema>;

const Events = Type.Array(OutboxEventItemSchema);
const Claims = Type.Array(ClaimSchema);

/**
 * The auto-sweep of the account an item credits (intra-bank/auto-sweep.ts), for
 * sql/transfer_sweep_one.sql: everything but the amount, which the balance after the credit
 * decides under the batch's locks (rows and payloads carry 0; the journal has no amounts).
 */
export const SweepItemSchema = Type.Object({
  accountId: Type.String(),
  dailyLimitKey: Type.String(),
  destinationAccountId: Type.String(),
  at: TimeText,
  outward: TransferRowSchema,
  inward: TransferRowSchema,
  journal: Type.Omit(JournalItemSchema, ['amounts']),
  events: Events,
});
export type SweepItem = Static<typeof SweepItemSchema>;

/** A refusal the service found before the call: only a new request is refused for it. */
const RefusalSchema = Type.Object({ code: Type.String(), message: Type.Optional(Type.String()) });

/** An account that must still be Active under the batch's locks, and the refusal if not. */
const MustBeActiveSchema = Type.Object({
  accountId: Type.String(),
  code: Type.String(),
  message: Type.Optional(Type.String()),
});

/** The day's outbound total the placement counts under, and the limit it must stay within. */
const DailySchema = Type.Object({
  madeAt: TimeText,
  amount: KoboText,
  limit: KoboText,
  limitMessage: Type.String(),
});

/** One placement (prepared by outbound/transfer-placement.ts), for sql/transfer_place_one.sql. */
export const PlaceItemSchema = Type.Object({
  clientId: Type.String(),
  transferId: Type.String(),
  requestHash: Type.String(),
  paymentReference: NullableText,
  now: TimeText,
  idempotencyScope: Type.Optional(Type.String()),
  idempotencyKey: Type.Optional(Type.String()),
  refusal: Type.Optional(RefusalSchema),
  mustBeActive: Type.Optional(Type.Array(MustBeActiveSchema)),
  outward: Type.Optional(TransferRowSchema),
  inward: Type.Optional(TransferRowSchema),
  journal: Type.Optional(JournalItemSchema),
  hold: Type.Optional(HoldItemSchema),
  daily: Type.Optional(DailySchema),
  events: Type.Optional(Events),
  beneficiary: Type.Optional(BeneficiaryToSaveSchema),
  claims: Type.Optional(Claims),
  sweep: Type.Optional(SweepItemSchema),
});
export type PlaceItem = Static<typeof PlaceItemSchema>;

export const PlaceResultSchema = Type.Union([
  Type.Object({ kind: Type.Literal('placed') }),
  Type.Object({ kind: Type.Literal('replay'), transferId: Type.String() }),
]);

export const transferPlacement = batchKind({
  apply: 'transfer_place_one',
  locks: 'transfer_place_locks',
  item: PlaceItemSchema,
  result: PlaceResultSchema,
});

/** One rail answer (prepared by outbound/transfer-settlement.ts), for transfer_settle_one. */
export const SettleItemSchema = Type.Object({
  transferId: Type.String(),
  status: Type.Union([
    Type.Literal('Processing'),
    Type.Literal('Completed'),
    Type.Literal('Failed'),
  ]),
  responseCode: NullableText,
  responseMessage: NullableText,
  at: TimeText,
  nextStatusQueryAt: Type.Optional(TimeText),
  journal: Type.Optional(JournalItemSchema),
  event: Type.Optional(OutboxEventItemSchema),
  beneficiary: Type.Optional(BeneficiaryToSaveSchema),
});
export type SettleItem = Static<typeof SettleItemSchema>;

export const SettleResultSchema = Type.Union([
  Type.Object({ kind: Type.Literal('settled') }),
  Type.Object({ kind: Type.Literal('unchanged') }),
]);

export const transferSettlement = batchKind({
  apply: 'transfer_settle_one',
  locks: 'transfer_settle_locks',
  item: SettleItemSchema,
  result: SettleResultSchema,
});

/** One credit from another bank (inbound/inbound-credit-service.ts), for transfer_receive_one. */
export const ReceiveItemSchema = Type.Object({
  at: TimeText,
  transfer: TransferRowSchema,
  journal: JournalItemSchema,
  events: Events,
  claims: Type.Optional(Claims),
  sweep: Type.Optional(SweepItemSchema),
});
export type ReceiveItem = Static<typeof ReceiveItemSchema>;

export const ReceiveResultSchema = Type.Union([
  Type.Object({ kind: Type.Literal('received') }),
  Type.Object({ kind: Type.Literal('duplicate') }),
]);

export const transferReceipt = batchKind({
  apply: 'transfer_receive_one',
  locks: 'transfer_receive_locks',
  item: ReceiveItemSchema,
  result: ReceiveResultSchema,
});

/**
 * One return of a Completed NIP transfer (prepared by outbound/transfer-return.ts), for
 * transfer_return_one: the journal that gives the customer back what the settlement took, and
 * the `transfer` event with the transfer as it then stands (Reversed).
 */
export const ReturnItemSchema = Type.Object({
  transferId: Type.String(),
  /** The return's own session id: the transfer's reversalReference. */
  returnSessionId: Type.String(),
  at: TimeText,
  journal: JournalItemSchema,
  event: OutboxEventItemSchema,
});
export type ReturnItem = Static<typeof ReturnItemSchema>;

export const ReturnResultSchema = Type.Union([
  Type.Object({ kind: Type.Literal('returned') }),
  /** Not Completed any more (returned already, by a resent or racing notice): nothing moved. */
  Type.Object({ kind: Type.Literal('unchanged') }),
]);

export const transferReturn = batchKind({
  apply: 'transfer_return_one',
  locks: 'transfer_return_locks',
  item: ReturnItemSchema,
  result: ReturnResultSchema,
});

/**
 * The `account.lien` events of a lien a clawback may place, rendered by lienView with an amount
 * and an outstanding of 0 (the call writes in the shortfall: transfer_lien_event): `placed`, sent
 * with the clawback, and `filled`, kept with the lien and sent when a credit pays its last kobo
 * (its updatedAt, the Unix epoch, becomes that time).
 */
const LienEventsSchema = Type.Object({
  placed: OutboxEventItemSchema,
  filled: OutboxEventItemSchema,
});

/** What the ledger hands transfer_lien_filled when the lien is paid (ledger_fill_liens). */
export const LienFilledNoticeSchema = Type.Object({
  handler: Type.Literal('transfer_lien_filled'),
  accountId: Type.String(),
  event: OutboxEventItemSchema,
});

/** The lien a clawback places for what its debtor lacks (ledger_post_clawback). */
const ClawbackLienSchema = Type.Object({
  ...LienItemSchema.properties,
  onFilled: LienFilledNoticeSchema,
});

/**
 * One recall of a credit another bank sent (prepared by inbound/inbound-recall.ts), for
 * transfer_recall_one: the journal that pays the sending bank back in full and debits the
 * account the whole credit (ledger_post_clawback turns what it lacks into the lien), the Inwards
 * transfer's `transfer` event (Reversed), and the lien's events if one is placed.
 */
export const RecallItemSchema = Type.Object({
  transferId: Type.String(),
  /** The recall's own session id: the credit's reversalReference. */
  recallSessionId: Type.String(),
  at: TimeText,
  journal: JournalItemSchema,
  lien: ClawbackLienSchema,
  event: OutboxEventItemSchema,
  lienEvents: LienEventsSchema,
});
export type RecallItem = Static<typeof RecallItemSchema>;

export const ClawbackResultSchema = Type.Union([
  /** Applied: `lienKobo` is what the debtor lacked (0: no lien). */
  Type.Object({ kind: Type.Literal('applied'), lienKobo: KoboText }),
  /** Not Completed any more (recalled or reversed already, by a resent or racing call). */
  Type.Object({ kind: Type.Literal('unchanged') }),
]);

export const inboundRecall = batchKind({
  apply: 'transfer_recall_one',
  locks: 'transfer_clawback_locks',
  item: RecallItemSchema,
  result: ClawbackResultSchema,
});

/**
 * One operator reversal of an intra-bank transfer (prepared by intra-bank/transfer-reversal.ts),
 * for transfer_reverse_one: both rows become Reversed, the beneficiary is debited what it was
 * credited (less the collection charges, given back), the sender credited the amount.
 */
export const ReverseItemSchema = Type.Object({
  outwardId: Type.String(),
  inwardId: Type.String(),
  /** The reversal's id: both transfers' reversalReference. */
  reversalId: Type.String(),
  at: TimeText,
  journal: JournalItemSchema,
  lien: ClawbackLienSchema,
  /** The sender's `transfer` event, then the beneficiary's (both Reversed). */
  outwardEvent: OutboxEventItemSchema,
  inwardEvent: OutboxEventItemSchema,
  lienEvents: LienEventsSchema,
});
export type ReverseItem = Static<typeof ReverseItemSchema>;

export const transferReversal = batchKind({
  apply: 'transfer_reverse_one',
  locks: 'transfer_clawback_locks',
  item: ReverseItemSchema,
  result: ClawbackResultSchema,
});

/**
 * One operator release of a lien (prepared by liens/lien-release.ts), for
 * transfer_lien_release_one: what is outstanding written off, the `account.lien` event
 * (released) sent.
 */
export const LienReleaseItemSchema = Type.Object({
  lienId: Type.String(),
  accountId: Type.String(),
  operator: Type.String(),
  at: TimeText,
  journal: WriteOffJournalSchema,
  event: OutboxEventItemSchema,
});
export type LienReleaseItem = Static<typeof LienReleaseItemSchema>;

export const LienReleaseResultSchema = Type.Union([
  Type.Object({ kind: Type.Literal('released'), writtenOffKobo: KoboText }),
  /** Not active any more (paid, or released by a racing call): nothing moved. */
  Type.Object({ kind: Type.Literal('unchanged') }),
]);

export const lienRelease = batchKind({
  apply: 'transfer_lien_release_one',
  locks: 'transfer_lien_release_locks',
  item: LienReleaseItemSchema,
  result: LienReleaseResultSchema,
});
