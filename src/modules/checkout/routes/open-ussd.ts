import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorSchema, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { dialString, ussdReferenceView } from '../../ussd/index.ts';
import type { CheckoutLimits } from '../checkout-limits.ts';
import { CheckoutPageHeaders, CheckoutSessionParams, OpenUssdBody } from '../checkout-schemas.ts';
import type { CheckoutService } from '../checkout-service.ts';

export interface OpenUssdRouteOptions {
  readonly checkoutService: Pick<CheckoutService, 'openUssd'>;
  readonly checkoutLimits: CheckoutLimits;
  readonly checkoutViewContext: () => { institutionCode: string; now: Date };
}

/** POST /checkout/sessions/:id/ussd: the string the customer dials at the bank they picked. */
export const openUssdRoute: FastifyPluginAsyncTypebox<OpenUssdRouteOptions> = async (
  app,
  { checkoutService, checkoutLimits, checkoutViewContext },
) => {
  app.post(
    '/checkout/sessions/:id/ussd',
    {
      preHandler: checkoutLimits.page,
      schema: {
        tags: ['Checkout'],
        summary: 'The hosted page: a USSD reference for this payment at the chosen bank',
        params: CheckoutSessionParams,
        headers: CheckoutPageHeaders,
        body: OpenUssdBody,
        response: {
          200: envelopeSchema(
            Type.Object({
              reference: Type.String(),
              ussdString: Type.Union([Type.String(), Type.Null()]),
              bankName: Type.Union([Type.String(), Type.Null()]),
              amount: Type.Number(),
              expiresAt: Type.String(),
            }),
          ),
          400: ErrorSchema,
          402: ErrorSchema,
          429: ErrorSchema,
        },
      },
    },
    async (request) => {
      const { reference, bank } = await checkoutService.openUssd(
        request.params.id,
        request.headers['x-checkout-token'],
        request.body.ussdBankCode,
      );
      const view = ussdReferenceView(reference, checkoutViewContext());
      return ok('USSD details fetched successfully.', {
        reference: view.reference,
        // The chosen bank's string: any listed bank pays the session's one reference.
        ussdString: dialString(bank, view.reference),
        bankName: bank.bankName,
        amount: view.amount,
        expiresAt: view.expiresAt,
      });
    },
  );
};
