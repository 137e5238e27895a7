import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type GetServiceRouteOptions, getServiceRoute } from './get-service.ts';
import { type GetTransactionRouteOptions, getTransactionRoute } from './get-transaction.ts';
import {
  type ListCategoryProductsRouteOptions,
  listCategoryProductsRoute,
} from './list-category-products.ts';
import {
  type ListServiceCategoriesRouteOptions,
  listServiceCategoriesRoute,
} from './list-service-categories.ts';
import { type ListServicesRouteOptions, listServicesRoute } from './list-services.ts';
import { type ListTransactionsRouteOptions, listTransactionsRoute } from './list-transactions.ts';
import { type PayAirtimeRouteOptions, payAirtimeRoute } from './pay-airtime.ts';
import { type PayCableTvRouteOptions, payCableTvRoute } from './pay-cable-tv.ts';
import { type PayDataRouteOptions, payDataRoute } from './pay-data.ts';
import { type PayUtilityRouteOptions, payUtilityRoute } from './pay-utility.ts';
import { type VerifyRouteOptions, verifyRoute } from './verify.ts';

export type VasRoutesOptions = ListServicesRouteOptions &
  GetServiceRouteOptions &
  ListServiceCategoriesRouteOptions &
  ListCategoryProductsRouteOptions &
  VerifyRouteOptions &
  PayAirtimeRouteOptions &
  PayDataRouteOptions &
  PayCableTvRouteOptions &
  PayUtilityRouteOptions &
  ListTransactionsRouteOptions &
  GetTransactionRouteOptions;

/** Every /vas route: the catalogue, verification, purchases and their history. */
export const vasRoutes: FastifyPluginAsyncTypebox<VasRoutesOptions> = async (app, options) => {
  await app.register(listServicesRoute, options);
  await app.register(getServiceRoute, options);
  await app.register(listServiceCategoriesRoute, options);
  await app.register(listCategoryProductsRoute, options);
  await app.register(verifyRoute, options);
  await app.register(payAirtimeRoute, options);
  await app.register(payDataRoute, options);
  await app.register(payCableTvRoute, options);
  await app.register(payUtilityRoute, options);
  await app.register(listTransactionsRoute, options);
  await app.register(getTransactionRoute, options);
};
