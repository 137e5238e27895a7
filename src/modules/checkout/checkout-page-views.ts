import type { CheckoutSession } from './checkout-session.ts';
import type { checkoutPageView } from './checkout-view.ts';

/** Renders a session for the hosted page with what the routes do not know (now, fees, banks). */
export interface CheckoutPageViews {
  page(session: CheckoutSession): ReturnType<typeof checkoutPageView>;
}
