/**
 * The virtual accounts module's public face: time-bound NUBANs that collect one payment for a
 * client's account (docs/virtual-accounts.md). Paid through the transfers module, which reaches
 * them through the Collections port this module implements.
 */

export type { VirtualAccount } from './virtual-account.ts';
export { virtualAccountsAsAccounts } from './virtual-account-listing.ts';
export { VirtualAccountWithPaymentsSchema } from './virtual-account-schemas.ts';
export type { VirtualAccountService } from './virtual-account-service.ts';
export {
  virtualAccountTransferView,
  virtualAccountWithPaymentsView,
} from './virtual-account-view.ts';
/** What the wiring builds and registers of this module (docs/architecture.md). */
export { virtualAccountsModule } from './virtual-accounts-module.ts';
