import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/app-error.ts';
import { percentEncodingProblem, unstorableTextProblem } from '../../shared/storable-text.ts';

/**
 * Reads what real clients of the published API send as they mean it, before the schema checks
 * it (docs/api.md, "What clients send"), then refuses text the database and other systems cannot
 * hold. Runs on every route, before validation; the route's own schema says what each field is.
 */
export function installClientInput(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema;
    const query = request.query;
    if (isSchema(schema?.querystring) && isPlainObject(query)) {
      readQuery(query, schema.querystring);
    }
    if (isSchema(schema?.body)) {
      request.body = readBody(request.body, schema.body);
    }
    refuseHostile(request);
  });
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

type PlainObject = Record<string, unknown>;

const INTEGER_TEXT = /^-?\d{1,15}$/;
const NUMBER_TEXT = /^-?\d{1,15}(\.\d{1,15})?$/;

/**
 * Query strings: an empty value is an absent parameter (`fromDate=&type=`), booleans may be
 * `1`/`0`, enum values match whatever their case, and numbers are plain decimals (no `Infinity`,
 * `1e309`, `0x10` or padding).
 */
function readQuery(query: PlainObject, schema: JsonSchema): void {
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const value = query[name];
    if (typeof value !== 'string') {
      continue;
    }
    if (value === '') {
      delete query[name];
    } else if (accepts(property, 'boolean')) {
      query[name] = BOOLEAN_TEXT[value.toLowerCase()] ?? value;
    } else if (accepts(property, 'integer') || accepts(property, 'number')) {
      query[name] = queryNumber(name, value, accepts(property, 'integer'));
    } else if (property.enum !== undefined) {
      const lower = value.toLowerCase();
      query[name] =
        property.enum.find((item) => typeof item === 'string' && item.toLowerCase() === lower) ??
        value;
    }
  }
}

const BOOLEAN_TEXT: Record<string, boolean> = { true: true, '1': true, false: false, '0': false };

function queryNumber(name: string, text: string, integer: boolean): number {
  if (!(integer ? INTEGER_TEXT : NUMBER_TEXT).test(text)) {
    const message = integer ? 'must be an integer' : 'must be a number';
    throw new AppError('VALIDATION_ERROR', `${name} ${message}`, {
      details: [{ field: name, message }],
    });
  }
  return Number(text);
}

/**
 * Bodies from form-minded clients: a PUT body `[]` is an empty update; an object field sent as a
 * JSON-encoded string is parsed (`metadata: "{\"a\":1}"`); `""`, `"[]"` or `[]` for an optional
 * object and `""` for an optional string mean the field is absent. Anything else is left for the
 * schema to refuse.
 */
function readBody(body: unknown, schema: JsonSchema): unknown {
  if (Array.isArray(body) && body.length === 0 && accepts(schema, 'object')) {
    return {};
  }
  if (!isPlainObject(body) || schema.properties === undefined) {
    return body;
  }
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!Object.hasOwn(body, name)) {
      continue;
    }
    const value = readField(body[name], property, required.has(name));
    if (value === ABSENT) {
      delete body[name];
    } else {
      body[name] = value;
    }
  }
  return body;
}

const ABSENT = Symbol('absent');

function readField(value: unknown, schema: JsonSchema, required: boolean): unknown {
  const objectSchema = objectBranch(schema);
  if (objectSchema !== undefined && !accepts(schema, 'string')) {
    if (!required && (isEmptyText(value) || (Array.isArray(value) && value.length === 0))) {
      return ABSENT;
    }
    const decoded = typeof value === 'string' ? decodeObject(value) : value;
    return readBody(decoded, objectSchema);
  }
  if (!required && value === '' && acceptsText(schema)) {
    return ABSENT;
  }
  return value;
}

function isEmptyText(value: unknown): boolean {
  return typeof value === 'string' && (value.trim() === '' || value.trim() === '[]');
}

/** A JSON-encoded object, or the text unchanged for the schema to refuse. */
function decodeObject(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : text;
  } catch {
    return text;
  }
}

