/**
 * The checkout module's public face: the Checkout.js widget and hosted payment page served by
 * OpenIBS, the sessions they open, paid by bank transfer (a virtual account) or USSD, and the
 * merchant's verify call (docs/checkout.md).
 */

export { createCheckoutCompletionWorker } from './checkout-completion-worker.ts';
export {
  CheckoutSettingsBody,
  CheckoutSettingsSchema,
  CheckoutVerifySchema,
} from './checkout-schemas.ts';
export {
  type CheckoutSandbox,
  type CheckoutService,
  createCheckoutService,
} from './checkout-service.ts';
export { checkoutPageView, checkoutSettingsView, checkoutVerifyView } from './checkout-view.ts';
export {
  checkoutPublicRoutes,
  checkoutSettingsRoutes,
  verifyCheckoutRoute,
} from './routes/index.ts';
