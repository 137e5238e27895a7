import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { purchaseTransactionView, type VasPurchaseService } from '../../modules/vas/index.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const listPurchases = adminContract['GET /admin/clients/:id/vas-purchases'];

export interface ClientVasPurchasesRouteOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  readonly vasPurchaseService: Pick<VasPurchaseService, 'list'>;
}

/**
 * GET /admin/clients/:id/vas-purchases: the client's VAS purchases, newest first, as its own
 * GET /vas/transactions shows them.
 */
export const clientVasPurchasesRoute: FastifyPluginAsyncTypebox<
  ClientVasPurchasesRouteOptions
> = async (app, { clientService, vasPurchaseService }) => {
  app.get(
    '/admin/clients/:id/vas-purchases',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's VAS purchases, newest first",
        params: listPurchases.params,
        querystring: listPurchases.query,
        response: { 200: listPurchases.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const { page, limit, status } = request.query;
      const { purchases, total } = await vasPurchaseService.list(
        { clientId: client.id },
        { ...(status === undefined ? {} : { status }), page, limit },
      );
      return paged('VAS purchases fetched successfully.', purchases.map(purchaseTransactionView), {
        page,
        limit,
        total,
      });
    },
  );
};
