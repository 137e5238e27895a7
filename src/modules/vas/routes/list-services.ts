import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import type { VasCatalogueService } from '../vas-catalogue-service.ts';
import { ServiceSchema } from '../vas-schemas.ts';
import { serviceView } from '../vas-view.ts';

export interface ListServicesRouteOptions {
  readonly vasCatalogueService: Pick<VasCatalogueService, 'services'>;
}

export const listServicesRoute: FastifyPluginAsyncTypebox<ListServicesRouteOptions> = async (
  app,
  { vasCatalogueService },
) => {
  app.get(
    '/vas/services',
    {
      schema: {
        tags: ['VAS'],
        summary: 'The services offered: AIRTIME, DATA, CABLETV, UTILITY',
        response: {
          200: envelopeSchema(Type.Array(ServiceSchema)),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async () =>
      ok('Services fetched successfully.', (await vasCatalogueService.services()).map(serviceView)),
  );
};
