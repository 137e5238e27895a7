import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { CheckoutConfig } from '../../../config/checkout-config.ts';
import { AppError } from '../../../errors/app-error.ts';
import { checkoutAssetRoutes } from './checkout-assets.ts';
import {
  type CreateCheckoutSessionRouteOptions,
  createCheckoutSessionRoute,
} from './create-checkout-session.ts';
import {
  type GetCheckoutSessionRouteOptions,
  getCheckoutSessionRoute,
} from './get-checkout-session.ts';
import { type OpenBankTransferRouteOptions, openBankTransferRoute } from './open-bank-transfer.ts';
import { type OpenUssdRouteOptions, openUssdRoute } from './open-ussd.ts';
import {
  type SimulateCheckoutPaymentRouteOptions,
  simulateCheckoutPaymentRoute,
} from './simulate-checkout-payment.ts';

export { type VerifyCheckoutRouteOptions, verifyCheckoutRoute } from './verify-checkout.ts';

export type CheckoutPublicRoutesOptions = Omit<
  CreateCheckoutSessionRouteOptions &
    GetCheckoutSessionRouteOptions &
    OpenBankTransferRouteOptions &
    OpenUssdRouteOptions &
    SimulateCheckoutPaymentRouteOptions,
  'checkoutLimits'
> & { readonly checkoutConfig: CheckoutConfig };

/**
 * Checkout's public side: no access token (a merchant's page has only its public client id),
 * so every route is rate-limited per IP address, and opening sessions per client as well. The
 * widget calls POST /checkout/sessions from the merchant's origin (CORS); the hosted page calls
 * the rest from ours, with its session's token.
 */
export const checkoutPublicRoutes: FastifyPluginAsyncTypebox<CheckoutPublicRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(rateLimit, { global: false });
  // Each limit counts on its own (the plugin's own preHandler runs only the first of several
  // on a request) and refuses in the error envelope: 429 RATE_LIMITED with Retry-After.
  const perMinute = (
    max: number,
    key?: (body: unknown) => string | undefined,
  ): preHandlerAsyncHookHandler => {
    const limit = app.createRateLimit({
      max,
      timeWindow: 60_000,
      ...(key === undefined
        ? {}
        : { keyGenerator: (request) => `client:${key(request.body) ?? request.ip}` }),
    });
    return async (request) => {
      const counted = await limit(request);
      if (!counted.isAllowed && counted.isExceeded) {
        const seconds = String(counted.ttlInSeconds);
        throw new AppError('RATE_LIMITED', `Too many requests. Retry in ${seconds} seconds.`, {
          headers: { 'retry-after': seconds },
        });
      }
    };
  };
  const { checkoutConfig } = options;
  const checkoutLimits = {
    sessions: [
      perMinute(checkoutConfig.sessionsPerMinutePerIp),
      perMinute(checkoutConfig.sessionsPerMinutePerClient, (body) =>
        typeof body === 'object' && body !== null && 'clientId' in body
          ? String(body.clientId)
          : undefined,
      ),
    ],
    page: [perMinute(checkoutConfig.pageCallsPerMinutePerIp)],
  };
  await app.register(checkoutAssetRoutes);
  await app.register(async (widgetCalls) => {
    // Merchant pages on any origin call this one route; no cookies are involved.
    await widgetCalls.register(cors, { origin: '*', methods: ['POST'], maxAge: 600 });
    await widgetCalls.register(createCheckoutSessionRoute, { ...options, checkoutLimits });
  });
  await app.register(getCheckoutSessionRoute, { ...options, checkoutLimits });
  await app.register(openBankTransferRoute, { ...options, checkoutLimits });
  await app.register(openUssdRoute, { ...options, checkoutLimits });
  await app.register(simulateCheckoutPaymentRoute, { ...options, checkoutLimits });
};
