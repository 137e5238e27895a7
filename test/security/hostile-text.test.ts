import assert from 'node:assert/strict';
import { createSign } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { adminHeaders, signedInClient, type TestClient } from '../factories.ts';
import { TEST_BASE_URL, type TestApp } from '../harness.ts';
import {
  buildSecurityApp,
  changedTables,
  databaseFingerprint,
  type Headers,
  type JsonSchema,
  type OpenApiOperation,
  openApiOperations,
  safeJson,
} from './security-helpers.ts';

/**
 * Text the database cannot store, in every place of every route of /openapi.json: U+0000 and a
 * lone UTF-16 surrogate in every header a client sends (and every header the route declares),
 * every path segment and query value (and a query name) as percent-encoded bytes, every body
 * field as JSON escapes (`\u0000`, `\ud800`), object keys included, and every header field and
 * claim of a client assertion, on both grants. Every answer must be a 4xx in the error envelope,
 * never a 5xx; nothing but the audit trail may change; every refused admin call (a wrong token
 * with a hostile path included) and every refused client authentication has its audit row.
 */

const TEXT = ['a\u0000b', 'x\ud800y'] as const;
const URL_BYTES = ['a%00b', '%ED%A0%80', '%ED%B0%80x'] as const;
const SOME_ID = '000000000000000000000000';
const WRONG_ADMIN = { authorization: 'Bearer not-the-admin-token-0123456789' };
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const BATCH = 24;

interface Probe {
  readonly label: string;
  readonly request: InjectOptions;
  /** A refused call whose audit row must exist: an admin call, or a client authentication. */
  readonly audited?: 'admin' | 'authentication';
}

interface Route {
  readonly method: string;
  readonly path: string;
  readonly operation: OpenApiOperation;
}

