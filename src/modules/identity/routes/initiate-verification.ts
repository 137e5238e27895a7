import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { InitiateVerificationBody, InitiationSchema } from '../identity-schemas.ts';
import type { IdentityService } from '../identity-service.ts';
import { initiationView } from '../identity-view.ts';

export interface InitiateVerificationRouteOptions {
  readonly identityService: Pick<IdentityService, 'initiate'>;
}

/**
 * POST /identity/v2 (ibs-api-reference §4.7.1), and the legacy `/identity` (with or without the
 * trailing slash) that older integrations still call.
 */
export const initiateVerificationRoute: FastifyPluginAsyncTypebox<
  InitiateVerificationRouteOptions
> = async (app, { identityService }) => {
  for (const url of ['/identity/v2', '/identity', '/identity/']) {
    app.post(
      url,
      {
        schema: {
          tags: ['Identity'],
          summary: 'Initiate an identity or credit check (charged to debitAccountNumber)',
          ...(url === '/identity/v2' ? {} : { deprecated: true }),
          body: InitiateVerificationBody,
          response: { 200: envelopeSchema(InitiationSchema), ...AUTHENTICATED_ERROR_RESPONSES },
        },
      },
      async (request) => {
        const { number, async: _async, ...body } = request.body;
        const verification = await identityService.initiate(request.principal, {
          ...body,
          number: String(number),
        });
        return ok('Verification initiated successfully.', initiationView(verification));
      },
    );
  }
};
