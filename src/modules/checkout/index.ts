/**
 * The checkout module's public face: the Checkout.js widget and hosted payment page served by
 * OpenIBS, the sessions they open, paid by bank transfer (a virtual account) or USSD, and the
 * merchant's verify call (docs/checkout.md).
 */

/** What the wiring builds and registers of this module (docs/architecture.md). */
export { createCheckoutCollections } from './checkout-collections.ts';
export { checkoutModule } from './checkout-module.ts';
export {
  CheckoutSettingsBody,
  CheckoutSettingsSchema,
  CheckoutVerifySchema,
} from './checkout-schemas.ts';
export type { CheckoutSandbox, CheckoutService } from './checkout-service.ts';
export { checkoutSettingsView, checkoutVerifyView } from './checkout-view.ts';
