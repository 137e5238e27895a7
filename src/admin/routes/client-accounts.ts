import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import { type AccountService, accountView } from '../../modules/accounts/index.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const listAccounts = adminContract['GET /admin/clients/:id/accounts'];

export interface ClientAccountsRouteOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  readonly accountService: Pick<AccountService, 'listAllAccounts'>;
  readonly institutionCode: string;
}

/**
 * GET /admin/clients/:id/accounts: every account of the client with its balances, main accounts
 * first, then sub-accounts, each newest first (virtual accounts have their own route).
 */
export const clientAccountsRoute: FastifyPluginAsyncTypebox<ClientAccountsRouteOptions> = async (
  app,
  { clientService, accountService, institutionCode },
) => {
  app.get(
    '/admin/clients/:id/accounts',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's accounts with their balances: main accounts, then sub-accounts",
        params: listAccounts.params,
        querystring: listAccounts.query,
        response: { 200: listAccounts.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const { page, limit, accountNumber } = request.query;
      const { accounts, total } = await accountService.listAllAccounts(client.id, {
        page,
        limit,
        accountNumber,
      });
      const data = accounts.map((account) => accountView(account, institutionCode));
      return paged('Accounts fetched successfully.', data, { page, limit, total });
    },
  );
};
