/**
 * One database interface, two drivers (node-postgres and embedded PGlite). Both return rows
 * with the same types: int8 as bigint, timestamptz as Date, numeric as string, jsonb as values.
 */
export type SqlParam =
  | string
  | number
  | bigint
  | boolean
  | Date
  | null
  | readonly unknown[]
  | object;

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlParam[]): Promise<Row[]>;
}

export interface Tx extends Queryable {
  /** Runs a script of several statements with no parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Tx {
  readonly kind: 'postgres' | 'pglite';
  /**
   * Runs fn in one transaction. On PostgreSQL a serialization failure or deadlock retries the
   * whole function, so fn must have no side effects outside the transaction.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * The connection pool's use right now (for /metrics). Only a driver with a pool has one:
   * PGlite is one connection inside the process, with no pool to report.
   */
  poolStats?(): PoolStats;
}

/** A connection pool at one instant. */
export interface PoolStats {
  /** Connections open, idle or serving a query. */
  readonly total: number;
  readonly idle: number;
  /** Queries and transactions waiting for a connection because all are busy. */
  readonly waiting: number;
  /** The most connections the pool opens (DATABASE_POOL_SIZE). */
  readonly max: number;
}

/** SQLSTATEs that mean "run the transaction again": serialization failure and deadlock. */
export const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);

export const UNIQUE_VIOLATION = '23505';

export function sqlState(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}
