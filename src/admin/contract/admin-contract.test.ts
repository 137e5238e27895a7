/**
 * The admin contract is what the admin routes publish: every admin route the server serves is in
 * it, each of its routes is served, and each route's success answer, body, path parameters and
 * query are the contract's, as the OpenAPI document generated from the routes shows them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HTTPMethods } from 'fastify';
import type { TSchema } from 'typebox';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { adminContract } from './index.ts';

interface Operation {
  readonly parameters?: readonly { readonly in: string; readonly name: string }[];
  readonly requestBody?: { readonly content: Record<string, { readonly schema: unknown }> };
  readonly responses: Record<string, { readonly content?: Record<string, { schema: unknown }> }>;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const satisfies HTTPMethods[];

/** A schema as OpenAPI publishes it: a record's key pattern `^.*$` reads as additionalProperties. */
const published = (schema: TSchema | undefined): unknown =>
  schema === undefined
    ? undefined
    : JSON.parse(JSON.stringify(schema), (_key, value) => {
        const anyKey = value?.patternProperties?.['^.*$'];
        if (anyKey === undefined) {
          return value;
        }
        const { patternProperties: _, ...rest } = value;
        return { ...rest, additionalProperties: anyKey };
      });

const propertyNames = (schema: TSchema | undefined): string[] =>
  schema !== undefined && 'properties' in schema && typeof schema.properties === 'object'
    ? Object.keys(schema.properties ?? {}).sort()
    : [];

describe('the admin contract', () => {
  let testApp: TestApp;
  /** The admin operations of the OpenAPI document, by contract key: `GET /admin/clients/:id`. */
  const operations = new Map<string, Operation>();

  before(async () => {
    // The sandbox publishes the admin API (ADMIN_API_IN_DOCS) and serves the dashboard's routes.
    testApp = await buildTestApp();
    const document = await testApp.app.inject({ method: 'GET', url: '/openapi.json' });
    const paths: Record<string, Record<string, Operation>> = document.json().paths;
    for (const [path, byMethod] of Object.entries(paths)) {
      for (const method of METHODS) {
        const operation = byMethod[method.toLowerCase()];
        if (path.startsWith('/admin') && operation !== undefined) {
          operations.set(`${method} ${path.replace(/\{(\w+)\}/g, ':$1')}`, operation);
        }
      }
    }
  });
  after(async () => testApp?.close());

  it('names every admin route the server publishes, and the server serves each one', () => {
    assert.deepEqual([...operations.keys()].sort(), Object.keys(adminContract).sort());
    for (const key of Object.keys(adminContract)) {
      const method = METHODS.find((each) => key.startsWith(`${each} `)) ?? 'GET';
      const url = key.slice(method.length + 1);
      assert.ok(testApp.app.hasRoute({ method, url }), key);
    }
  });

  it("each route answers a success with the contract's schema, at the contract's status", () => {
    for (const [key, route] of Object.entries(adminContract)) {
      const status = 'status' in route ? route.status : 200;
      const answer = operations.get(key)?.responses[String(status)]?.content;
      assert.deepEqual(answer?.['application/json']?.schema, published(route.answer), key);
    }
  });

  it("each route takes the contract's body, path parameters and query, and nothing else", () => {
    for (const [key, route] of Object.entries(adminContract)) {
      const operation = operations.get(key);
      assert.deepEqual(
        operation?.requestBody?.content['application/json']?.schema,
        published('body' in route ? route.body : undefined),
        key,
      );
      const parameters = (place: string) =>
        (operation?.parameters ?? [])
          .filter((parameter) => parameter.in === place)
          .map((parameter) => parameter.name)
          .sort();
      assert.deepEqual(
        parameters('path'),
        propertyNames('params' in route ? route.params : undefined),
        key,
      );
      assert.deepEqual(
        parameters('query'),
        propertyNames('query' in route ? route.query : undefined),
        key,
      );
    }
  });

  it("names, for an action's before-state, a read route whose ids the action has", () => {
    const pathIds = (key: string) => [...key.matchAll(/:(\w+)/g)].map((match) => match[1]);
    const withBefore = Object.entries(adminContract).flatMap(([key, entry]) =>
      'before' in entry ? [[key, entry.before] as const] : [],
    );
    assert.ok(withBefore.length >= 30, 'the actions that change a record name their read');
    for (const [key, readRoute] of withBefore) {
      assert.ok(!key.startsWith('GET '), `${key}: a read has no before-state`);
      assert.ok(readRoute.startsWith('GET ') && Object.hasOwn(adminContract, readRoute), key);
      for (const id of pathIds(readRoute)) {
        assert.ok(pathIds(key).includes(id), `${key}: its read ${readRoute} needs :${id}`);
      }
    }
  });
});
