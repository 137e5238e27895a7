import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  ErrorSchema,
  envelopeSchema,
} from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import type { BulkPayoutService } from '../bulk/bulk-payout-service.ts';
import { BulkBatchParams, BulkBatchWithItemsSchema } from '../bulk/bulk-schemas.ts';
import { bulkBatchView, bulkItemView } from '../bulk/bulk-view.ts';

export interface BulkTransferStatusRouteOptions {
  readonly bulkPayouts: Pick<BulkPayoutService, 'get'>;
}

export const bulkTransferStatusRoute: FastifyPluginAsyncTypebox<
  BulkTransferStatusRouteOptions
> = async (app, { bulkPayouts }) => {
  app.get(
    '/transfers/bulk/:id',
    {
      schema: {
        tags: ['Transfers'],
        summary: "A bulk batch's progress and every item's outcome (an OpenIBS extension)",
        params: BulkBatchParams,
        response: {
          200: envelopeSchema(BulkBatchWithItemsSchema),
          404: ErrorSchema,
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { batch, items } = await bulkPayouts.get(request.principal, request.params.id);
      return ok('Bulk transfer fetched successfully.', {
        ...bulkBatchView(batch),
        items: items.map(bulkItemView),
      });
    },
  );
};
