import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  pagedEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { parseDateRange } from '../../../http/date-range.ts';
import { paged } from '../../../http/envelope.ts';
import type { VasPurchaseService } from '../vas-purchase-service.ts';
import { ListPurchasesQuery, PurchaseTransactionSchema } from '../vas-schemas.ts';
import { purchaseTransactionView } from '../vas-view.ts';

export interface ListTransactionsRouteOptions {
  readonly vasPurchaseService: Pick<VasPurchaseService, 'list'>;
}

export const listTransactionsRoute: FastifyPluginAsyncTypebox<
  ListTransactionsRouteOptions
> = async (app, { vasPurchaseService }) => {
  app.get(
    '/vas/transactions',
    {
      schema: {
        tags: ['VAS'],
        summary: 'Your VAS purchases, newest first',
        querystring: ListPurchasesQuery,
        response: {
          200: pagedEnvelopeSchema(PurchaseTransactionSchema),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { fromDate, toDate, page, limit, ...filters } = request.query;
      const { from, to } = parseDateRange(fromDate, toDate);
      const { purchases, total } = await vasPurchaseService.list(request.principal, {
        ...filters,
        ...(from === undefined ? {} : { from }),
        ...(to === undefined ? {} : { to }),
        page,
        limit,
      });
      return paged('Transactions fetched successfully.', purchases.map(purchaseTransactionView), {
        page,
        limit,
        total,
      });
    },
  );
};
