import { mkdir } from 'node:fs/promises';
import { PGlite, types } from '@electric-sql/pglite';
import type { Db, SqlParam, Tx } from './db.ts';

export interface PgliteDbOptions {
  /** A folder for the data, or undefined for an in-memory database (tests). */
  readonly dataDir: string | undefined;
  /**
   * The database starts as a copy of this data-directory tarball (pglite-image.ts): in memory, or
   * in a data folder that has no database yet.
   */
  readonly image?: Blob | undefined;
}

/**
 * An in-memory database keeps every page in memory already: a smaller buffer pool costs a copy
 * per page read and saves clearing 128 MB at every start (about 0.1 s of a sandbox's start).
 */
const IN_MEMORY_START = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * Embedded PostgreSQL in this process: one session, no fsync. For sandbox, development and
 * tests; production refuses it (see config).
 */
export async function createPgliteDb(options: PgliteDbOptions): Promise<Db> {
  if (options.dataDir !== undefined) {
    await mkdir(options.dataDir, { recursive: true });
  }
  const pglite = await PGlite.create({
    ...(options.dataDir === undefined
      ? { startParams: IN_MEMORY_START }
      : { dataDir: options.dataDir }),
    ...(options.image === undefined ? {} : { loadDataDir: options.image }),
    parsers: { [types.INT8]: (value: string) => BigInt(value) },
  });
  return wrapPglite(pglite);
}

export function wrapPglite(pglite: PGlite): Db {
  const query = async <Row>(
    target: Pick<PGlite, 'query'>,
    sql: string,
    params?: readonly SqlParam[],
  ) => {
    const result = await target.query<Row>(sql, params as unknown[] | undefined);
    return result.rows;
  };
  return {
    kind: 'pglite',
    query: (sql, params) => query(pglite, sql, params),
    transaction: <T>(fn: (tx: Tx) => Promise<T>) =>
      pglite.transaction((transaction) =>
        fn({
          query: (sql, params) => query(transaction, sql, params),
          exec: async (sql) => {
            await transaction.exec(sql);
          },
        }),
      ),
    async exec(sql) {
      await pglite.exec(sql);
    },
    close: () => pglite.close(),
  };
}
