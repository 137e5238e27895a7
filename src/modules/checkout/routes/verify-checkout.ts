import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import type { Clock } from '../../../shared/clock.ts';
import { CheckoutVerifySchema, VerifyParams } from '../checkout-schemas.ts';
import type { CheckoutService } from '../checkout-service.ts';
import { checkoutVerifyView } from '../checkout-view.ts';

export interface VerifyCheckoutRouteOptions {
  readonly checkoutService: Pick<CheckoutService, 'verify'>;
  readonly institutionCode: string;
  readonly clock: Clock;
}

/**
 * GET /checkout/:referenceCode/verify: the merchant's server asks how its payment stands. This,
 * not what the browser was told, is the source of truth. `/checkout/verify/:referenceCode`, the
 * order one published client sends, answers the same.
 */
export const verifyCheckoutRoute: FastifyPluginAsyncTypebox<VerifyCheckoutRouteOptions> = async (
  app,
  { checkoutService, institutionCode, clock },
) => {
  for (const path of ['/checkout/:referenceCode/verify', '/checkout/verify/:referenceCode']) {
    app.get(
      path,
      {
        schema: {
          tags: ['Checkout'],
          summary: 'Verify a checkout payment by your referenceCode',
          params: VerifyParams,
          response: {
            200: envelopeSchema(CheckoutVerifySchema),
            ...AUTHENTICATED_ERROR_RESPONSES,
          },
        },
      },
      async (request) => {
        const session = await checkoutService.verify(
          request.principal,
          request.params.referenceCode,
        );
        return ok(
          'Transaction Fetched Successfully.',
          checkoutVerifyView(session, institutionCode, clock.now()),
        );
      },
    );
  }
};
