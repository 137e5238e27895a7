import { createPendingWorker, type PendingWorkerSettings } from '../../shared/poll-loop.ts';
import type { CheckoutService } from './checkout-service.ts';

/**
 * Completes checkout sessions whose payment arrived while no page was watching (the customer
 * closed it, or paid from their phone much later), so the merchant's checkout.payment event
 * goes out regardless. Each open session is looked at every `everySeconds`.
 */
export function createCheckoutCompletionWorker(
  deps: Omit<PendingWorkerSettings, 'claimSeconds'> & {
    readonly checkout: Pick<CheckoutService, 'claimAwaitingPayment' | 'completeIfPaid'>;
    readonly everySeconds: number;
  },
) {
  return createPendingWorker({
    ...deps,
    claimSeconds: deps.everySeconds,
    claim: (due) => deps.checkout.claimAwaitingPayment(due),
    handle: (session) => deps.checkout.completeIfPaid(session),
  });
}
