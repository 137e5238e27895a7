import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorSchema, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import type { CheckoutLimits } from '../checkout-limits.ts';
import type { CheckoutPageViews } from '../checkout-page-views.ts';
import { CheckoutPageHeaders, CheckoutSessionParams } from '../checkout-schemas.ts';
import type { CheckoutService } from '../checkout-service.ts';

export interface GetCheckoutSessionRouteOptions {
  readonly checkoutService: Pick<CheckoutService, 'forPage'>;
  readonly checkoutPageViews: CheckoutPageViews;
  readonly checkoutLimits: CheckoutLimits;
}

/** GET /checkout/sessions/:id: what the hosted page shows, polled until the session is paid. */
export const getCheckoutSessionRoute: FastifyPluginAsyncTypebox<
  GetCheckoutSessionRouteOptions
> = async (app, { checkoutService, checkoutPageViews, checkoutLimits }) => {
  app.get(
    '/checkout/sessions/:id',
    {
      preHandler: checkoutLimits.page,
      schema: {
        tags: ['Checkout'],
        summary: 'The hosted page: its session, brought up to date (polled)',
        params: CheckoutSessionParams,
        headers: CheckoutPageHeaders,
        response: {
          200: envelopeSchema(Type.Record(Type.String(), Type.Unknown())),
          400: ErrorSchema,
          429: ErrorSchema,
        },
      },
    },
    async (request) => {
      const session = await checkoutService.forPage(
        request.params.id,
        request.headers['x-checkout-token'],
      );
      return ok('Checkout session fetched successfully.', checkoutPageViews.page(session));
    },
  );
};
