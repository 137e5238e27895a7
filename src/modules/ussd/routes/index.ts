import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type CreateUssdReferenceRouteOptions,
  createUssdReferenceRoute,
} from './create-ussd-reference.ts';
import { type GetUssdReferenceRouteOptions, getUssdReferenceRoute } from './get-ussd-reference.ts';
import { type ListUssdBanksRouteOptions, listUssdBanksRoute } from './list-ussd-banks.ts';
import {
  type ListUssdReferencesRouteOptions,
  listUssdReferencesRoute,
} from './list-ussd-references.ts';

export type UssdRoutesOptions = ListUssdBanksRouteOptions &
  CreateUssdReferenceRouteOptions &
  GetUssdReferenceRouteOptions &
  ListUssdReferencesRouteOptions;

/** Every /ussd-payment route. */
export const ussdRoutes: FastifyPluginAsyncTypebox<UssdRoutesOptions> = async (app, options) => {
  // The bank list first in reading order: /ussd-payment/banks is not a reference.
  await app.register(listUssdBanksRoute, options);
  await app.register(createUssdReferenceRoute, options);
  await app.register(listUssdReferencesRoute, options);
  await app.register(getUssdReferenceRoute, options);
};
