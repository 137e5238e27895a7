import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Db } from '../../src/db/db.ts';
import { nubanFromSerial } from '../../src/shared/nuban.ts';
import { buildTestApp, type TestApp } from '../harness.ts';

/**
 * The security suites' app: the harness (embedded PGlite, rate limits off) with the public
 * checkout routes' per-IP limits raised too, so a 429 never stands in for the answer under test.
 */
export function buildSecurityApp(): Promise<TestApp> {
  return buildTestApp({
    CHECKOUT_SESSIONS_PER_MINUTE_PER_IP: '100000',
    CHECKOUT_SESSIONS_PER_MINUTE_PER_CLIENT: '1000000',
    CHECKOUT_PAGE_CALLS_PER_MINUTE_PER_IP: '1000000',
  });
}

export type Headers = Record<string, string>;

/** The parts of an error answer that must not differ between two refusals. */
export function errorShape(response: LightMyRequestResponse) {
  const body = safeJson(response);
  return {
    status: response.statusCode,
    statusCode: body?.statusCode,
    error: body?.error,
    code: body?.code,
    message: body?.message,
    error_description: body?.error_description,
  };
}

export function safeJson(response: LightMyRequestResponse): Record<string, unknown> | undefined {
  try {
    return response.json() as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * A fingerprint of every table of the database: one md5 per table over all its rows. Two
 * fingerprints taken around a request that must change nothing are equal; `changedTables`
 * names the tables that differ.
 */
export async function databaseFingerprint(db: Db): Promise<Map<string, string>> {
  let query = fingerprintQueries.get(db);
  if (query === undefined) {
    // The schema does not change while a test runs: the query is built once per database.
    const tables = await db.query<{ name: string }>(
      `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name
         FROM information_schema.tables
        WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
          AND table_type = 'BASE TABLE'
        ORDER BY 1`,
    );
    const columns = tables
      .map(
        ({ name }, index) =>
          `(SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM ${name} t) AS t${index}`,
      )
      .join(',\n');
    query = { sql: `SELECT ${columns}`, names: tables.map(({ name }) => name) };
    fingerprintQueries.set(db, query);
  }
  const [row] = await db.query<Record<string, string>>(query.sql);
  return new Map(query.names.map((name, index) => [name, row?.[`t${index}`] ?? '']));
}

const fingerprintQueries = new WeakMap<Db, { sql: string; names: string[] }>();
const clientFingerprintQueries = new WeakMap<Db, string>();

export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}

/**
 * What one client owns, as rows: every table with a client_id column, and the ledger accounts,
 * entries and holds of its accounts. Equal before and after a request that must not touch it.
 */
export async function clientFingerprint(db: Db, clientId: string): Promise<string> {
  let sql = clientFingerprintQueries.get(db);
  if (sql === undefined) {
    const tables = await db.query<{ name: string }>(
      `SELECT DISTINCT quote_ident(table_name) AS name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name = 'client_id' ORDER BY 1`,
    );
    const digest = (alias: string) =>
      `md5(coalesce(string_agg(${alias}::text, '|' ORDER BY ${alias}::text), ''))`;
    const owned = 'SELECT id FROM accounts WHERE client_id = $1';
    const parts = [
      ...tables.map(({ name }) => `(SELECT ${digest('t')} FROM ${name} t WHERE client_id = $1)`),
      `(SELECT ${digest('l')} FROM ledger_accounts l WHERE l.id IN (${owned}))`,
      `(SELECT ${digest('e')} FROM ledger_entries e WHERE e.account_id IN (${owned}))`,
      `(SELECT ${digest('h')} FROM ledger_holds h WHERE h.account_id IN (${owned}))`,
    ];
    sql = `SELECT concat_ws(',', ${parts.join(', ')}) AS digest`;
    clientFingerprintQueries.set(db, sql);
  }
  const [row] = await db.query<{ digest: string }>(sql, [clientId]);
  return row?.digest ?? '';
}

/** Ids of the same shape as real ones that name nothing. */
export const unknownIds = {
  /** An ObjectId with the same 4-byte time prefix as `like` and 8 fresh random bytes. */
  objectId(like: string): string {
    return like.slice(0, 8) + randomBytes(8).toString('hex');
  },
  /** A 30-digit NIP session id with the same prefix as `like` and a fresh 12-digit serial. */
  nipSessionId(like: string): string {
    return like.slice(0, 18) + randomInt(0, 1_000_000_000_000).toString().padStart(12, '0');
  },
  /** A 10-digit USSD reference. */
  ussdReference(): string {
    return `9${randomInt(0, 1_000_000_000).toString().padStart(9, '0')}`;
  },
  /** A webhook event id (msg_ and 24 base64url characters). */
  eventId(): string {
    return `msg_${randomBytes(18).toString('base64url')}`;
  },
  /** Free text references (paymentReference, referenceCode, externalReference). */
  reference(prefix: string): string {
    return `${prefix}-${randomBytes(6).toString('hex')}`;
  },
};

/** A NUBAN with a valid check digit for `institutionCode` that no account of `db` holds. */
export async function unknownAccountNumber(db: Db, institutionCode: string): Promise<string> {
  for (;;) {
    const candidate = nubanFromSerial(institutionCode, BigInt(randomInt(100_000_000, 999_999_999)));
    const held = await db.query(
      `SELECT 1 FROM accounts WHERE account_number = $1
       UNION ALL SELECT 1 FROM virtual_accounts WHERE account_number = $1`,
      [candidate],
    );
    if (held.length === 0) {
      return candidate;
    }
  }
}

/** The public paths of /openapi.json with their operations (method in upper case). */
export async function openApiOperations(app: FastifyInstance) {
  const response = await app.inject({ method: 'GET', url: '/openapi.json' });
  if (response.statusCode !== 200) {
    throw new Error(`/openapi.json answered ${response.statusCode}`);
  }
  const document = response.json() as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  const operations: { method: string; path: string; operation: OpenApiOperation }[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) {
        operations.push({ method: method.toUpperCase(), path, operation });
      }
    }
  }
  return operations;
}

export interface OpenApiOperation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

/** Every field of a body schema, nested ones as dotted paths (`settlementAccount.accountNumber`). */
export function bodyFieldPaths(schema: JsonSchema | undefined, prefix = ''): string[] {
  if (schema === undefined) {
    return [];
  }
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  const own = Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    return [path, ...bodyFieldPaths(property, path), ...bodyFieldPaths(property.items, path)];
  });
  return [...new Set([...own, ...branches.flatMap((branch) => bodyFieldPaths(branch, prefix))])];
}

/** A local HTTP server that counts the requests it gets (for jku / x5u headers). */
export async function countingServer(body: string): Promise<{
  url: string;
  hits: () => number;
  close: () => Promise<void>;
}> {
  let hits = 0;
  const server: Server = createServer((_request, response) => {
    hits += 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
