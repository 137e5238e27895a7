/**
 * The VAS module's public face: airtime, data, cable TV and electricity bought from a client's
 * account through a biller (docs/vas.md).
 */

export type { Biller } from './providers/biller.ts';
export { createBillerSimulator } from './providers/biller-simulator.ts';
export { createUnconfiguredBiller } from './providers/unconfigured-biller.ts';
export type { VasCatalogueService } from './vas-catalogue-service.ts';
/** What the wiring builds and registers of this module (docs/architecture.md). */
export { vasModule } from './vas-module.ts';
export { countPendingPurchases } from './vas-purchase-repository.ts';
export type { VasPurchaseService } from './vas-purchase-service.ts';
export {
  CategorySchema,
  ListPurchasesQuery,
  ProductSchema,
  PurchaseTransactionSchema,
} from './vas-schemas.ts';
export { categoryView, productView, purchaseTransactionView } from './vas-view.ts';
