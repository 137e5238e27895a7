import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  pagedEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { parseDateRange } from '../../../http/date-range.ts';
import { paged } from '../../../http/envelope.ts';
import { ListTransfersQuery, TransferSchema } from '../transfer-schemas.ts';
import type { TransferService } from '../transfer-service.ts';
import { transferView } from '../transfer-view.ts';

export interface ListTransfersRouteOptions {
  readonly transferService: Pick<TransferService, 'list'>;
}

export const listTransfersRoute: FastifyPluginAsyncTypebox<ListTransfersRouteOptions> = async (
  app,
  { transferService },
) => {
  app.get(
    '/transfers',
    {
      schema: {
        tags: ['Transfers'],
        summary: 'Transfer history, newest first (one account with accountId, else all yours)',
        querystring: ListTransfersQuery,
        response: { 200: pagedEnvelopeSchema(TransferSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { fromDate, toDate, page, limit, ...filters } = request.query;
      const { from, to } = parseDateRange(fromDate, toDate);
      const { transfers, total } = await transferService.list(request.principal, {
        ...filters,
        ...(from === undefined ? {} : { from }),
        ...(to === undefined ? {} : { to }),
        page,
        limit,
      });
      return paged('Transfers fetched successfully.', transfers.map(transferView), {
        page,
        limit,
        total,
      });
    },
  );
};
