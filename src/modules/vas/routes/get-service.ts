import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
} from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import type { VasCatalogueService } from '../vas-catalogue-service.ts';
import { ServiceSchema } from '../vas-schemas.ts';
import { serviceView } from '../vas-view.ts';

export interface GetServiceRouteOptions {
  readonly vasCatalogueService: Pick<VasCatalogueService, 'getService'>;
}

export const getServiceRoute: FastifyPluginAsyncTypebox<GetServiceRouteOptions> = async (
  app,
  { vasCatalogueService },
) => {
  app.get(
    '/vas/service/:id',
    {
      schema: {
        tags: ['VAS'],
        summary: 'One service',
        params: IdParams,
        response: { 200: envelopeSchema(ServiceSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) =>
      ok(
        'Service fetched successfully.',
        serviceView(await vasCatalogueService.getService(request.params.id)),
      ),
  );
};
