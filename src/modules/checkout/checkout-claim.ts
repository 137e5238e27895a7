import { type Static, Type } from 'typebox';
import { KoboText, TimeText } from '../../ledger/batch.ts';
import { OutboxEventItemSchema } from '../../webhooks/outbox.ts';

/**
 * A payment of a checkout session's method as checkout's SQL judges it inside the payment's own
 * batch item (ledger/batch.ts, claims), after the method's owner accepted it:
 * sql/checkout_session_pay.sql reads these fields. `lock` is the session's order (checkoutOrderLock).
 */
export const CheckoutSessionClaimSchema = Type.Object({
  handler: Type.Literal('checkout_session_pay'),
  lock: Type.String(),
  sessionId: Type.String(),
  channel: Type.Union([Type.Literal('BANK_TRANSFER'), Type.Literal('USSD')]),
  transferId: Type.String(),
  /** What the customer paid, and what the bank took from it (fee, VAT, stamp duty). */
  paidKobo: KoboText,
  feesKobo: KoboText,
  paidAt: TimeText,
  /** When the session is completed (its updatedAt, and the event's time). */
  at: TimeText,
  /** The checkout.payment event, the session rendered as verify will answer it. */
  event: OutboxEventItemSchema,
});
export type CheckoutSessionClaim = Static<typeof CheckoutSessionClaimSchema>;

/**
 * The lock of a session's payments: its order, so that two sessions of one referenceCode (two
 * configs) are never paid at once, each unaware of the other.
 */
export function checkoutOrderLock(session: { clientId: string; referenceCode: string }): string {
  return `checkout:${session.clientId}:${session.referenceCode}`;
}
