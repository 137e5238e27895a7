import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { verifyLedger } from '../../src/ledger/ledger-audit.ts';
import { adminHeaders, sandboxCredit, signedInClient } from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';

/**
 * Hostile input on every route of the served OpenAPI document: bodies, queries and path ids
 * built from each route's own schema, then broken (wrong types, missing and extra fields,
 * non-finite and huge numbers, NUL bytes, lone surrogates, huge strings, deep nesting, prototype
 * keys). No answer may be a 5xx, and the ledger must still balance afterwards.
 */
const WORLD_REPLACING = new Set(['/admin/sandbox/fixtures', '/admin/sandbox/reset']);
const SEED = 20261123;
const REQUESTS = 2_400;

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  examples?: unknown[];
  format?: string;
};

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly query: { name: string; schema: Schema }[];
  readonly pathParams: string[];
  readonly body: Schema | undefined;
}

/** mulberry32: a small seeded generator, so a failing run can be replayed exactly. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick, chance: (p: number) => next() < p };
}

type Random = ReturnType<typeof random>;

// Raw JSON the serializer cannot write: replaced in the text after JSON.stringify.
const RAW = { '"@@INF@@"': '1e309', '"@@NINF@@"': '-1e309', '"@@TINY@@"': '1e-400' };
const NUL = 'a\u0000b';
const SURROGATE = 'x\ud800y';

function hostileValue(rng: Random): unknown {
  return rng.pick<() => unknown>([
    () => '@@INF@@',
    () => '@@NINF@@',
    () => '@@TINY@@',
    () => 1e308,
    () => -1e20,
    () => 2 ** 64,
    () => 1.000000001,
    () => NUL,
    () => SURROGATE,
    () => '\udc00',
    () => 'x'.repeat(rng.chance(0.2) ? 300_000 : 70_000),
    () => nested(rng.pick([40, 120, 400])),
    () => JSON.parse('{"__proto__":{"polluted":true}}'),
    () => ({ constructor: { prototype: { polluted: true } } }),
    () => null,
    () => true,
    () => [],
    () => [1, 'two', null],
    () => ({}),
    () => '',
    () => ' ',
    () => '0x10',
    () => '1e5',
    () => -1,
    () => 0,
    () => '{"a":1}',
    () => '[]',
  ])();
}

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level += 1) {
    value = level % 2 === 0 ? [value] : { deeper: value };
  }
  return value;
}

/** A value the schema accepts, preferring real records from `known` for fields it names. */
function valid(schema: Schema, rng: Random, known: Record<string, string[]>, name = ''): unknown {
  const pool = known[name];
  if (pool !== undefined && rng.chance(0.85)) {
    return rng.pick(pool);
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches !== undefined) {
    return valid(rng.pick(branches), rng, known, name);
  }
  if (schema.enum !== undefined) {
    return rng.pick(schema.enum);
  }
  if (schema.examples !== undefined && rng.chance(0.5)) {
    return rng.pick(schema.examples);
  }
  const type = Array.isArray(schema.type) ? rng.pick(schema.type) : schema.type;
  switch (type) {
    case 'integer':
      return Math.max(schema.minimum ?? 0, Math.min(schema.maximum ?? 1000, rng.int(50)));
    case 'number':
      return Math.round(rng.next() * 50_000) / 100;
    case 'boolean':
      return rng.chance(0.5);
    case 'array':
      return schema.items === undefined ? [] : [valid(schema.items, rng, known)];
    case 'object': {
      const value: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (required.has(key) || rng.chance(0.5)) {
          value[key] = valid(property, rng, known, key);
        }
      }
      return value;
    }
    case 'string':
      return schema.format === 'email' ? 'fuzz@example.com' : `fuzz-${rng.int(1e6)}`;
    default:
      return rng.chance(0.5) ? `fuzz-${rng.int(1e6)}` : rng.int(100);
  }
}

/** A valid body broken in one or two ways. */
function brokenBody(schema: Schema, rng: Random, known: Record<string, string[]>): unknown {
  if (rng.chance(0.08)) {
    return hostileValue(rng);
  }
  const body = valid(schema, rng, known);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return body;
  }
  const record = body as Record<string, unknown>;
  const keys = Object.keys(schema.properties ?? {});
  const breaks = 1 + rng.int(2);
  for (let count = 0; count < breaks; count += 1) {
    const key = keys.length > 0 ? rng.pick(keys) : 'field';
    switch (rng.int(6)) {
      case 0:
        delete record[key];
        break;
      case 1:
        record[rng.pick(['extra', 'balance', 'client', '__proto__', 'constructor', '\ud800'])] =
          hostileValue(rng);
        break;
      case 2: {
        const nestedSchema = schema.properties?.[key];
        if (nestedSchema?.properties !== undefined) {
          record[key] = brokenBody(nestedSchema, rng, known);
          break;
        }
        record[key] = hostileValue(rng);
        break;
      }
      default:
        record[key] = hostileValue(rng);
    }
  }
  return record;
}

function bodyText(body: unknown): string {
  let text = JSON.stringify(body) ?? 'null';
  for (const [marker, raw] of Object.entries(RAW)) {
    text = text.replaceAll(marker, raw);
  }
  return text;
}

