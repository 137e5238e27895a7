import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { parseAmount } from '../../../http/amount.ts';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  ErrorSchema,
  envelopeSchema,
} from '../../../http/common-schemas.ts';
import { readIdempotencyKey, requestFingerprint } from '../../../idempotency/idempotency.ts';
import type { Kobo } from '../../../shared/money.ts';
import { purchaseAnswer } from '../vas-answer.ts';
import type { VasPurchaseService } from '../vas-purchase-service.ts';
import { PurchaseSchema, UtilityBody } from '../vas-schemas.ts';

export interface PayUtilityRouteOptions {
  readonly vasPurchaseService: Pick<VasPurchaseService, 'purchase'>;
  readonly maxAmountKobo: Kobo;
}

export const payUtilityRoute: FastifyPluginAsyncTypebox<PayUtilityRouteOptions> = async (
  app,
  { vasPurchaseService, maxAmountKobo },
) => {
  app.post(
    '/vas/pay/utility',
    {
      schema: {
        tags: ['VAS'],
        summary: 'Buy electricity for a meter',
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        body: UtilityBody,
        response: {
          200: envelopeSchema(PurchaseSchema),
          402: ErrorSchema,
          422: ErrorSchema,
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { amount, meterNumber, ...body } = request.body;
      const purchase = await vasPurchaseService.purchase(
        request.principal,
        {
          ...body,
          service: 'UTILITY',
          beneficiary: meterNumber,
          amountKobo: parseAmount(amount, maxAmountKobo),
        },
        requestFingerprint(request.body),
        readIdempotencyKey(request.headers['idempotency-key']),
      );
      return purchaseAnswer(purchase, 'Utility Package purchased successfully.');
    },
  );
};
