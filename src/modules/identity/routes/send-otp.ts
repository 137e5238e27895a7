import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { InitiationSchema, SendOtpBody } from '../identity-schemas.ts';
import type { IdentityService } from '../identity-service.ts';
import { initiationView } from '../identity-view.ts';

export interface SendOtpRouteOptions {
  readonly identityService: Pick<IdentityService, 'resendOtp'>;
}

/** The legacy POST /identity/send-otp `{ number }`: a new OTP for a pending verification. */
export const sendOtpRoute: FastifyPluginAsyncTypebox<SendOtpRouteOptions> = async (
  app,
  { identityService },
) => {
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
};
