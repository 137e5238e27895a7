/**
 * What a provider answered for one message (docs/alerts.md, "Providers"): accepted (it is the
 * provider's now), a temporary failure (try again later, with the same id), or a permanent one
 * for this destination (the address or number is no good: it is suppressed).
 */
export type DeliveryOutcome =
  | { readonly kind: 'accepted' }
  | { readonly kind: 'temporary'; readonly error: string }
  | { readonly kind: 'permanent'; readonly error: string };