describe('hostile text in every place of every documented route', () => {
  let testApp: TestApp;
  let client: TestClient;
  let clientHeaders: Headers;
  let refreshToken: string;
  let routes: Route[];

  before(async () => {
    testApp = await buildSecurityApp();
    const signedIn = await signedInClient(testApp, 'Hostile Text Ltd');
    client = signedIn.client;
    clientHeaders = signedIn.headers;
    refreshToken = signedIn.tokens.refresh_token;
    routes = await openApiOperations(testApp.app);
  });
  after(() => testApp.close());

  const isAdmin = (route: Route) => route.path.startsWith('/admin');
  const credentials = (route: Route): Headers => (isAdmin(route) ? adminHeaders : clientHeaders);
  const bodySchema = (route: Route) =>
    route.operation.requestBody?.content?.['application/json']?.schema;
  const parameters = (route: Route, place: string) =>
    (route.operation.parameters ?? []).filter((parameter) => parameter.in === place);

  /** The route's URL with every path parameter a plausible id, one of them replaced. */
  function url(route: Route, replace?: { name: string; value: string }, query = ''): string {
    const path = route.path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
      name === replace?.name ? replace.value : SOME_ID,
    );
    return `${path}${query === '' ? '' : `?${query}`}`;
  }

  function request(route: Route, overrides: Partial<InjectOptions> = {}): InjectOptions {
    const schema = bodySchema(route);
    return {
      method: route.method as 'GET',
      url: url(route),
      headers: { ...credentials(route), 'content-type': 'application/json' },
      ...(schema === undefined ? {} : { payload: '{}' }),
      ...overrides,
    } as InjectOptions;
  }

  function headerProbes(route: Route): Probe[] {
    const declared = parameters(route, 'header').map((parameter) => parameter.name);
    const names = new Set([
      'authorization',
      'clientid',
      'origin',
      'idempotency-key',
      'x-operator',
      'x-request-id',
      ...declared.map((name) => name.toLowerCase()),
    ]);
    const base = request(route);
    return [...names].flatMap((name) =>
      TEXT.map((text) => {
        const sent = (base.headers as Headers)[name];
        const value = sent === undefined ? text : `${sent}${text}`;
        return {
          label: `${route.method} ${route.path} header ${name}=${JSON.stringify(value).slice(0, 40)}`,
          request: { ...base, headers: { ...(base.headers as Headers), [name]: value } },
          ...(isAdmin(route) ? { audited: 'admin' as const } : {}),
        };
      }),
    );
  }

  function pathProbes(route: Route): Probe[] {
    return parameters(route, 'path').flatMap(({ name }) =>
      URL_BYTES.flatMap((value) => {
        const label = `${route.method} ${route.path} path ${name}=${value}`;
        const hostileUrl = url(route, { name, value });
        const probes: Probe[] = [{ label, request: request(route, { url: hostileUrl }) }];
        if (isAdmin(route)) {
          probes[0] = { ...(probes[0] as Probe), audited: 'admin' };
          probes.push({
            label: `${label} (wrong admin token)`,
            request: request(route, {
              url: hostileUrl,
              headers: { ...WRONG_ADMIN, 'content-type': 'application/json' },
            }),
            audited: 'admin',
          });
        }
        return probes;
      }),
    );
  }

  function queryProbes(route: Route): Probe[] {
    const names = parameters(route, 'query').map((parameter) => parameter.name);
    const queries = [
      ...names.flatMap((name) => URL_BYTES.map((value) => `${name}=${value}`)),
      ...(route.method === 'GET' ? URL_BYTES.map((value) => `${value}=1`) : []),
    ];
    return queries.map((query) => ({
      label: `${route.method} ${route.path} query ${query}`,
      request: request(route, { url: url(route, undefined, query) }),
      ...(isAdmin(route) ? { audited: 'admin' as const } : {}),
    }));
  }

  function bodyProbes(route: Route): Probe[] {
    const schema = bodySchema(route);
    if (schema === undefined) {
      return [];
    }
    const bodies = [
      ...fieldPaths(schema).flatMap((path) =>
        TEXT.map((text) => ({ path, body: placeAt(schema, path.split('.'), text) })),
      ),
      ...TEXT.map((text) => ({ path: `key ${JSON.stringify(text)}`, body: { [text]: 'v' } })),
      ...TEXT.map((text) => ({
        path: `nested key ${JSON.stringify(text)}`,
        body: { metadata: { deep: [{ [text]: 1 }] } },
      })),
    ];
    return bodies.map(({ path, body }) => ({
      label: `${route.method} ${route.path} body ${path}`,
      // JSON.stringify writes U+0000 and lone surrogates as \u0000 and \ud800 escapes.
      request: request(route, { payload: JSON.stringify(body) }),
      ...(isAdmin(route) ? { audited: 'admin' as const } : {}),
    }));
  }

  /** The token endpoint's form body, percent-encoded bytes in each field. */
  function formProbes(): Probe[] {
    return ['grant_type', 'client_id', 'client_assertion', 'refresh_token'].flatMap((field) =>
      URL_BYTES.map((value) => ({
        label: `POST /oauth2/token form ${field}=${value}`,
        request: {
          method: 'POST' as const,
          url: '/oauth2/token',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `grant_type=client_credentials&${field}=${value}`,
        },
      })),
    );
  }

  /** Client assertions signed by the client's own key, a hostile value in one claim or field. */
  function assertionProbes(): Probe[] {
    const now = Math.floor(testApp.clock.now().getTime() / 1000);
    const claims = {
      iss: 'https://fintech.example',
      sub: client.oauthClientId,
      aud: TEST_BASE_URL,
      iat: now,
      exp: now + 300,
      jti: 'jti-1',
    };
    const places: [string, object, object][] = TEXT.flatMap((text) => [
      ['sub', {}, { sub: text }],
      ['sub (client id + text)', {}, { sub: `${client.oauthClientId}${text}` }],
      ['iss', {}, { iss: text }],
      ['jti', {}, { jti: text }],
      ['aud', {}, { aud: [TEST_BASE_URL, text] }],
      ['a claim name', {}, { [text]: true }],
      ['a nested claim', {}, { ctx: { list: [text] } }],
      ['header kid', { kid: text }, {}],
      ['header typ', { typ: text }, {}],
    ]);
    return places.flatMap(([place, header, extra]) => {
      const assertion = signed({ alg: 'RS256', typ: 'JWT', ...header }, { ...claims, ...extra });
      const grants = [
        { grant_type: 'client_credentials' },
        { grant_type: 'client_credentials', client_id: client.oauthClientId },
        { grant_type: 'refresh_token', refresh_token: refreshToken },
      ];
      return grants.map((grant) => ({
        label: `POST /oauth2/token ${grant.grant_type} assertion ${place}`,
        request: {
          method: 'POST' as const,
          url: '/oauth2/token',
          payload: { ...grant, client_assertion_type: ASSERTION_TYPE, client_assertion: assertion },
        },
        audited: 'authentication' as const,
      }));
    });
  }

  function signed(header: object, payload: object): string {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const input = `${encode(header)}.${encode(payload)}`;
    const signature = createSign('RSA-SHA256').update(input).sign(client.privateKey);
    return `${input}.${signature.toString('base64url')}`;
  }

  it('answers every hostile request with a 4xx in the envelope, changes nothing, and audits each refusal', async () => {
    assert.ok(routes.length >= 90, `the document lists every route (${routes.length})`);
    const probes = [
      ...routes.flatMap((route) => [
        ...headerProbes(route),
        ...pathProbes(route),
        ...queryProbes(route),
        ...bodyProbes(route),
      ]),
      ...formProbes(),
      ...assertionProbes(),
    ];
    const before = await databaseFingerprint(testApp.db);
    const answers: [Probe, LightMyRequestResponse][] = [];
    for (let start = 0; start < probes.length; start += BATCH) {
      const batch = probes.slice(start, start + BATCH);
      const responses = await Promise.all(batch.map((probe) => testApp.app.inject(probe.request)));
      for (const [index, probe] of batch.entries()) {
        answers.push([probe, responses[index] as LightMyRequestResponse]);
      }
    }

    const counts = answers.reduce<Record<string, number>>((all, [probe]) => {
      const place =
        / (header|path|query|body|form|client_credentials|refresh_token) /.exec(probe.label)?.[1] ??
        'other';
      all[place] = (all[place] ?? 0) + 1;
      return all;
    }, {});
    console.log(`hostile requests by place: ${JSON.stringify(counts)}`);
    const wrong = answers.filter(([, response]) => !isEnvelopedRefusal(response));
    assert.deepEqual(
      wrong.map(
        ([probe, response]) =>
          `${probe.label} -> ${response.statusCode} ${response.body.slice(0, 160)}`,
      ),
      [],
      `${wrong.length} of ${answers.length} answers are not a 4xx in the error envelope`,
    );
    assert.deepEqual(
      changedTables(before, await databaseFingerprint(testApp.db)),
      ['public.audit_chain_head', 'public.audit_events'],
      'only the audit trail (its rows and its chain head) changed',
    );
    await assertAudited(answers);
  });

  async function assertAudited(answers: [Probe, LightMyRequestResponse][]) {
    const expected = new Map(
      answers
        .filter(([probe]) => probe.audited !== undefined)
        .map(([probe, response]) => [response.headers['x-request-id'] as string, probe]),
    );
    assert.ok(expected.size > 500, `${expected.size} refusals to find in the audit trail`);
    console.log(`refusals looked up in the audit trail: ${expected.size}`);
    const rows = await testApp.db.query<{ request_id: string; action: string }>(
      'SELECT request_id, action FROM audit_events WHERE request_id = ANY($1::text[])',
      [[...expected.keys()]],
    );
    const found = new Map(rows.map((row) => [row.request_id, row.action]));
    const missing = [...expected].filter(([id, probe]) => {
      const action = found.get(id);
      return probe.audited === 'admin'
        ? action?.startsWith('admin.') !== true
        : action !== 'token.client_authentication_failed';
    });
    assert.deepEqual(
      missing.map(([, probe]) => probe.label),
      [],
      `${missing.length} refusals without their audit row`,
    );
  }
});

