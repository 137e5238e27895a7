import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AccountService } from '../account-service.ts';
import { createAccountRoute } from './create-account.ts';
import { getAccountRoute } from './get-account.ts';
import { getStatementRoute } from './get-statement.ts';
import { listAccountsRoute } from './list-accounts.ts';
import { updateAccountRoute } from './update-account.ts';

export interface AccountRoutesOptions {
  readonly accountService: AccountService;
  readonly institutionCode: string;
}

export const accountRoutes: FastifyPluginAsyncTypebox<AccountRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(createAccountRoute, options);
  await app.register(listAccountsRoute, options);
  await app.register(getAccountRoute, options);
  await app.register(updateAccountRoute, options);
  await app.register(getStatementRoute, options);
};
