/**
 * The virtual accounts module's public face: time-bound NUBANs that collect one payment for a
 * client's account (docs/virtual-accounts.md). Paid through the transfers module, which reaches
 * them through the Collections port this module implements.
 */

export { virtualAccountRoutes } from './routes/index.ts';
export type { VirtualAccount } from './virtual-account.ts';
export { createVirtualAccountCollections } from './virtual-account-collections.ts';
export { virtualAccountsAsAccounts } from './virtual-account-listing.ts';
export { VirtualAccountWithPaymentsSchema } from './virtual-account-schemas.ts';
export {
  createVirtualAccountService,
  type VirtualAccountService,
} from './virtual-account-service.ts';
export {
  virtualAccountTransferView,
  virtualAccountWithPaymentsView,
} from './virtual-account-view.ts';
