import { AppError } from '../../errors/app-error.ts';
import { ok } from '../../http/envelope.ts';
import type { Purchase } from './vas-purchase.ts';
import { purchaseView } from './vas-view.ts';

/**
 * The answer to a purchase: the published success message when the biller delivered, a pending
 * message when it has not yet (the money stays held; a `vas.transaction` event tells the end),
 * and VAS_PURCHASE_FAILED when it declined (the hold was voided: nothing was charged).
 */
export function purchaseAnswer(purchase: Purchase, delivered: string) {
  if (purchase.status === 'failed') {
    throw new AppError('VAS_PURCHASE_FAILED', purchase.failureMessage ?? undefined, {
      details: [
        { field: 'id', message: purchase.id },
        { field: 'reference', message: purchase.reference },
      ],
    });
  }
  const message =
    purchase.status === 'successful'
      ? delivered
      : 'The purchase is pending with the biller; its final status follows.';
  return ok(message, purchaseView(purchase));
}
