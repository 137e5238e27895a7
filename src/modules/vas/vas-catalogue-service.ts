import type { Db, Queryable } from '../../db/db.ts';
import { AppError, recordNotFound } from '../../errors/app-error.ts';
import type { Clock } from '../../shared/clock.ts';
import { isObjectId } from '../../shared/ids.ts';
import type { Category, Product, ProviderCommission } from './catalogue.ts';
import * as catalogue from './catalogue-repository.ts';
import type { Biller } from './providers/biller.ts';

export interface VasCatalogueServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly biller: Biller;
}

/**
 * The VAS catalogue (services, categories, products: data seeded by the baseline migration and changed
 * by operators) and the look-up of a meter or smart card before a purchase.
 */
export function createVasCatalogueService(deps: VasCatalogueServiceDeps) {
  async function getService(id: string) {
    const service = isObjectId(id) ? await catalogue.findService(deps.db, id) : undefined;
    if (service === undefined) {
      throw recordNotFound();
    }
    return service;
  }

  async function getCategory(id: string): Promise<Category> {
    const category = isObjectId(id) ? await catalogue.findCategory(deps.db, id) : undefined;
    if (category === undefined) {
      throw recordNotFound();
    }
    return category;
  }

  async function categories(serviceId: string) {
    const service = await getService(serviceId);
    return catalogue.listCategories(deps.db, service.id);
  }

  async function products(categoryId: string) {
    const category = await getCategory(categoryId);
    return catalogue.listProducts(deps.db, category.id);
  }

  /** A meter (electricity) or a smart card (cable TV), as the biller knows it. */
  async function verify(request: { serviceCategoryId: string; entityNumber: string }) {
    const category = await getCategory(request.serviceCategoryId);
    if (category.service !== 'UTILITY' && category.service !== 'CABLETV') {
      const message = 'must be a cable TV or electricity category';
      throw new AppError('VALIDATION_ERROR', `serviceCategoryId ${message}.`, {
        details: [{ field: 'serviceCategoryId', message }],
      });
    }
    const outcome = await deps.biller.verify({
      service: category.service,
      categoryIdentifier: category.identifier,
      entityNumber: request.entityNumber,
    });
    if (outcome.kind === 'notFound') {
      throw new AppError('VAS_CUSTOMER_NOT_FOUND', outcome.message);
    }
    if (outcome.kind === 'unavailable') {
      throw new AppError('BILLER_UNAVAILABLE', outcome.message);
    }
    return { category, customer: outcome.customer };
  }

  /** Operators: a category's commission, amount bounds or description. */
  async function updateCategory(
    id: string,
    change: {
      providerCommission?: ProviderCommission | null;
      minAmountKobo?: bigint;
      maxAmountKobo?: bigint;
      description?: string;
    },
  ): Promise<Category> {
    const category = await getCategory(id);
    const min = change.minAmountKobo ?? category.minAmountKobo;
    const max = change.maxAmountKobo ?? category.maxAmountKobo;
    if (min > max) {
      throw new AppError('VALIDATION_ERROR', 'minAmount must not be above maxAmount.');
    }
    await catalogue.updateCategory(deps.db, { id: category.id, ...change, now: deps.clock.now() });
    return getCategory(id);
  }

  /**
   * Operators: a category's products, replaced as a whole, in the order given. Concurrent
   * replacements of one category take turns (replaceProducts locks it): each is answered 200
   * with what it wrote, and the last one stands.
   */
  async function replaceProducts(
    categoryId: string,
    products: readonly Omit<Product, 'categoryId'>[],
  ) {
    const category = await getCategory(categoryId);
    const codes = new Set(products.map((product) => product.bundleCode));
    if (codes.size !== products.length) {
      throw new AppError('VALIDATION_ERROR', 'Each bundleCode may appear once.');
    }
    // Read back under the category's lock: the answer is this replacement, whatever another
    // operator's does next.
    return deps.db.transaction(async (tx) => {
      await catalogue.replaceProducts(tx, category.id, products);
      return catalogue.listProducts(tx, category.id);
    });
  }

  /**
   * Sandbox fixtures: a category's terms and products, in the caller's transaction (the
   * fixtures were checked whole before: the category exists, the bounds are in order).
   */
  async function overrideCategory(tx: Queryable, override: CategoryOverride): Promise<void> {
    const { id, products, ...terms } = override;
    await catalogue.updateCategory(tx, { id, ...terms, now: deps.clock.now() });
    if (products !== undefined) {
      await catalogue.replaceProducts(tx, id, products);
    }
  }

  return {
    /** Sandbox resets: the catalogue as it stands (opaque JSON text), and put back. */
    snapshot: () => catalogue.readCatalogue(deps.db),
    restore: (tx: Queryable, snapshot: string) => catalogue.insertCatalogue(tx, snapshot),
    overrideCategory,
    services: () => catalogue.listServices(deps.db),
    getService,
    getCategory,
    categories,
    products,
    verify,
    updateCategory,
    replaceProducts,
  };
}

export type VasCatalogueService = ReturnType<typeof createVasCatalogueService>;

/** What sandbox fixtures change in one category (vasCatalogue.categories[]). */
export interface CategoryOverride {
  readonly id: string;
  readonly providerCommission?: ProviderCommission | null;
  readonly minAmountKobo?: bigint;
  readonly maxAmountKobo?: bigint;
  readonly description?: string;
  readonly products?: readonly Omit<Product, 'categoryId'>[];
}
