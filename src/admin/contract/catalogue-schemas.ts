import { Type } from 'typebox';
import { CategorySchema, ProductSchema } from '../../modules/vas/index.ts';

/** Wire shapes of the VAS catalogue as operators change it. */

export const UpdateVasCategoryBody = Type.Object({
  providerCommission: Type.Optional(
    Type.Union([
      Type.Object({
        flatAmount: Type.Number({ minimum: 0, maximum: 1_000_000 }),
        percentageAmount: Type.Number({ minimum: 0, maximum: 100 }),
        minCap: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
        maxCap: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
      }),
      Type.Null(),
    ]),
  ),
  minAmount: Type.Optional(Type.Number({ description: 'Naira.' })),
  maxAmount: Type.Optional(Type.Number({ description: 'Naira.' })),
  description: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

export const UpdateVasProductsBody = Type.Object({
  products: Type.Array(
    Type.Object({
      name: Type.String({ minLength: 1, maxLength: 120 }),
      bundleCode: Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_.|-]+$' }),
      amount: Type.Union([Type.Number(), Type.Null()], {
        description: 'Naira; null: the buyer chooses.',
      }),
      duration: Type.String({ minLength: 1, maxLength: 40 }),
      isAmountFixed: Type.Boolean(),
    }),
    { maxItems: 500 },
  ),
});

/** A category as operators read it before changing it: its terms and its products, in order. */
export const VasCategoryWithProductsSchema = Type.Object({
  category: CategorySchema,
  products: Type.Array(ProductSchema),
});
