import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  pagedEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { paged } from '../../../http/envelope.ts';
import { AccountSchema, ListAccountsQuery } from '../account-schemas.ts';
import type { AccountService } from '../account-service.ts';
import { accountView } from '../account-view.ts';

export interface ListAccountsRouteOptions {
  readonly accountService: Pick<AccountService, 'listAccounts'>;
  readonly institutionCode: string;
}

export const listAccountsRoute: FastifyPluginAsyncTypebox<ListAccountsRouteOptions> = async (
  app,
  { accountService, institutionCode },
) => {
  app.get(
    '/accounts',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'List your main accounts, or your sub-accounts',
        querystring: ListAccountsQuery,
        response: { 200: pagedEnvelopeSchema(AccountSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { accounts, total } = await accountService.listAccounts(
        request.principal,
        request.query,
      );
      const data = accounts.map((account) => accountView(account, institutionCode));
      return paged('Accounts fetched successfully.', data, { page, limit, total });
    },
  );
};
