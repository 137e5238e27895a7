import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseAmount } from '../../../http/amount.ts';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import type { Kobo } from '../../../shared/money.ts';
import { CreateUssdReferenceBody, UssdReferenceSchema } from '../ussd-schemas.ts';
import type { UssdService } from '../ussd-service.ts';
import { ussdReferenceView } from '../ussd-view.ts';
import type { UssdViewContext } from '../ussd-view-context.ts';

export interface CreateUssdReferenceRouteOptions {
  readonly ussdService: Pick<UssdService, 'create'>;
  readonly maxAmountKobo: Kobo;
  readonly ussdViewContext: () => UssdViewContext;
}

export const createUssdReferenceRoute: FastifyPluginAsyncTypebox<
  CreateUssdReferenceRouteOptions
> = async (app, { ussdService, maxAmountKobo, ussdViewContext }) => {
  app.post(
    '/ussd-payment',
    {
      schema: {
        tags: ['USSD'],
        summary: 'Create a reference a customer dials at their bank to pay one of your accounts',
        body: CreateUssdReferenceBody,
        response: {
          200: envelopeSchema(UssdReferenceSchema),
          402: AUTHENTICATED_ERROR_RESPONSES[400],
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const body = request.body;
      const reference = await ussdService.create(request.principal, {
        amountKobo: parseAmount(body.amount, maxAmountKobo),
        merchantName: body.merchantName,
        ussdBankCode: body.ussdBankCode,
        callbackUrl: body.callbackUrl,
        settlementAccount: body.settlementAccount,
      });
      return ok(
        'USSD reference created successfully.',
        ussdReferenceView(reference, ussdViewContext()),
      );
    },
  );
};
