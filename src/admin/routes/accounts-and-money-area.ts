import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AccountByNumberRouteOptions, accountByNumberRoute } from './account-by-number.ts';
import { type AccountFreezeRoutesOptions, accountFreezeRoutes } from './account-freezes.ts';
import {
  type ClientAccountStatementRouteOptions,
  clientAccountStatementRoute,
} from './client-account-statement.ts';
import { type ClientAccountsRouteOptions, clientAccountsRoute } from './client-accounts.ts';
import {
  type ClientBulkTransfersRouteOptions,
  clientBulkTransfersRoute,
} from './client-bulk-transfers.ts';
import {
  type ClientCheckoutSessionsRouteOptions,
  clientCheckoutSessionsRoute,
} from './client-checkout-sessions.ts';
import {
  type ClientTransferStoryRouteOptions,
  clientTransferStoryRoute,
} from './client-transfer-story.ts';
import { type ClientTransfersRouteOptions, clientTransfersRoute } from './client-transfers.ts';
import {
  type ClientUssdReferencesRouteOptions,
  clientUssdReferencesRoute,
} from './client-ussd-references.ts';
import {
  type ClientVasPurchasesRouteOptions,
  clientVasPurchasesRoute,
} from './client-vas-purchases.ts';
import {
  type ClientVirtualAccountsRouteOptions,
  clientVirtualAccountsRoute,
} from './client-virtual-accounts.ts';
import { type LedgerOverviewRouteOptions, ledgerOverviewRoute } from './ledger-overview.ts';
import { type LienByIdRouteOptions, lienByIdRoute } from './lien-by-id.ts';
import { type LienRoutesOptions, lienRoutes } from './liens.ts';
import { type TransferByIdRouteOptions, transferByIdRoute } from './transfer-by-id.ts';
import { type TransferReversalRouteOptions, transferReversalRoute } from './transfer-reversals.ts';
import { type VasCatalogueRoutesOptions, vasCatalogueRoutes } from './vas-catalogue.ts';
import { type VasCategoryRouteOptions, vasCategoryRoute } from './vas-category.ts';

export type AccountsAndMoneyRoutesOptions = ClientAccountsRouteOptions &
  ClientAccountStatementRouteOptions &
  AccountFreezeRoutesOptions &
  AccountByNumberRouteOptions &
  LienRoutesOptions &
  LienByIdRouteOptions &
  TransferByIdRouteOptions &
  VasCategoryRouteOptions &
  TransferReversalRouteOptions &
  ClientTransfersRouteOptions &
  ClientBulkTransfersRouteOptions &
  ClientTransferStoryRouteOptions &
  LedgerOverviewRouteOptions &
  ClientVirtualAccountsRouteOptions &
  ClientVasPurchasesRouteOptions &
  ClientUssdReferencesRouteOptions &
  ClientCheckoutSessionsRouteOptions &
  VasCatalogueRoutesOptions;

/**
 * Accounts and what moved through them: a client's accounts and statements, freezes, transfers
 * and their stories, the ledger, virtual accounts, VAS purchases and the catalogue, USSD
 * references and checkout sessions.
 */
export const accountsAndMoneyRoutes: FastifyPluginAsyncTypebox<
  AccountsAndMoneyRoutesOptions
> = async (app, options) => {
  await app.register(clientAccountsRoute, options);
  await app.register(clientAccountStatementRoute, options);
  await app.register(clientTransfersRoute, options);
  await app.register(clientBulkTransfersRoute, options);
  await app.register(clientTransferStoryRoute, options);
  await app.register(ledgerOverviewRoute, options);
  await app.register(accountFreezeRoutes, options);
  await app.register(accountByNumberRoute, options);
  await app.register(lienRoutes, options);
  await app.register(lienByIdRoute, options);
  await app.register(transferByIdRoute, options);
  await app.register(transferReversalRoute, options);
  await app.register(vasCatalogueRoutes, options);
  await app.register(vasCategoryRoute, options);
  await app.register(clientVirtualAccountsRoute, options);
  await app.register(clientVasPurchasesRoute, options);
  await app.register(clientUssdReferencesRoute, options);
  await app.register(clientCheckoutSessionsRoute, options);
};
