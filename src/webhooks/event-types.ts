/**
 * Event types OpenIBS sends. The envelope is `{ type, data }` where `data` is the same object the
 * API returns for that resource (docs/webhooks.md lists each with an example).
 */
export const WEBHOOK_EVENT_TYPES = [
  'transfer',
  'transfer.bulk.completed',
  'virtualAccount.transfer',
  'vas.transaction',
  'ussd.payment',
  'checkout.payment',
  /** A lien on an account placed, paid in full, or released (docs/webhooks.md). */
  'account.lien',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export type WebhookEventStatus = 'pending' | 'delivered' | 'failed';
