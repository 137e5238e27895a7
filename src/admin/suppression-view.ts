import type { SuppressedDestination } from '../modules/alerts/index.ts';

/** A suppressed alert destination as the admin API shows it. */
export function suppressionView(suppressed: SuppressedDestination) {
  return {
    channel: suppressed.channel,
    destination: suppressed.destination,
    reason: suppressed.reason,
    createdAt: suppressed.createdAt.toISOString(),
  };
}
