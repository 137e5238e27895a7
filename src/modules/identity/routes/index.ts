import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type InitiateVerificationRouteOptions,
  initiateVerificationRoute,
} from './initiate-verification.ts';
import { type SendOtpRouteOptions, sendOtpRoute } from './send-otp.ts';
import {
  type ValidateVerificationRouteOptions,
  validateVerificationRoute,
} from './validate-verification.ts';

export type IdentityRoutesOptions = InitiateVerificationRouteOptions &
  ValidateVerificationRouteOptions &
  SendOtpRouteOptions;

/** Every /identity route. */
export const identityRoutes: FastifyPluginAsyncTypebox<IdentityRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(initiateVerificationRoute, options);
  await app.register(validateVerificationRoute, options);
  await app.register(sendOtpRoute, options);
};
