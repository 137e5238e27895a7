import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { type IdentityService, verificationOperatorView } from '../../modules/identity/index.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const listVerifications = adminContract['GET /admin/clients/:id/identity-verifications'];

export interface ClientIdentityVerificationsRouteOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  readonly identityService: Pick<IdentityService, 'listWithAccounts'>;
}

/**
 * GET /admin/clients/:id/identity-verifications: the client's identity and credit checks,
 * newest first, masked (never the full number, the OTP or the identity's data), each with the
 * accounts opened with it.
 */
export const clientIdentityVerificationsRoute: FastifyPluginAsyncTypebox<
  ClientIdentityVerificationsRouteOptions
> = async (app, { clientService, identityService }) => {
  app.get(
    '/admin/clients/:id/identity-verifications',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's identity verifications, masked, with the accounts opened with them",
        params: listVerifications.params,
        querystring: listVerifications.query,
        response: { 200: listVerifications.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const { page, limit } = request.query;
      const { verifications, total } = await identityService.listWithAccounts(client.id, {
        page,
        limit,
      });
      return paged(
        'Identity verifications fetched successfully.',
        verifications.map(verificationOperatorView),
        { page, limit, total },
      );
    },
  );
};
