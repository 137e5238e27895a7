import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type CreateVirtualAccountRouteOptions,
  createVirtualAccountRoute,
} from './create-virtual-account.ts';
import {
  type DeleteVirtualAccountRouteOptions,
  deleteVirtualAccountRoute,
} from './delete-virtual-account.ts';
import {
  type GetVirtualAccountRouteOptions,
  getVirtualAccountRoute,
} from './get-virtual-account.ts';
import {
  type GetVirtualAccountTransactionsRouteOptions,
  getVirtualAccountTransactionsRoute,
} from './get-virtual-account-transactions.ts';
import {
  type ListVirtualAccountsRouteOptions,
  listVirtualAccountsRoute,
} from './list-virtual-accounts.ts';
import {
  type UpdateVirtualAccountRouteOptions,
  updateVirtualAccountRoute,
} from './update-virtual-account.ts';
import {
  type VirtualAccountTransferStatusRouteOptions,
  virtualAccountTransferStatusRoute,
} from './virtual-account-transfer-status.ts';

export type VirtualAccountRoutesOptions = CreateVirtualAccountRouteOptions &
  GetVirtualAccountRouteOptions &
  UpdateVirtualAccountRouteOptions &
  DeleteVirtualAccountRouteOptions &
  VirtualAccountTransferStatusRouteOptions &
  GetVirtualAccountTransactionsRouteOptions &
  ListVirtualAccountsRouteOptions;

/** Every /virtual-accounts route. */
export const virtualAccountRoutes: FastifyPluginAsyncTypebox<VirtualAccountRoutesOptions> = async (
  app,
  options,
) => {
  // The status route first in reading order: /virtual-accounts/status is not an id.
  await app.register(virtualAccountTransferStatusRoute, options);
  await app.register(createVirtualAccountRoute, options);
  await app.register(listVirtualAccountsRoute, options);
  await app.register(getVirtualAccountRoute, options);
  await app.register(updateVirtualAccountRoute, options);
  await app.register(deleteVirtualAccountRoute, options);
  await app.register(getVirtualAccountTransactionsRoute, options);
};
