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
import { CableTvBody, PurchaseSchema } from '../vas-schemas.ts';

export interface PayCableTvRouteOptions {
  readonly vasPurchaseService: Pick<VasPurchaseService, 'purchase'>;
  readonly maxAmountKobo: Kobo;
}

export const payCableTvRoute: FastifyPluginAsyncTypebox<PayCableTvRouteOptions> = async (
  app,
  { vasPurchaseService, maxAmountKobo },
) => {
  app.post(
    '/vas/pay/cable-tv',
    {
      schema: {
        tags: ['VAS'],
        summary: 'Pay a cable TV subscription for a smart card',
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        body: CableTvBody,
        response: {
          200: envelopeSchema(PurchaseSchema),
          402: ErrorSchema,
          422: ErrorSchema,
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { amount, cardNumber, ...body } = request.body;
      const purchase = await vasPurchaseService.purchase(
        request.principal,
        {
          ...body,
          service: 'CABLETV',
          beneficiary: cardNumber,
          amountKobo: parseAmount(amount, maxAmountKobo),
        },
        requestFingerprint(request.body),
        readIdempotencyKey(request.headers['idempotency-key']),
      );
      return purchaseAnswer(purchase, 'Cable TV purchased successfully.');
    },
  );
};
