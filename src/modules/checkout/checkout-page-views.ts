import type { Clock } from '../../shared/clock.ts';
import type { UssdService } from '../ussd/index.ts';
import type { CheckoutService } from './checkout-service.ts';
import type { CheckoutSession } from './checkout-session.ts';
import { checkoutPageView } from './checkout-view.ts';

/** Renders a session for the hosted page with what the routes do not know (now, fees, banks). */
export interface CheckoutPageViews {
  page(session: CheckoutSession): ReturnType<typeof checkoutPageView>;
}

/** The hosted page's view: what each method costs the customer, and the banks USSD works at. */
export function createCheckoutPageViews(deps: {
  readonly checkout: Pick<CheckoutService, 'payable'>;
  readonly ussd: Pick<UssdService, 'banks'>;
  readonly clock: Clock;
  readonly environment: 'sandbox' | 'production';
}): CheckoutPageViews {
  return {
    page: (session) =>
      checkoutPageView(session, {
        now: deps.clock.now(),
        environment: deps.environment,
        payable: {
          BANK_TRANSFER: deps.checkout.payable(session, 'BANK_TRANSFER'),
          USSD: deps.checkout.payable(session, 'USSD'),
        },
        banks: deps.ussd.banks(),
      }),
  };
}
