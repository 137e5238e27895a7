import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type CreateAccountRouteOptions, createAccountRoute } from './create-account.ts';
import { type CreateSubAccountRouteOptions, createSubAccountRoute } from './create-sub-account.ts';
import { type GetAccountRouteOptions, getAccountRoute } from './get-account.ts';
import { type GetStatementRouteOptions, getStatementRoute } from './get-statement.ts';
import { type ListAccountsRouteOptions, listAccountsRoute } from './list-accounts.ts';
import { type ListLiensRouteOptions, listLiensRoute } from './list-liens.ts';
import { type UpdateAccountRouteOptions, updateAccountRoute } from './update-account.ts';
import { type UpdateSubAccountRouteOptions, updateSubAccountRoute } from './update-sub-account.ts';

export type AccountRoutesOptions = CreateAccountRouteOptions &
  GetAccountRouteOptions &
  GetStatementRouteOptions &
  ListLiensRouteOptions &
  ListAccountsRouteOptions &
  UpdateAccountRouteOptions &
  CreateSubAccountRouteOptions &
  UpdateSubAccountRouteOptions;

/** Every /accounts route: accounts, statements, liens and sub-accounts. */
export const accountRoutes: FastifyPluginAsyncTypebox<AccountRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(createAccountRoute, options);
  await app.register(listAccountsRoute, options);
  await app.register(getAccountRoute, options);
  await app.register(updateAccountRoute, options);
  await app.register(getStatementRoute, options);
  await app.register(listLiensRoute, options);
  await app.register(createSubAccountRoute, options);
  await app.register(updateSubAccountRoute, options);
};
