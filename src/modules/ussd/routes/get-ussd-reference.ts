import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { UssdReferenceParams, UssdReferenceSchema } from '../ussd-schemas.ts';
import type { UssdService } from '../ussd-service.ts';
import { ussdReferenceView } from '../ussd-view.ts';
import type { UssdViewContext } from '../ussd-view-context.ts';

export interface GetUssdReferenceRouteOptions {
  readonly ussdService: Pick<UssdService, 'get'>;
  readonly ussdViewContext: () => UssdViewContext;
}

export const getUssdReferenceRoute: FastifyPluginAsyncTypebox<
  GetUssdReferenceRouteOptions
> = async (app, { ussdService, ussdViewContext }) => {
  app.get(
    '/ussd-payment/:reference',
    {
      schema: {
        tags: ['USSD'],
        summary: 'Get one of your USSD references: its status and the payment it took',
        params: UssdReferenceParams,
        response: { 200: envelopeSchema(UssdReferenceSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { reference, paidBy } = await ussdService.get(
        request.principal,
        request.params.reference,
      );
      return ok(
        'USSD reference fetched successfully.',
        ussdReferenceView(reference, ussdViewContext(), paidBy),
      );
    },
  );
};
