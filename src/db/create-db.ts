import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.ts';
import type { Db } from './db.ts';
import { createPgDb } from './pg-db.ts';
import { createPgliteDb } from './pglite-db.ts';
import { migratedImage } from './pglite-image.ts';

export interface CreateDbOptions {
  /** PostgreSQL: told (throttled) when pooled connections break; see PgDbOptions. */
  readonly onConnectionError?: (error: unknown, unreported: number) => void;
}

/** PostgreSQL when DATABASE_URL is set, embedded PGlite under DATA_DIR otherwise. */
export async function createDb(config: Config, options: CreateDbOptions = {}): Promise<Db> {
  if (config.databaseUrl !== undefined) {
    return createPgDb({
      connectionString: config.databaseUrl,
      poolSize: config.databasePoolSize,
      idleConnectionSeconds: config.databasePoolIdleSeconds,
      ...(options.onConnectionError === undefined
        ? {}
        : { onConnectionError: options.onConnectionError }),
    });
  }
  const dataDir = path.join(config.dataDir, 'pglite');
  // A new data folder starts as a copy of the migrated image: initdb and the migrations were
  // most of a first `npm start` (docs/operations.md). A folder with a database in it is opened
  // as it is, and migrated if it is behind.
  const fresh = !existsSync(path.join(dataDir, 'PG_VERSION'));
  return createPgliteDb({ dataDir, ...(fresh ? { image: (await migratedImage()).tarball } : {}) });
}
