import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { categoryView, productView, type VasCatalogueService } from '../../modules/vas/index.ts';
import { adminContract } from '../contract/index.ts';

const byId = adminContract['GET /admin/vas/service-categories/:id'];

export interface VasCategoryRouteOptions {
  readonly vasCatalogueService: Pick<VasCatalogueService, 'getCategory' | 'products'>;
}

/**
 * GET /admin/vas/service-categories/:id: a VAS category's terms and its products, in order; what
 * the catalogue's two changes replace, so the audit trail reads it as their before-state.
 */
export const vasCategoryRoute: FastifyPluginAsyncTypebox<VasCategoryRouteOptions> = async (
  app,
  { vasCatalogueService },
) => {
  app.get(
    '/admin/vas/service-categories/:id',
    {
      schema: {
        tags: ['Admin'],
        summary: "A VAS category's terms and products",
        params: byId.params,
        response: { 200: byId.answer, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => {
      const category = await vasCatalogueService.getCategory(request.params.id);
      const products = await vasCatalogueService.products(category.id);
      return ok('Service category fetched successfully.', {
        category: categoryView(category),
        products: products.map(productView),
      });
    },
  );
};
