import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { parseDateRange } from '../../http/date-range.ts';
import { paged } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { type TransferService, transferView } from '../../modules/transfers/index.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const listTransfers = adminContract['GET /admin/clients/:id/transfers'];

export interface ClientTransfersRouteOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  readonly transferService: Pick<TransferService, 'list'>;
}

/**
 * GET /admin/clients/:id/transfers: the client's transfers, sent and received, intra-bank and
 * NIP, newest first, in the published transfer object (the client's GET /transfers history).
 */
export const clientTransfersRoute: FastifyPluginAsyncTypebox<ClientTransfersRouteOptions> = async (
  app,
  { clientService, transferService },
) => {
  app.get(
    '/admin/clients/:id/transfers',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's transfers, sent and received, newest first",
        params: listTransfers.params,
        querystring: listTransfers.query,
        response: { 200: listTransfers.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const { page, limit, status, direction, fromDate, toDate } = request.query;
      const { from, to } = parseDateRange(fromDate, toDate);
      const { transfers, total } = await transferService.list(
        { clientId: client.id },
        {
          ...(status === undefined ? {} : { status }),
          ...(direction === undefined ? {} : { type: direction }),
          ...(from === undefined ? {} : { from }),
          ...(to === undefined ? {} : { to }),
          page,
          limit,
        },
      );
      return paged('Transfers fetched successfully.', transfers.map(transferView), {
        page,
        limit,
        total,
      });
    },
  );
};
