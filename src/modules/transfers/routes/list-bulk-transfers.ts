import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  pagedEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { paged } from '../../../http/envelope.ts';
import type { BulkPayoutService } from '../bulk/bulk-payout-service.ts';
import { BulkBatchSchema, ListBulkQuery } from '../bulk/bulk-schemas.ts';
import { bulkBatchView } from '../bulk/bulk-view.ts';

export interface ListBulkTransfersRouteOptions {
  readonly bulkPayouts: Pick<BulkPayoutService, 'list'>;
}

export const listBulkTransfersRoute: FastifyPluginAsyncTypebox<
  ListBulkTransfersRouteOptions
> = async (app, { bulkPayouts }) => {
  app.get(
    '/transfers/bulk',
    {
      schema: {
        tags: ['Transfers'],
        summary: 'Your bulk batches, newest first, with their progress (an OpenIBS extension)',
        querystring: ListBulkQuery,
        response: { 200: pagedEnvelopeSchema(BulkBatchSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { batches, total } = await bulkPayouts.list(request.principal, { page, limit });
      return paged('Bulk transfers fetched successfully.', batches.map(bulkBatchView), {
        page,
        limit,
        total,
      });
    },
  );
};