function queryText(op: Operation, rng: Random, known: Record<string, string[]>): string {
  const parts: string[] = [];
  for (const { name, schema } of op.query) {
    if (!rng.chance(0.6)) {
      continue;
    }
    const value = rng.chance(0.6)
      ? rng.pick([
          'Infinity',
          '-Infinity',
          '1e309',
          'NaN',
          '',
          '%00',
          '%ED%A0%80',
          '%E0%A4%A',
          'x'.repeat(5_000),
          '0x1f',
          '-1',
          '999999999999999999999',
          'true',
          'DEBIT',
        ])
      : encodeURIComponent(String(valid(schema, rng, known, name)));
    parts.push(`${name}=${value}`);
    if (rng.chance(0.1)) {
      parts.push(`${name}=${value}`);
    }
  }
  if (rng.chance(0.1)) {
    parts.push('__proto__=1', 'constructor[prototype][x]=1');
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

function pathText(op: Operation, rng: Random, known: Record<string, string[]>): string {
  let path = op.path;
  for (const name of op.pathParams) {
    const value = rng.chance(0.35)
      ? rng.pick(known[name] ?? known.id ?? ['0'])
      : rng.pick([
          '0'.repeat(24),
          'f'.repeat(24),
          'x'.repeat(300),
          '%00',
          '%ED%A0%80',
          '%E0%A4%A',
          '..%2F..%2Fadmin',
          'null',
          '-1',
          '1e309',
          "'%20OR%201=1--",
        ]);
    path = path.replace(`{${name}}`, value);
  }
  return path;
}

function operations(document: {
  paths: Record<string, Record<string, Record<string, unknown>>>;
}): Operation[] {
  const found: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, spec] of Object.entries(methods)) {
      const parameters = (spec.parameters ?? []) as { in: string; name: string; schema: Schema }[];
      const content = (spec.requestBody as { content?: Record<string, { schema: Schema }> })
        ?.content;
      found.push({
        method: method.toUpperCase(),
        path,
        query: parameters.filter((p) => p.in === 'query'),
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        body: content?.['application/json']?.schema,
      });
    }
  }
  return found;
}

describe('input fuzz over the OpenAPI document', () => {
  let testApp: TestApp;
  let clientHeaders: Record<string, string>;
  const known: Record<string, string[]> = {};

  before(async () => {
    testApp = await buildTestApp();
    const signedIn = await signedInClient(testApp);
    clientHeaders = signedIn.headers;
    const { client } = signedIn;
    await sandboxCredit(testApp.app, client.mainAccountNumber, 50_000);
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      testApp.app.inject({ method, url, headers: clientHeaders, ...(payload ? { payload } : {}) });
    const second = (await call('POST', '/accounts', { suffix: 'Fuzz' })).json().data;
    const enquiry = (
      await call('POST', '/transfers/name-enquiry', {
        bankCode: '999240',
        accountNumber: second.accountNumber,
      })
    ).json().data;
    const check = (
      await call('POST', '/identity/v2', {
        type: 'BVN',
        number: '22212345671',
        debitAccountNumber: client.mainAccountNumber,
      })
    ).json().data;
    const accounts = [client.mainAccountNumber, second.accountNumber];
    Object.assign(known, {
      id: [client.mainAccountId, second._id, client.ibsClientId],
      eventId: ['0'.repeat(24)],
      accountId: [client.mainAccountId, second._id],
      accountNumber: accounts,
      debitAccountNumber: accounts,
      beneficiaryAccountNumber: accounts,
      destinationAccountNumber: accounts,
      bankCode: ['999240', '000013'],
      beneficiaryBankCode: ['999240', '000013'],
      nameEnquiryReference: [enquiry.sessionId],
      identityId: [check._id],
      number: ['22212345671', 'RC1234567'],
      otp: ['123456', '000000'],
      url: ['https://hooks.example.com/fuzz'],
      callbackUrl: ['https://hooks.example.com/fuzz'],
      grant_type: ['client_credentials', 'refresh_token'],
      client_id: [client.oauthClientId],
      amount: ['1', '0.01', '100.05'].map(Number) as unknown as string[],
    });
  });
  after(() => testApp.close());

  it(`answers ${REQUESTS} hostile requests over every route without a 5xx, and the ledger balances`, async () => {
    const document = (await testApp.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    // The sandbox's fixtures and reset replace the whole bank this run stands on (its clients
    // and tokens with it); their own tests send them hostile documents.
    const ops = operations(document).filter(
      (op) => !op.path.startsWith('/docs') && !WORLD_REPLACING.has(op.path),
    );
    assert.ok(ops.length >= 35, `the document lists every route (${ops.length})`);
    const rng = random(SEED);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (let index = 0; index < REQUESTS; index += 1) {
      const op = ops[index % ops.length] as Operation;
      const url = `${pathText(op, rng, known)}${queryText(op, rng, known)}`;
      const headers: Record<string, string> = {
        ...(op.path.startsWith('/admin') ? adminHeaders : clientHeaders),
        'content-type': 'application/json',
      };
      if (op.path === '/transfers' && rng.chance(0.3)) {
        headers['idempotency-key'] = rng.pick(['k-1', 'x'.repeat(300), 'é', ' ']);
      }
      const request: InjectOptions = { method: op.method as 'GET', url, headers };
      if (op.body !== undefined || rng.chance(0.1)) {
        request.payload = bodyText(brokenBody(op.body ?? { type: 'object' }, rng, known));
      }
      const response = await testApp.app.inject(request);
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      if (response.statusCode >= 500) {
        failures.push(
          `#${index} ${op.method} ${url.slice(0, 120)} ${String(request.payload ?? '').slice(0, 200)} -> ${response.statusCode} ${response.body.slice(0, 200)}`,
        );
      }
    }
    assert.deepEqual(failures, [], `5xx answers (seed ${SEED}):\n${failures.join('\n')}`);
    assert.ok((statuses.get(200) ?? 0) > 50, `some requests still succeed: ${[...statuses]}`);
    const violations = await verifyLedger(testApp.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
      'ledger invariants',
    );
  });
});
