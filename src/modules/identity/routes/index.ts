import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import {
  InitiateVerificationBody,
  InitiationSchema,
  SendOtpBody,
  ValidateVerificationBody,
  VerificationSchema,
} from '../identity-schemas.ts';
import type { IdentityService } from '../identity-service.ts';
import { initiationView, verificationView } from '../identity-view.ts';

export interface IdentityRoutesOptions {
  readonly identityService: IdentityService;
}

/** POST /identity/v2 and /identity/v2/validate (ibs-api-reference §4.7), and the legacy paths. */
export const identityRoutes: FastifyPluginAsyncTypebox<IdentityRoutesOptions> = async (
  app,
  { identityService },
) => {
  // `/identity` (with or without the trailing slash) is the legacy path integrations still call.
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

  app.post(
    '/identity/send-otp',
    {
      schema: {
        tags: ['Identity'],
        summary: 'Legacy: send a new OTP for your pending verification of this number',
        deprecated: true,
        body: SendOtpBody,
        response: { 200: envelopeSchema(InitiationSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const verification = await identityService.resendOtp(
        request.principal,
        String(request.body.number),
      );
      return ok('OTP sent successfully.', initiationView(verification));
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
