import { createPollLoop, type PollLoopOptions } from '../../shared/poll-loop.ts';
import type { CheckoutService } from './checkout-service.ts';

export interface CheckoutCompletionWorkerDeps {
  readonly checkout: Pick<CheckoutService, 'completePaid'>;
  readonly batchSize: number;
  readonly pollIntervalMs: number;
  /** How often one open session is looked at. */
  readonly everySeconds: number;
  readonly onError?: PollLoopOptions['onError'];
  readonly onRecovered?: PollLoopOptions['onRecovered'];
}

/**
 * Completes checkout sessions whose payment arrived while no page was watching (the customer
 * closed it, or paid from their phone much later), so the merchant's checkout.payment event
 * goes out regardless. Several workers share the work (SKIP LOCKED).
 */
export function createCheckoutCompletionWorker(deps: CheckoutCompletionWorkerDeps) {
  const runOnce = () => deps.checkout.completePaid(deps.batchSize, deps.everySeconds);
  const pollLoop = createPollLoop(runOnce, deps);
  return { runOnce, start: pollLoop.start, stop: pollLoop.stop, wake: pollLoop.wake };
}
