import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { type BulkPayoutService, bulkBatchView } from '../../modules/transfers/index.ts';
import { adminContract } from '../contract/index.ts';

const listBatches = adminContract['GET /admin/clients/:id/bulk-transfers'];

export interface ClientBulkTransfersRouteOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  readonly bulkPayouts: Pick<BulkPayoutService, 'list'>;
}

/**
 * GET /admin/clients/:id/bulk-transfers: the client's bulk batches with their progress, newest
 * first, as the client's GET /transfers/bulk lists them (docs/bulk-payouts.md).
 */
export const clientBulkTransfersRoute: FastifyPluginAsyncTypebox<
  ClientBulkTransfersRouteOptions
> = async (app, { clientService, bulkPayouts }) => {
  app.get(
    '/admin/clients/:id/bulk-transfers',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's bulk transfer batches with their progress, newest first",
        params: listBatches.params,
        querystring: listBatches.query,
        response: { 200: listBatches.answer, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const { page, limit } = request.query;
      const { batches, total } = await bulkPayouts.list({ clientId: client.id }, { page, limit });
      return paged('Bulk transfers fetched successfully.', batches.map(bulkBatchView), {
        page,
        limit,
        total,
      });
    },
  );
};