function isEnvelopedRefusal(response: LightMyRequestResponse): boolean {
  const body = safeJson(response);
  return (
    response.statusCode >= 400 &&
    response.statusCode < 500 &&
    body?.statusCode === response.statusCode &&
    typeof body.code === 'string' &&
    typeof body.message === 'string' &&
    typeof response.headers['x-request-id'] === 'string'
  );
}

/** Every field of a body schema as a dotted path (array items under their array's name). */
function fieldPaths(schema: JsonSchema, prefix = ''): string[] {
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  const own = Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    const items = property.items === undefined ? [] : fieldPaths(property.items, path);
    return [path, ...fieldPaths(property, path), ...items];
  });
  return [...new Set([...own, ...branches.flatMap((branch) => fieldPaths(branch, prefix))])];
}

/** A body holding `value` at `path`, shaped as the schema says (an array where it is one). */
function placeAt(schema: JsonSchema | undefined, path: string[], value: unknown): unknown {
  const [name, ...rest] = path;
  if (name === undefined) {
    return value;
  }
  const property = propertyOf(schema, name);
  const inner = placeAt(property?.items ?? property, rest, value);
  const isArray = property?.type === 'array' && rest.length > 0;
  return { [name]: isArray ? [inner] : inner };
}

function propertyOf(schema: JsonSchema | undefined, name: string): JsonSchema | undefined {
  if (schema === undefined) {
    return undefined;
  }
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  return schema.properties?.[name] ?? branches.map((b) => propertyOf(b, name)).find(Boolean);
}
