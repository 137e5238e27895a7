import { createHash } from 'node:crypto';
import pg from 'pg';
import { isDatabaseUnavailable } from './database-unavailable.ts';
import { type Db, RETRYABLE_SQLSTATES, type SqlParam, sqlState, type Tx } from './db.ts';
import { multiHostClient, parseMultiHostUrl } from './multi-host.ts';
import { installPlainQueryCopy, PLAIN_QUERY } from './pg-query-config.ts';
import { installFastRowTemplate } from './pg-row-template.ts';

const INT8_OID = 20;
const INT8_ARRAY_OID = 1016;
const TRANSACTION_ATTEMPTS_MAX = 5;

installFastRowTemplate();
installPlainQueryCopy();

/** Type parsers local to our pools, so no other pg user in the process is affected. */
function typeParsers(): pg.CustomTypesConfig {
  const parseBigIntArray = pg.types.getTypeParser(
    INT8_ARRAY_OID as Parameters<typeof pg.types.getTypeParser>[0],
    'text',
  );
  // Made once: pg asks for a column's parser every time a result is described.
  const parseBigInt = (value: string) => BigInt(value);
  const parseBigInts = (value: string) =>
    (parseBigIntArray(value) as string[]).map((item) => BigInt(item));
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === INT8_OID) {
        return parseBigInt;
      }
      if (oid === INT8_ARRAY_OID) {
        return parseBigInts;
      }
      return pg.types.getTypeParser(oid, format ?? 'text');
    }) as pg.CustomTypesConfig['getTypeParser'],
  };
}

export interface PgDbOptions {
  readonly connectionString: string;
  readonly poolSize: number;
  /**
   * Seconds an unused pooled connection stays open; 0 (the default): until the pool closes.
   * A fresh connection starts with nothing cached (each named statement and each PL/pgSQL
   * function is parsed and planned again on it), so closing idle ones makes every burst of
   * traffic after a quiet spell pay that again; the pool is bounded by poolSize either way.
   */
  readonly idleConnectionSeconds?: number;
  readonly applicationName?: string;
  /** How long opening one connection may take before it fails (default 5 s). */
  readonly connectTimeoutMs?: number;
  /**
   * Told when a pooled connection breaks (database restart, network): the first time, then at
   * most once per CONNECTION_ERROR_REPORT_INTERVAL_MS while they keep breaking, with how many
   * were not reported. Must not throw.
   */
  readonly onConnectionError?: (error: unknown, unreported: number) => void;
}

const CONNECT_TIMEOUT_MS = 5_000;
const CONNECTION_ERROR_REPORT_INTERVAL_MS = 30_000;
/** TCP keepalive on idle connections, so a vanished server is noticed without traffic. */
const KEEPALIVE_INITIAL_DELAY_MS = 10_000;

export function createPgDb(options: PgDbOptions): Db {
  const pool = createPool(options);
  return {
    kind: 'postgres',
    query: (sql, params) => runQuery(pool, sql, params),
    async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await runTransaction(pool, fn);
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
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: options.poolSize,
    }),
  };
}

function createPool(options: PgDbOptions): pg.Pool {
  // The connect timeout goes on the client only: on the pool it would also bound how long a
  // request may wait for a free connection, which is a different decision.
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  class Client extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
    }
  }
  // Several hosts (a primary and its standbys): each connection finds the one that takes writes.
  const multiHost = parseMultiHostUrl(options.connectionString);
  const pool = new pg.Pool({
    connectionString: multiHost?.hosts[0]?.url ?? options.connectionString,
    max: options.poolSize,
    // 0 sets no idle timer at all (pg-pool's default would close a connection after 10 s).
    idleTimeoutMillis: (options.idleConnectionSeconds ?? 0) * 1000,
    types: typeParsers(),
    application_name: options.applicationName ?? 'openibs',
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_INITIAL_DELAY_MS,
    Client: multiHost === undefined ? Client : multiHostClient(multiHost, connectTimeoutMs),
  });
  const reportConnectionError = throttled(
    options.onConnectionError ?? (() => undefined),
    CONNECTION_ERROR_REPORT_INTERVAL_MS,
  );
  // A connection that breaks (a database restart, a network cut) makes its client emit 'error',
  // idle in the pool or checked out between two queries; an 'error' without a listener would
  // crash the process. The pool drops broken idle clients itself (and re-emits on the pool);
  // a checked-out one fails its queries and is destroyed when released with the error.
  pool.on('connect', (client) => {
    client.on('error', reportConnectionError);
  });
  pool.on('error', () => undefined);
  return pool;
}

async function runQuery<Row>(
  client: pg.Pool | pg.PoolClient,
  sql: string,
  params?: readonly SqlParam[],
): Promise<Row[]> {
  const result = await client.query({
    name: statementName(sql),
    text: sql,
    values: params as unknown[] | undefined,
    [PLAIN_QUERY]: true,
  } as pg.QueryConfig);
  return result.rows as Row[];
}

/**
 * One transaction on one pooled client. If the connection dies mid-way, PostgreSQL rolls the
 * transaction back by itself; the client is released with the error so the pool destroys it
 * instead of handing it to the next caller. A connection lost during COMMIT leaves the outcome
 * unknown to us: the error goes up (503) and nothing here retries it, so money movements are
 * only ever retried by the caller, under its paymentReference or Idempotency-Key.
 */
async function runTransaction<T>(pool: pg.Pool, fn: (tx: Tx) => Promise<T>) {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const tx: Tx = {
      query: (sql, params) => runQuery(client, sql, params),
      exec: async (sql) => {
        await client.query(sql);
      },
    };
    const result = await fn(tx);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      // The connection is gone, and the transaction with it. (Should the error have come from
      // elsewhere, destroying the client closes its session, which rolls back all the same.)
      broken = asError(error);
    } else {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // The connection itself failed; do not return it to the pool.
        broken = asError(rollbackError);
      }
    }
    throw error;
  } finally {
    client.release(broken);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** `report` for the first call, then at most once per interval, with the calls left out. */
function throttled(
  report: (error: unknown, unreported: number) => void,
  intervalMs: number,
): (error: unknown) => void {
  let lastAt = Number.NEGATIVE_INFINITY;
  let unreported = 0;
  return (error) => {
    const now = Date.now();
    if (now - lastAt < intervalMs) {
      unreported += 1;
      return;
    }
    lastAt = now;
    const skipped = unreported;
    unreported = 0;
    try {
      report(error, skipped);
    } catch {
      // Reporting must never turn a handled error into a crash.
    }
  };
}

const statementNames = new Map<string, string>();
const STATEMENT_NAMES_MAX = 2000;

/**
 * Every query runs as a named (prepared) statement: PostgreSQL parses and plans it once per
 * connection instead of on every call, which was a third of its time per transfer. The name is
 * derived from the text, so the same text is the same statement on every connection.
 */
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `s${createHash('sha1').update(sql).digest('base64url').slice(0, 20)}`;
    if (statementNames.size < STATEMENT_NAMES_MAX) {
      statementNames.set(sql, name);
    }
  }
  return name;
}
