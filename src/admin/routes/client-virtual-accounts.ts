import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  ErrorSchema,
  IdParams,
  pagedEnvelopeSchema,
  paginationQuery,
} from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { findBank } from '../../modules/transfers/index.ts';
import {
  type VirtualAccountService,
  VirtualAccountWithPaymentsSchema,
  virtualAccountWithPaymentsView,
} from '../../modules/virtual-accounts/index.ts';
import type { Clock } from '../../shared/clock.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };

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
        params: IdParams,
        querystring: Type.Object({ ...paginationQuery(25) }),
        response: { 200: pagedEnvelopeSchema(VirtualAccountWithPaymentsSchema), ...errors },
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
