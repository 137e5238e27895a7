import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  pagedEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { parseDateRange } from '../../../http/date-range.ts';
import { paged } from '../../../http/envelope.ts';
import { ListVirtualAccountsQuery, VirtualAccountSchema } from '../virtual-account-schemas.ts';
import type { VirtualAccountService } from '../virtual-account-service.ts';
import { type VirtualAccountViewContext, virtualAccountView } from '../virtual-account-view.ts';

export interface ListVirtualAccountsRouteOptions {
  readonly virtualAccountService: Pick<VirtualAccountService, 'list'>;
  readonly viewContext: () => VirtualAccountViewContext;
}

export const listVirtualAccountsRoute: FastifyPluginAsyncTypebox<
  ListVirtualAccountsRouteOptions
> = async (app, { virtualAccountService, viewContext }) => {
  app.get(
    '/virtual-accounts',
    {
      schema: {
        tags: ['Virtual accounts'],
        summary: 'List your virtual accounts, newest first (deleted ones are gone)',
        querystring: ListVirtualAccountsQuery,
        response: {
          200: pagedEnvelopeSchema(VirtualAccountSchema),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { fromDate, toDate, page, limit, ...filters } = request.query;
      const { from, to } = parseDateRange(fromDate, toDate);
      const { accounts, total } = await virtualAccountService.list(request.principal, {
        ...filters,
        ...(from === undefined ? {} : { from }),
        ...(to === undefined ? {} : { to }),
        page,
        limit,
      });
      const context = viewContext();
      const data = accounts.map((account) => virtualAccountView(account, context));
      return paged('Virtual accounts fetched successfully.', data, { page, limit, total });
    },
  );
};