function objectBranch(schema: JsonSchema): JsonSchema | undefined {
  if (accepts(schema, 'object', false)) {
    return schema;
  }
  return schema.anyOf?.find((branch) => accepts(branch, 'object', false));
}

function accepts(schema: JsonSchema, type: string, throughUnions = true): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return (
    types.includes(type) ||
    (throughUnions && (schema.anyOf ?? []).some((branch) => accepts(branch, type)))
  );
}

function acceptsText(schema: JsonSchema): boolean {
  return (
    accepts(schema, 'string') ||
    (schema.enum ?? []).some((item) => typeof item === 'string') ||
    (schema.anyOf ?? []).some(acceptsText)
  );
}

const MAX_DEPTH = 32;

/**
 * NUL characters, lone surrogates, non-finite numbers, prototype keys and nesting deeper than
 * 32 levels are refused anywhere in the query, the path or the body, keys included; NUL and lone
 * surrogates in any header too; and a query whose percent-encoding is broken or encodes bytes
 * that are not UTF-8 (the query parser would keep such text as it was sent).
 */
function refuseHostile(request: FastifyRequest): void {
  const parts: [string, unknown][] = [
    ['query', request.query],
    ['params', request.params],
    ['body', request.body],
  ];
  for (const [part, value] of parts) {
    const problem = findHostile(value, '', 0);
    if (problem !== undefined) {
      refuse(problem.field === '' ? part : problem.field, problem.message);
    }
  }
  const problem = headerProblem(request.headers) ?? rawQueryProblem(request.url);
  if (problem !== undefined) {
    refuse(problem.field, problem.message);
  }
}

function refuse(field: string, message: string): never {
  throw new AppError('VALIDATION_ERROR', `${field} ${message}`, { details: [{ field, message }] });
}

function headerProblem(headers: FastifyRequest['headers']): Problem | undefined {
  for (const [name, value] of Object.entries(headers)) {
    for (const text of Array.isArray(value) ? value : [value ?? '']) {
      const message = unstorableTextProblem(text);
      if (message !== undefined) {
        return { field: `headers.${name}`, message };
      }
    }
  }
  return undefined;
}

function rawQueryProblem(url: string): Problem | undefined {
  const start = url.indexOf('?');
  if (start === -1) {
    return undefined;
  }
  for (const pair of url.slice(start + 1).split('&')) {
    const message = percentEncodingProblem(pair);
    if (message !== undefined) {
      const name = pair.split('=')[0] ?? '';
      const field = percentEncodingProblem(name) === undefined ? decodeQueryName(name) : 'query';
      return { field, message };
    }
  }
  return undefined;
}

function decodeQueryName(name: string): string {
  return decodeURIComponent(name.replaceAll('+', ' ')) || 'query';
}

interface Problem {
  readonly field: string;
  readonly message: string;
}

function findHostile(value: unknown, field: string, depth: number): Problem | undefined {
  if (typeof value === 'string') {
    return textProblem(value, field);
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : { field, message: 'must be a finite number' };
  }
  if (value === null || typeof value !== 'object') {
    return undefined;
  }
  if (depth >= MAX_DEPTH) {
    return { field, message: `is nested more than ${MAX_DEPTH} levels deep` };
  }
  for (const [key, item] of Object.entries(value)) {
    const path = field === '' ? key : `${field}.${key}`;
    const problem = keyProblem(key, item, path) ?? findHostile(item, path, depth + 1);
    if (problem !== undefined) {
      return problem;
    }
  }
  return undefined;
}

/** The same prototype keys the JSON body parser refuses, wherever the object came from. */
function keyProblem(key: string, item: unknown, path: string): Problem | undefined {
  const poisoning =
    key === '__proto__' ||
    (key === 'constructor' && typeof item === 'object' && item !== null && 'prototype' in item);
  if (poisoning) {
    return { field: path, message: 'is not an allowed name' };
  }
  return textProblem(key, path);
}

function textProblem(text: string, field: string): Problem | undefined {
  const message = unstorableTextProblem(text);
  return message === undefined ? undefined : { field, message };
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null;
}

function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
