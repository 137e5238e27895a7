import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
} from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import type { VasCatalogueService } from '../vas-catalogue-service.ts';
import { ProductSchema } from '../vas-schemas.ts';
import { productView } from '../vas-view.ts';

export interface ListCategoryProductsRouteOptions {
  readonly vasCatalogueService: Pick<VasCatalogueService, 'products'>;
}

export const listCategoryProductsRoute: FastifyPluginAsyncTypebox<
  ListCategoryProductsRouteOptions
> = async (app, { vasCatalogueService }) => {
  app.get(
    '/vas/service-category/:id/products',
    {
      schema: {
        tags: ['VAS'],
        summary: "A category's products (data bundles, cable bouquets), in catalogue order",
        params: IdParams,
        response: {
          200: envelopeSchema(Type.Array(ProductSchema)),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) =>
      ok(
        'Service Category Products fetched successfully.',
        (await vasCatalogueService.products(request.params.id)).map(productView),
      ),
  );
};
