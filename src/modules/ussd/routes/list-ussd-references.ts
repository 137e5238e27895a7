import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  pagedEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { parseDateRange } from '../../../http/date-range.ts';
import { paged } from '../../../http/envelope.ts';
import { ListUssdReferencesQuery, UssdReferenceSchema } from '../ussd-schemas.ts';
import type { UssdService } from '../ussd-service.ts';
import { ussdReferenceView } from '../ussd-view.ts';
import type { UssdViewContext } from '../ussd-view-context.ts';

export interface ListUssdReferencesRouteOptions {
  readonly ussdService: Pick<UssdService, 'list'>;
  readonly ussdViewContext: () => UssdViewContext;
}

export const listUssdReferencesRoute: FastifyPluginAsyncTypebox<
  ListUssdReferencesRouteOptions
> = async (app, { ussdService, ussdViewContext }) => {
  app.get(
    '/ussd-payment',
    {
      schema: {
        tags: ['USSD'],
        summary: 'List your USSD references, newest first',
        querystring: ListUssdReferencesQuery,
        response: {
          200: pagedEnvelopeSchema(UssdReferenceSchema),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { fromDate, toDate, page, limit, status } = request.query;
      const { from, to } = parseDateRange(fromDate, toDate);
      const { references, total } = await ussdService.list(request.principal, {
        ...(status === undefined ? {} : { status }),
        ...(from === undefined ? {} : { from }),
        ...(to === undefined ? {} : { to }),
        page,
        limit,
      });
      const context = ussdViewContext();
      const data = references.map(({ reference, paidBy }) =>
        ussdReferenceView(reference, context, paidBy),
      );
      return paged('USSD references fetched successfully.', data, { page, limit, total });
    },
  );
};
