import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { lienView } from '../../modules/accounts/index.ts';
import type { LienService } from '../../modules/transfers/index.ts';
import { adminContract } from '../contract/index.ts';

const byId = adminContract['GET /admin/liens/:id'];

export interface LienByIdRouteOptions {
  readonly liens: Pick<LienService, 'get'>;
}

/**
 * GET /admin/liens/:id: one lien, whichever account owes it; what a release changes, so the
 * audit trail reads it as the release's before-state.
 */
export const lienByIdRoute: FastifyPluginAsyncTypebox<LienByIdRouteOptions> = async (
  app,
  { liens },
) => {
  app.get(
    '/admin/liens/:id',
    {
      schema: {
        tags: ['Admin'],
        summary: 'A lien by id: what it was for, what it still owes, who released it',
        params: byId.params,
        response: { 200: byId.answer, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) =>
      ok('Lien fetched successfully.', lienView(await liens.get(request.params.id))),
  );
};
