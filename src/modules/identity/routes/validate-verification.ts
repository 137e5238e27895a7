import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { ValidateVerificationBody, VerificationSchema } from '../identity-schemas.ts';
import type { IdentityService } from '../identity-service.ts';
import { verificationView } from '../identity-view.ts';

export interface ValidateVerificationRouteOptions {
  readonly identityService: Pick<IdentityService, 'validate'>;
}

/** POST /identity/v2/validate (ibs-api-reference §4.7.2). */
export const validateVerificationRoute: FastifyPluginAsyncTypebox<
  ValidateVerificationRouteOptions
> = async (app, { identityService }) => {
  app.post(
    '/identity/v2/validate',
    {
      schema: {
        tags: ['Identity'],
        summary: 'Validate a verification with the OTP the customer received',
        body: ValidateVerificationBody,
        response: { 200: envelopeSchema(VerificationSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const verification = await identityService.validate(request.principal, request.body);
      return ok('Verification validated successfully.', verificationView(verification));
    },
  );
};
