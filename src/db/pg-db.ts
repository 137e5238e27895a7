import pg from 'pg';
import { type Db, RETRYABLE_SQLSTATES, type SqlParam, sqlState, type Tx } from './db.ts';

const INT8_OID = 20;
const INT8_ARRAY_OID = 1016;
const TRANSACTION_ATTEMPTS_MAX = 5;

/** Type parsers local to our pools, so no other pg user in the process is affected. */
function typeParsers(): pg.CustomTypesConfig {
  const parseBigIntArray = pg.types.getTypeParser(
    INT8_ARRAY_OID as Parameters<typeof pg.types.getTypeParser>[0],
    'text',
  );
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === INT8_OID) {
        return (value: string) => BigInt(value);
      }
      if (oid === INT8_ARRAY_OID) {
        return (value: string) => (parseBigIntArray(value) as string[]).map((item) => BigInt(item));
      }
      return pg.types.getTypeParser(oid, format ?? 'text');
    }) as pg.CustomTypesConfig['getTypeParser'],
  };
}

export interface PgDbOptions {
  readonly connectionString: string;
  readonly poolSize: number;
  readonly applicationName?: string;
}

export function createPgDb(options: PgDbOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize,
    types: typeParsers(),
    application_name: options.applicationName ?? 'openibs',
  });
  // An idle client that loses its connection (e.g. a database restart) must not crash us.
  pool.on('error', () => undefined);

  const query = async <Row>(
    client: pg.Pool | pg.PoolClient,
    sql: string,
    params?: readonly SqlParam[],
  ) => {
    const result = await client.query(sql, params as unknown[] | undefined);
    return result.rows as Row[];
  };

  return {
    kind: 'postgres',
    query: (sql, params) => query(pool, sql, params),
    async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await runTransaction(pool, fn, query);
        } catch (error) {
          const retryable = RETRYABLE_SQLSTATES.has(sqlState(error) ?? '');
          if (!retryable || attempt >= TRANSACTION_ATTEMPTS_MAX) {
            throw error;
          }
        }
      }
    },
    async exec(sql) {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}

type QueryFn = <Row>(
  client: pg.PoolClient,
  sql: string,
  params?: readonly SqlParam[],
) => Promise<Row[]>;

async function runTransaction<T>(pool: pg.Pool, fn: (tx: Tx) => Promise<T>, query: QueryFn) {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const tx: Tx = {
      query: (sql, params) => query(client, sql, params),
      exec: async (sql) => {
        await client.query(sql);
      },
    };
    const result = await fn(tx);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch {
      // The connection itself failed; do not return it to the pool.
      broken = true;
    }
    throw error;
  } finally {
    client.release(broken);
  }
}
