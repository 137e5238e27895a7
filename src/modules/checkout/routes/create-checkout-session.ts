import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { parseAmount } from '../../../http/amount.ts';
import { ErrorSchema, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import type { Kobo } from '../../../shared/money.ts';
import type { CheckoutLimits } from '../checkout-limits.ts';
import { CreateCheckoutSessionBody } from '../checkout-schemas.ts';
import type { CheckoutService } from '../checkout-service.ts';

export interface CreateCheckoutSessionRouteOptions {
  readonly checkoutService: Pick<CheckoutService, 'open'>;
  readonly maxAmountKobo: Kobo;
  readonly checkoutLimits: CheckoutLimits;
}

/**
 * POST /checkout/sessions: the widget opens (or reopens) the session for its config, from the
 * merchant's page, with only the public OAuth client id. Answers where the hosted page is.
 */
export const createCheckoutSessionRoute: FastifyPluginAsyncTypebox<
  CreateCheckoutSessionRouteOptions
> = async (app, { checkoutService, maxAmountKobo, checkoutLimits }) => {
  app.post(
    '/checkout/sessions',
    {
      preHandler: checkoutLimits.sessions,
      schema: {
        tags: ['Checkout'],
        summary: 'Open the checkout session of a Checkout.js config (called by the widget)',
        body: CreateCheckoutSessionBody,
        response: {
          200: envelopeSchema(
            Type.Object({
              sessionId: Type.String(),
              pageUrl: Type.String({ description: 'The hosted page, its token in the fragment.' }),
              status: Type.String(),
            }),
          ),
          400: ErrorSchema,
          403: ErrorSchema,
          409: ErrorSchema,
          429: ErrorSchema,
        },
      },
    },
    async (request) => {
      const body = request.body;
      const origin = request.headers.origin;
      const { session, pageToken } = await checkoutService.open(
        {
          environment: body.environment,
          clientId: body.clientId,
          referenceCode: body.referenceCode,
          customer: { ...body.customer, phoneNumber: body.customer.phoneNumber ?? null },
          currency: body.currency,
          amountKobo: parseAmount(body.amount, maxAmountKobo),
          feeBearer: body.feeBearer ?? 'account',
          settlementAccount: body.settlementAccount,
          redirectUrl: body.redirectUrl,
          webhookUrl: body.webhookUrl,
          customIconUrl: body.customIconUrl,
          metadata: body.metadata,
        },
        typeof origin === 'string' && origin !== 'null' ? origin : null,
        (clientId) => checkoutLimits.newSessionOf(request, clientId),
      );
      return ok('Checkout session opened successfully.', {
        sessionId: session.id,
        pageUrl: `/checkout/pay/${session.id}#${pageToken}`,
        status: session.status,
      });
    },
  );
};
