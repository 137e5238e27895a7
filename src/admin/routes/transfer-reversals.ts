import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { lienView } from '../../modules/accounts/index.ts';
import { type TransferReversalService, transferView } from '../../modules/transfers/index.ts';
import { adminContract } from '../contract/index.ts';

const reversal = adminContract['POST /admin/transfers/:id/reversal'];

export interface TransferReversalRouteOptions {
  readonly transferReversals: Pick<TransferReversalService, 'reverse'>;
}

/**
 * POST /admin/transfers/:id/reversal: an operator reverses an intra-bank transfer made in error
 * (either side's `_id`), with the reason. Executed once: asked again, even at once, it answers
 * the reversal as it was done. The audit trail records the authenticated operator and the
 * transfer (docs/api.md, "Operator reversals").
 */
export const transferReversalRoute: FastifyPluginAsyncTypebox<
  TransferReversalRouteOptions
> = async (app, { transferReversals }) => {
  app.post(
    '/admin/transfers/:id/reversal',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Reverse an intra-bank transfer made in error (once, whatever the retries)',
        params: reversal.params,
        body: reversal.body,
        response: { 200: reversal.answer, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => {
      const done = await transferReversals.reverse(request.params.id, request.body.reason.trim());
      const [lien] = done.liens;
      return ok('Transfer reversed.', {
        outward: transferView(done.outward),
        inward: transferView(done.inward),
        lien: lien === undefined ? null : lienView(lien),
      });
    },
  );
};
