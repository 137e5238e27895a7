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
import { AirtimeBody, PurchaseSchema } from '../vas-schemas.ts';

export interface PayAirtimeRouteOptions {
  readonly vasPurchaseService: Pick<VasPurchaseService, 'purchase'>;
  readonly maxAmountKobo: Kobo;
}

export const payAirtimeRoute: FastifyPluginAsyncTypebox<PayAirtimeRouteOptions> = async (
  app,
  { vasPurchaseService, maxAmountKobo },
) => {
  app.post(
    '/vas/pay/airtime',
    {
      schema: {
        tags: ['VAS'],
        summary: 'Buy airtime for a phone number',
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        body: AirtimeBody,
        response: {
          200: envelopeSchema(PurchaseSchema),
          402: ErrorSchema,
          422: ErrorSchema,
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { amount, phoneNumber, ...body } = request.body;
      const purchase = await vasPurchaseService.purchase(
        request.principal,
        {
          ...body,
          service: 'AIRTIME',
          beneficiary: phoneNumber,
          amountKobo: parseAmount(amount, maxAmountKobo),
        },
        requestFingerprint(request.body),
        readIdempotencyKey(request.headers['idempotency-key']),
      );
      // A data category with a bundle code bought through this path is a data purchase.
      return purchaseAnswer(
        purchase,
        purchase.service === 'DATA'
          ? 'Data Bundle purchased successfully.'
          : 'Airtime has been purchased successfully.',
      );
    },
  );
};
