import type { Db } from '../../db/db.ts';
import { recordNotFound } from '../../errors/app-error.ts';
import type { AlertChannel } from './alert-message.ts';
import { liftSuppression, listSuppressedDestinations } from './alert-repository.ts';

/**
 * Operators' view of the destinations a provider refused for good (a mailbox that does not
 * exist, a number that is not one): alerts to them are suppressed until an operator lifts it,
 * once the customer has fixed the address. Lifting lets the next alerts through; the messages
 * suppressed meanwhile stay as they are (they are history, not a queue).
 */
export function createAlertSuppressions(deps: { readonly db: Db }) {
  return {
    list: (page: { page: number; limit: number }) =>
      listSuppressedDestinations(deps.db, { offset: page.page * page.limit, limit: page.limit }),
    async lift(destination: { channel: AlertChannel; destination: string }) {
      const lifted = await liftSuppression(deps.db, destination);
      if (lifted === undefined) {
        throw recordNotFound();
      }
      return lifted;
    },
  };
}

export type AlertSuppressions = ReturnType<typeof createAlertSuppressions>;
