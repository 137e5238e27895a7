import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { findBank } from '../../modules/transfers/index.ts';
import {
  type VirtualAccountService,
  virtualAccountWithPaymentsView,
} from '../../modules/virtual-accounts/index.ts';
import type { Clock } from '../../shared/clock.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const listVirtualAccounts = adminContract['GET /admin/clients/:id/virtual-accounts'];

export interface ClientVirtualAccountsRouteOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  readonly virtualAccountService: Pick<VirtualAccountService, 'listWithPayments'>;
  readonly institutionCode: string;
  readonly clock: Clock;
}

/**
 * GET /admin/clients/:id/virtual-accounts: the client's virtual accounts, newest first, deleted
 * ones included, each in the published virtual account object with the payments it received.
 */
export const clientVirtualAccountsRoute: FastifyPluginAsyncTypebox<
  ClientVirtualAccountsRouteOptions
> = async (app, { clientService, virtualAccountService, institutionCode, clock }) => {
  const bankName = findBank(institutionCode, institutionCode)?.name ?? '';
  app.get(
    '/admin/clients/:id/virtual-accounts',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's virtual accounts with their payments, newest first",
        params: listVirtualAccounts.params,
        querystring: listVirtualAccounts.query,
        response: { 200: listVirtualAccounts.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const { page, limit } = request.query;
      const { accounts, total } = await virtualAccountService.listWithPayments(
        { clientId: client.id },
        { page, limit },
      );
      const context = { institutionCode, bankName, now: clock.now() };
      const data = accounts.map((entry) => virtualAccountWithPaymentsView(entry, context));
      return paged('Virtual accounts fetched successfully.', data, { page, limit, total });
    },
  );
};
