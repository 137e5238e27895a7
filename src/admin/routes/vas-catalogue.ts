import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseAmount } from '../../http/amount.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { categoryView, productView, type VasCatalogueService } from '../../modules/vas/index.ts';
import type { Kobo } from '../../shared/money.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const updateCategory = adminContract['PUT /admin/vas/service-categories/:id'];
const replaceProducts = adminContract['PUT /admin/vas/service-categories/:id/products'];

export interface VasCatalogueRoutesOptions {
  readonly vasCatalogueService: Pick<VasCatalogueService, 'updateCategory' | 'replaceProducts'>;
  readonly maxAmountKobo: Kobo;
}

/** The VAS catalogue is data: operators change a category's terms and its products here. */
export const vasCatalogueRoutes: FastifyPluginAsyncTypebox<VasCatalogueRoutesOptions> = async (
  app,
  { vasCatalogueService, maxAmountKobo },
) => {
  app.put(
    '/admin/vas/service-categories/:id',
    {
      schema: {
        tags: ['Admin'],
        summary: "Change a VAS category's commission, amount bounds or description",
        params: updateCategory.params,
        body: updateCategory.body,
        response: { 200: updateCategory.answer, ...errors },
      },
    },
    async (request) => {
      const { minAmount, maxAmount, ...rest } = request.body;
      const category = await vasCatalogueService.updateCategory(request.params.id, {
        ...rest,
        ...(minAmount === undefined
          ? {}
          : { minAmountKobo: parseAmount(minAmount, maxAmountKobo, 'minAmount') }),
        ...(maxAmount === undefined
          ? {}
          : { maxAmountKobo: parseAmount(maxAmount, maxAmountKobo, 'maxAmount') }),
      });
      return ok('Service category updated successfully.', categoryView(category));
    },
  );

  app.put(
    '/admin/vas/service-categories/:id/products',
    {
      schema: {
        tags: ['Admin'],
        summary: "Replace a VAS category's products (in the order given)",
        params: replaceProducts.params,
        body: replaceProducts.body,
        response: { 200: replaceProducts.answer, ...errors },
      },
    },
    async (request) => {
      const products = await vasCatalogueService.replaceProducts(
        request.params.id,
        request.body.products.map((product) => ({
          name: product.name,
          bundleCode: product.bundleCode,
          amountKobo: product.amount === null ? null : parseAmount(product.amount, maxAmountKobo),
          duration: product.duration,
          isAmountFixed: product.isAmountFixed && product.amount !== null,
        })),
      );
      return ok('Service category products updated successfully.', products.map(productView));
    },
  );
};
