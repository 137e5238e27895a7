import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
} from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import type { VasPurchaseService } from '../vas-purchase-service.ts';
import { PurchaseTransactionSchema } from '../vas-schemas.ts';
import { purchaseTransactionView } from '../vas-view.ts';

export interface GetTransactionRouteOptions {
  readonly vasPurchaseService: Pick<VasPurchaseService, 'get'>;
}

export const getTransactionRoute: FastifyPluginAsyncTypebox<GetTransactionRouteOptions> = async (
  app,
  { vasPurchaseService },
) => {
  app.get(
    '/vas/transaction/:id',
    {
      schema: {
        tags: ['VAS'],
        summary: 'One of your VAS purchases',
        params: IdParams,
        response: {
          200: envelopeSchema(PurchaseTransactionSchema),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) =>
      ok(
        'Transaction fetched successfully.',
        purchaseTransactionView(await vasPurchaseService.get(request.principal, request.params.id)),
      ),
  );
};
