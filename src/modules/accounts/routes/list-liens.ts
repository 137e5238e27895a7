import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
} from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { LienSchema } from '../account-schemas.ts';
import type { AccountService } from '../account-service.ts';
import { lienView } from '../lien-view.ts';

export interface ListLiensRouteOptions {
  readonly accountService: Pick<AccountService, 'liens'>;
}

/**
 * GET /accounts/:id/liens (an OpenIBS extension): what the account owes the bank after a credit
 * was recalled or a transfer reversed when it no longer held the money, oldest first, each with
 * its reason. Its `lockedBalance` counts what they still owe (docs/api.md, "Liens").
 */
export const listLiensRoute: FastifyPluginAsyncTypebox<ListLiensRouteOptions> = async (
  app,
  { accountService },
) => {
  app.get(
    '/accounts/:id/liens',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Liens on one of your accounts (extension): what it owes the bank, and why',
        params: IdParams,
        response: {
          200: envelopeSchema(Type.Array(LienSchema)),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const liens = await accountService.liens(request.principal, request.params.id);
      return ok('Liens fetched successfully.', liens.map(lienView));
    },
  );
};
