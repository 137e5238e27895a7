import path from 'node:path';
import type { Config } from '../config/config.ts';
import type { Db } from './db.ts';
import { createPgDb } from './pg-db.ts';
import { createPgliteDb } from './pglite-db.ts';

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
      ...(options.onConnectionError === undefined
        ? {}
        : { onConnectionError: options.onConnectionError }),
    });
  }
  return createPgliteDb({ dataDir: path.join(config.dataDir, 'pglite') });
}
