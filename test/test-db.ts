import { randomBytes } from 'node:crypto';
import type { Db } from '../src/db/db.ts';
import { runAdminStatement, withDatabase } from '../src/db/pg-admin.ts';
import { createPgDb } from '../src/db/pg-db.ts';
import { createPgliteDb } from '../src/db/pglite-db.ts';
import { migratedImage } from '../src/db/pglite-image.ts';
import { createMigratedDatabase } from './pg-template.ts';

/** Set by CI for the PostgreSQL run; unset means embedded PGlite. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
export const onPostgres = TEST_DATABASE_URL !== undefined && TEST_DATABASE_URL !== '';

export interface TestDb {
  readonly db: Db;
  /** Connection string of this test's own database (PostgreSQL only). */
  readonly url: string | undefined;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: its own PostgreSQL database (a copy of the
 * migrated template, dropped after), or an in-memory PGlite instance. `empty`: not migrated (the migrator's own tests).
 */
export async function createTestDb(
  options: { poolSize?: number; empty?: boolean } = {},
): Promise<TestDb> {
  if (!onPostgres || TEST_DATABASE_URL === undefined) {
    if (options.empty === true) {
      const db = await createPgliteDb({ dataDir: undefined });
      return { db, url: undefined, close: () => db.close() };
    }
    // A copy of the image made from exactly these migrations and function files (pglite-image.ts
    // fingerprints both): no initdb, and nothing to migrate, per test file.
    const db = await createPgliteDb({ dataDir: undefined, image: (await migratedImage()).tarball });
    return { db, url: undefined, close: () => db.close() };
  }
  const name = `openibs_test_${randomBytes(6).toString('hex')}`;
  if (options.empty === true) {
    await runAdminStatement(TEST_DATABASE_URL, `CREATE DATABASE ${name}`);
  } else {
    // A copy of the migrated template (pg-template.ts): no migrations per test file.
    await createMigratedDatabase(TEST_DATABASE_URL, name);
  }
  const url = withDatabase(TEST_DATABASE_URL, name);
  const db = createPgDb({ connectionString: url, poolSize: options.poolSize ?? 10 });
  return {
    db,
    url,
    async close() {
      await db.close();
      await runAdminStatement(TEST_DATABASE_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
