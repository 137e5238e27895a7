import cors from '@fastify/cors';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { CheckoutConfig } from '../../../config/checkout-config.ts';
import { asPreHandler, type LimitFactory } from '../../../http/plugins/rate-limits.ts';
import type { CheckoutLimits } from '../checkout-limits.ts';
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

export {
  type CheckoutSettingsRoutesOptions,
  checkoutSettingsRoutes,
} from './checkout-settings.ts';
export { type VerifyCheckoutRouteOptions, verifyCheckoutRoute } from './verify-checkout.ts';

export type CheckoutPublicRoutesOptions = Omit<
  CreateCheckoutSessionRouteOptions &
    GetCheckoutSessionRouteOptions &
    OpenBankTransferRouteOptions &
    OpenUssdRouteOptions &
    SimulateCheckoutPaymentRouteOptions,
  'checkoutLimits'
> & { readonly checkoutConfig: CheckoutConfig; readonly limit: LimitFactory };

/**
 * Checkout's public side: no access token (a merchant's page has only its public client id),
 * so every route is rate-limited per IP address, and new sessions per client as well. The
 * widget calls POST /checkout/sessions from the merchant's origin (CORS); the hosted page calls
 * the rest from ours, with its session's token.
 */
export const checkoutPublicRoutes: FastifyPluginAsyncTypebox<CheckoutPublicRoutesOptions> = async (
  app,
  options,
) => {
  // Each limit counts on its own and refuses in the error envelope: 429 with Retry-After.
  const perMinute = (
    name: string,
    max: number,
    key: (request: FastifyRequest) => string,
  ): preHandlerAsyncHookHandler => asPreHandler(options.limit({ name, max, key }));
  const perIp = (request: FastifyRequest) => request.ip;
  // The client a valid config resolved to (set just before its new session is counted).
  const resolvedClient = new WeakMap<FastifyRequest, string>();
  const perClient = options.limit({
    name: 'checkout-sessions-client',
    max: options.checkoutConfig.sessionsPerMinutePerClient,
    key: (request) => resolvedClient.get(request) ?? request.ip,
  });
  const { checkoutConfig } = options;
  const checkoutLimits: CheckoutLimits = {
    sessions: [perMinute('checkout-sessions', checkoutConfig.sessionsPerMinutePerIp, perIp)],
    newSessionOf: async (request, clientId) => {
      resolvedClient.set(request, clientId);
      await perClient(request);
    },
    page: [perMinute('checkout-page', checkoutConfig.pageCallsPerMinutePerIp, perIp)],
  };
  await app.register(checkoutAssetRoutes);
  await app.register(async (widgetCalls) => {
    // @fastify/cors answers preflights on a catch-all `OPTIONS *` route, which would answer
    // them for every path of the API: only the widget's route may, and only a real preflight.
    // Any other OPTIONS is what it is for every other route: one that does not exist.
    widgetCalls.addHook('onRequest', async (request, reply) => {
      if (request.method === 'OPTIONS' && !isWidgetPreflight(request)) {
        return reply.callNotFound();
      }
    });
    // Merchant pages on any origin call this one route with a JSON body; no cookies are involved.
    await widgetCalls.register(cors, {
      origin: '*',
      methods: ['POST'],
      allowedHeaders: ['content-type'],
      maxAge: 600,
    });
    await widgetCalls.register(createCheckoutSessionRoute, { ...options, checkoutLimits });
  });
  await app.register(getCheckoutSessionRoute, { ...options, checkoutLimits });
  await app.register(openBankTransferRoute, { ...options, checkoutLimits });
  await app.register(openUssdRoute, { ...options, checkoutLimits });
  await app.register(simulateCheckoutPaymentRoute, { ...options, checkoutLimits });
};

/** The one path the widget calls from a merchant's page. */
const WIDGET_PATH = '/checkout/sessions';

/** A CORS preflight (an Origin and the method asked for) for the widget's path. */
function isWidgetPreflight(request: FastifyRequest): boolean {
  return (
    request.url.split('?')[0] === WIDGET_PATH &&
    typeof request.headers.origin === 'string' &&
    typeof request.headers['access-control-request-method'] === 'string'
  );
}
