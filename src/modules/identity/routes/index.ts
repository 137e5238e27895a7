import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import {
  InitiateVerificationBody,
  ValidateVerificationBody,
  VerificationSchema,
} from '../identity-schemas.ts';
import type { IdentityService } from '../identity-service.ts';
import { verificationView } from '../identity-view.ts';

export interface IdentityRoutesOptions {
  readonly identityService: IdentityService;
}

/** POST /identity/v2 and POST /identity/v2/validate (ibs-api-reference §4.7). */
export const identityRoutes: FastifyPluginAsyncTypebox<IdentityRoutesOptions> = async (
  app,
  { identityService },
) => {
  app.post(
    '/identity/v2',
    {
      schema: {
        tags: ['Identity'],
        summary: 'Initiate an identity or credit check (charged to debitAccountNumber)',
        body: InitiateVerificationBody,
        response: { 200: envelopeSchema(VerificationSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { number, async: _async, ...body } = request.body;
      const verification = await identityService.initiate(request.principal, {
        ...body,
        number: String(number),
      });
      return ok('Verification initiated successfully.', verificationView(verification));
    },
  );

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
