import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
} from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import type { VasCatalogueService } from '../vas-catalogue-service.ts';
import { CategorySchema } from '../vas-schemas.ts';
import { categoryView } from '../vas-view.ts';

export interface ListServiceCategoriesRouteOptions {
  readonly vasCatalogueService: Pick<VasCatalogueService, 'categories'>;
}

export const listServiceCategoriesRoute: FastifyPluginAsyncTypebox<
  ListServiceCategoriesRouteOptions
> = async (app, { vasCatalogueService }) => {
  app.get(
    '/vas/service/:id/service-categories',
    {
      schema: {
        tags: ['VAS'],
        summary: "A service's categories (networks, cable providers, distribution companies)",
        params: IdParams,
        response: {
          200: envelopeSchema(Type.Array(CategorySchema)),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) =>
      ok(
        'Service Categories fetched successfully.',
        (await vasCatalogueService.categories(request.params.id)).map(categoryView),
      ),
  );
};
