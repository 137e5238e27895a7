import type { Queryable } from '../../db/db.ts';
import type { Category, Product, ProviderCommission, Service } from './catalogue.ts';
import type { VasService } from './providers/biller.ts';

interface ServiceRow {
  id: string;
  name: string;
  identifier: VasService;
  description: string;
  created_at: Date;
  updated_at: Date;
}

interface CategoryRow {
  id: string;
  service_id: string;
  service: VasService;
  name: string;
  identifier: string;
  vendor: string;
  is_fixed_amount: boolean;
  description: string;
  logo_url: string;
  provider_commission: ProviderCommission | null;
  min_amount_kobo: bigint;
  max_amount_kobo: bigint;
  created_at: Date;
  updated_at: Date;
}

interface ProductRow {
  category_id: string;
  bundle_code: string;
  name: string;
  amount_kobo: bigint | null;
  duration: string;
  is_amount_fixed: boolean;
}

const toService = (row: ServiceRow): Service => ({
  id: row.id,
  name: row.name,
  identifier: row.identifier,
  description: row.description,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

const toCategory = (row: CategoryRow): Category => ({
  id: row.id,
  serviceId: row.service_id,
  service: row.service,
  name: row.name,
  identifier: row.identifier,
  vendor: row.vendor,
  isFixedAmount: row.is_fixed_amount,
  description: row.description,
  logoUrl: row.logo_url,
  providerCommission: row.provider_commission,
  minAmountKobo: BigInt(row.min_amount_kobo),
  maxAmountKobo: BigInt(row.max_amount_kobo),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

const toProduct = (row: ProductRow): Product => ({
  categoryId: row.category_id,
  bundleCode: row.bundle_code,
  name: row.name,
  amountKobo: row.amount_kobo === null ? null : BigInt(row.amount_kobo),
  duration: row.duration,
  isAmountFixed: row.is_amount_fixed,
});

export async function listServices(db: Queryable): Promise<Service[]> {
  const rows = await db.query<ServiceRow>('SELECT * FROM vas_services ORDER BY created_at, id');
  return rows.map(toService);
}

export async function findService(db: Queryable, id: string): Promise<Service | undefined> {
  const rows = await db.query<ServiceRow>('SELECT * FROM vas_services WHERE id = $1', [id]);
  return rows[0] === undefined ? undefined : toService(rows[0]);
}

const SELECT_CATEGORY = `SELECT c.*, s.identifier AS service FROM vas_categories c
  JOIN vas_services s ON s.id = c.service_id`;

export async function listCategories(db: Queryable, serviceId: string): Promise<Category[]> {
  const rows = await db.query<CategoryRow>(
    `${SELECT_CATEGORY} WHERE c.service_id = $1 ORDER BY c.created_at, c.id`,
    [serviceId],
  );
  return rows.map(toCategory);
}

export async function findCategory(db: Queryable, id: string): Promise<Category | undefined> {
  const rows = await db.query<CategoryRow>(`${SELECT_CATEGORY} WHERE c.id = $1`, [id]);
  return rows[0] === undefined ? undefined : toCategory(rows[0]);
}

export async function listProducts(db: Queryable, categoryId: string): Promise<Product[]> {
  const rows = await db.query<ProductRow>(
    'SELECT * FROM vas_products WHERE category_id = $1 ORDER BY position, bundle_code',
    [categoryId],
  );
  return rows.map(toProduct);
}

export async function findProduct(
  db: Queryable,
  categoryId: string,
  bundleCode: string,
): Promise<Product | undefined> {
  const rows = await db.query<ProductRow>(
    'SELECT * FROM vas_products WHERE category_id = $1 AND bundle_code = $2',
    [categoryId, bundleCode],
  );
  return rows[0] === undefined ? undefined : toProduct(rows[0]);
}

/** An operator's change to a category's terms. */
export async function updateCategory(
  db: Queryable,
  change: {
    id: string;
    providerCommission?: ProviderCommission | null;
    minAmountKobo?: bigint;
    maxAmountKobo?: bigint;
    description?: string;
    now: Date;
  },
): Promise<void> {
  await db.query(
    `UPDATE vas_categories SET
        provider_commission = CASE WHEN $2 THEN $3::jsonb ELSE provider_commission END,
        min_amount_kobo = coalesce($4, min_amount_kobo),
        max_amount_kobo = coalesce($5, max_amount_kobo),
        description = coalesce($6, description),
        updated_at = $7
      WHERE id = $1`,
    [
      change.id,
      change.providerCommission !== undefined,
      change.providerCommission === undefined ? null : JSON.stringify(change.providerCommission),
      change.minAmountKobo ?? null,
      change.maxAmountKobo ?? null,
      change.description ?? null,
      change.now,
    ],
  );
}

/**
 * Replaces a category's products, in the order given. Call it inside a transaction: the
 * category's row is locked first, so two replacements of one category run one after the other
 * (the second deletes what the first inserted) instead of both inserting the same codes.
 */
export async function replaceProducts(
  db: Queryable,
  categoryId: string,
  products: readonly Omit<Product, 'categoryId'>[],
): Promise<void> {
  await db.query('SELECT id FROM vas_categories WHERE id = $1 FOR UPDATE', [categoryId]);
  await db.query('DELETE FROM vas_products WHERE category_id = $1', [categoryId]);
  for (const [index, product] of products.entries()) {
    await db.query(
      `INSERT INTO vas_products (category_id, bundle_code, name, amount_kobo, duration,
          is_amount_fixed, position) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        categoryId,
        product.bundleCode,
        product.name,
        product.amountKobo,
        product.duration,
        product.isAmountFixed,
        index + 1,
      ],
    );
  }
}

/**
 * The whole catalogue as JSON text (services, categories, products): what a sandbox reset puts
 * back after it empties the catalogue's tables, handed back as it is.
 */
export async function readCatalogue(db: Queryable): Promise<string> {
  const rows = await db.query<{ catalogue: string }>(
    `SELECT jsonb_build_object(
        'services', (SELECT coalesce(jsonb_agg(to_jsonb(s)), '[]') FROM vas_services s),
        'categories', (SELECT coalesce(jsonb_agg(to_jsonb(c)), '[]') FROM vas_categories c),
        'products', (SELECT coalesce(jsonb_agg(to_jsonb(p)), '[]') FROM vas_products p)
      )::text AS catalogue`,
  );
  return rows[0]?.catalogue ?? '{}';
}

/**
 * Inserts a catalogue readCatalogue read, in one statement: the foreign keys between the three
 * tables are checked when it ends, so the order of its parts does not matter.
 */
export async function insertCatalogue(tx: Queryable, catalogue: string): Promise<void> {
  await tx.query(
    `WITH services AS (
       INSERT INTO vas_services
       SELECT * FROM jsonb_populate_recordset(NULL::vas_services, $1::jsonb->'services')),
     categories AS (
       INSERT INTO vas_categories
       SELECT * FROM jsonb_populate_recordset(NULL::vas_categories, $1::jsonb->'categories'))
     INSERT INTO vas_products
     SELECT * FROM jsonb_populate_recordset(NULL::vas_products, $1::jsonb->'products')`,
    [catalogue],
  );
}
