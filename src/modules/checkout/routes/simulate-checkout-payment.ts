import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorSchema, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import type { CheckoutLimits } from '../checkout-limits.ts';
import type { CheckoutPageViews } from '../checkout-page-views.ts';
import { CheckoutPageHeaders, CheckoutSessionParams, SimulateBody } from '../checkout-schemas.ts';
import type { CheckoutService } from '../checkout-service.ts';

export interface SimulateCheckoutPaymentRouteOptions {
  readonly checkoutService: Pick<CheckoutService, 'simulate'>;
  readonly checkoutPageViews: CheckoutPageViews;
  readonly checkoutLimits: CheckoutLimits;
}

/**
 * POST /checkout/sessions/:id/simulate (sandbox only): the customer pays the open method, as
 * the sandbox's NIP network or USSD gateway would deliver it; answers the session after.
 */
export const simulateCheckoutPaymentRoute: FastifyPluginAsyncTypebox<
  SimulateCheckoutPaymentRouteOptions
> = async (app, { checkoutService, checkoutPageViews, checkoutLimits }) => {
  app.post(
    '/checkout/sessions/:id/simulate',
    {
      preHandler: checkoutLimits.page,
      schema: {
        tags: ['Checkout'],
        summary: 'Sandbox: the customer pays the open method of a checkout session',
        params: CheckoutSessionParams,
        headers: CheckoutPageHeaders,
        body: SimulateBody,
        response: {
          200: envelopeSchema(Type.Record(Type.String(), Type.Unknown())),
          400: ErrorSchema,
          402: ErrorSchema,
          403: ErrorSchema,
          429: ErrorSchema,
        },
      },
    },
    async (request) => {
      const session = await checkoutService.simulate(
        request.params.id,
        request.headers['x-checkout-token'],
        request.body.method,
      );
      return ok('Sandbox payment made.', checkoutPageViews.page(session));
    },
  );
};
