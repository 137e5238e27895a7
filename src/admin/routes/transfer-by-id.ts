import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { type TransferService, transferView } from '../../modules/transfers/index.ts';
import { adminContract } from '../contract/index.ts';

const byId = adminContract['GET /admin/transfers/:id'];

export interface TransferByIdRouteOptions {
  readonly transferService: Pick<TransferService, 'find'>;
}

/**
 * GET /admin/transfers/:id: one transfer by its `_id`, whichever client's it is, as the client's
 * own API shows it; what a reversal changes, so the audit trail reads it as the reversal's
 * before-state.
 */
export const transferByIdRoute: FastifyPluginAsyncTypebox<TransferByIdRouteOptions> = async (
  app,
  { transferService },
) => {
  app.get(
    '/admin/transfers/:id',
    {
      schema: {
        tags: ['Admin'],
        summary: 'A transfer by id, whoever made or received it',
        params: byId.params,
        response: { 200: byId.answer, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => {
      const transfer = await transferService.find(request.params.id);
      return ok('Transfer fetched successfully.', transferView(transfer));
    },
  );
};
