import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { type UssdService, ussdReferenceView } from '../../modules/ussd/index.ts';
import type { Clock } from '../../shared/clock.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const listReferences = adminContract['GET /admin/clients/:id/ussd-references'];

export interface ClientUssdReferencesRouteOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  readonly ussdService: Pick<UssdService, 'list'>;
  readonly institutionCode: string;
  readonly clock: Clock;
}

/**
 * GET /admin/clients/:id/ussd-references: the client's USSD references, newest first, each with
 * its payment, as its own GET /ussd-payment shows them.
 */
export const clientUssdReferencesRoute: FastifyPluginAsyncTypebox<
  ClientUssdReferencesRouteOptions
> = async (app, { clientService, ussdService, institutionCode, clock }) => {
  app.get(
    '/admin/clients/:id/ussd-references',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's USSD references with their payments, newest first",
        params: listReferences.params,
        querystring: listReferences.query,
        response: { 200: listReferences.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const { page, limit, status } = request.query;
      const { references, total } = await ussdService.list(
        { clientId: client.id },
        { ...(status === undefined ? {} : { status }), page, limit },
      );
      const context = { institutionCode, now: clock.now() };
      const data = references.map(({ reference, paidBy }) =>
        ussdReferenceView(reference, context, paidBy),
      );
      return paged('USSD references fetched successfully.', data, { page, limit, total });
    },
  );
};
