import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorSchema, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { koboToNaira } from '../../../shared/money.ts';
import type { CheckoutLimits } from '../checkout-limits.ts';
import { CheckoutPageHeaders, CheckoutSessionParams } from '../checkout-schemas.ts';
import type { CheckoutService } from '../checkout-service.ts';

export interface OpenBankTransferRouteOptions {
  readonly checkoutService: Pick<CheckoutService, 'openBankTransfer'>;
  readonly checkoutLimits: CheckoutLimits;
  /** Our name and NIP code, which the customer's bank app asks for. */
  readonly bank: { readonly name: string; readonly code: string };
}

/** POST /checkout/sessions/:id/bank-transfer: the account the customer transfers the sum to. */
export const openBankTransferRoute: FastifyPluginAsyncTypebox<
  OpenBankTransferRouteOptions
> = async (app, { checkoutService, checkoutLimits, bank }) => {
  app.post(
    '/checkout/sessions/:id/bank-transfer',
    {
      preHandler: checkoutLimits.page,
      schema: {
        tags: ['Checkout'],
        summary: 'The hosted page: a virtual account for this payment (the open one, or a new one)',
        params: CheckoutSessionParams,
        headers: CheckoutPageHeaders,
        response: {
          200: envelopeSchema(
            Type.Object({
              accountNumber: Type.String(),
              accountName: Type.String(),
              bankName: Type.String(),
              bankCode: Type.String(),
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
      const { account } = await checkoutService.openBankTransfer(
        request.params.id,
        request.headers['x-checkout-token'],
      );
      return ok('Bank transfer details fetched successfully.', {
        accountNumber: account.accountNumber,
        accountName: account.accountName,
        bankName: bank.name,
        bankCode: bank.code,
        amount: koboToNaira(account.amountKobo),
        expiresAt: account.expiresAt.toISOString(),
      });
    },
  );
};
