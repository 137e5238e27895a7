/**
 * The preflight matrix: a browser asks `OPTIONS` before a cross-origin call with a JSON body or
 * an `Authorization` header. Only the route the checkout widget calls from a merchant's page
 * (`POST /checkout/sessions`) may answer one. Every other path of the OpenAPI document, the
 * operator API, the dashboard and the unlisted routes answers an `OPTIONS`, from any origin or
 * none, as it answers a route that does not exist: 404 `ROUTE_NOT_FOUND` in the error envelope,
 * with no `Access-Control-*` header, so no other origin's script is ever let in.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../harness.ts';
import { buildSecurityApp, openApiOperations, safeJson } from './security-helpers.ts';

/** The one route a merchant's page calls from its own origin. */
const WIDGET_ROUTE = '/checkout/sessions';

/** Paths the OpenAPI document does not list: hidden routes, the dashboard, unknown paths. */
const UNLISTED = [
  '/openapi.json',
  '/docs',
  '/health',
  '/metrics',
  '/assets/checkout.js',
  '/assets/checkout-page.js',
  '/checkout/pay/ffffffffffffffffffffffff',
  '/dashboard',
  '/dashboard/login',
  '/dashboard/logout',
  '/dashboard/clients',
  '/dashboard/clients/ffffffffffffffffffffffff',
  '/dashboard/assets/dashboard.css',
  '/admin/clients',
  '/admin/dashboard/login-links',
  '/admin/dashboard/sessions/end-all',
  '/no/such/route',
  '/checkout/sessions/',
  '/checkout/sessionsx',
];

const PREFLIGHT = {
  origin: 'https://evil.example',
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'authorization, content-type, clientid',
};

function corsHeaders(response: LightMyRequestResponse): string[] {
  return Object.keys(response.headers).filter((name) => name.startsWith('access-control-'));
}

/** The answer of a route that does not exist, and nothing that would let a browser in. */
function assertNoRoute(response: LightMyRequestResponse, label: string) {
  assert.equal(response.statusCode, 404, `${label}: ${response.statusCode} ${response.body}`);
  assert.match(String(response.headers['content-type']), /^application\/json/, label);
  const body = safeJson(response);
  assert.equal(body?.code, 'ROUTE_NOT_FOUND', label);
  assert.equal(body?.statusCode, 404, label);
  assert.deepEqual(corsHeaders(response), [], label);
}

describe('CORS preflight matrix: only the checkout widget route answers', () => {
  let testApp: TestApp;
  let paths: string[];

  before(async () => {
    testApp = await buildSecurityApp();
    const listed = (await openApiOperations(testApp.app)).map(({ path }) =>
      path.replace(/\{[^}]+\}/g, 'ffffffffffffffffffffffff'),
    );
    paths = [...new Set([...listed, ...UNLISTED])].filter((path) => path !== WIDGET_ROUTE);
  });
  after(() => testApp?.close());

  const options = (url: string, headers: Record<string, string>) =>
    testApp.app.inject({ method: 'OPTIONS', url, headers });

  it('the document lists the operator API and the checkout routes (the matrix is wide)', () => {
    assert.ok(paths.some((path) => path.startsWith('/admin/')));
    assert.ok(paths.some((path) => path.startsWith('/checkout/sessions/')));
    assert.ok(paths.length > 60, `${paths.length} paths`);
  });

  it('every other path: a preflight from a foreign origin is an unknown route', async () => {
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        const headers = { ...PREFLIGHT, 'access-control-request-method': method };
        assertNoRoute(await options(path, headers), `OPTIONS ${path} (${method})`);
      }
    }
  });

  it('every path, the widget route too: an OPTIONS that is no preflight is an unknown route', async () => {
    for (const path of [...paths, WIDGET_ROUTE]) {
      assertNoRoute(await options(path, {}), `OPTIONS ${path} without Origin`);
      assertNoRoute(
        await options(path, { origin: 'https://shop.example' }),
        `OPTIONS ${path} without Access-Control-Request-Method`,
      );
    }
  });

  it('the widget route answers a preflight for POST with a JSON body, and allows nothing more', async () => {
    const response = await options(WIDGET_ROUTE, PREFLIGHT);
    assert.equal(response.statusCode, 204, response.body);
    assert.equal(response.headers['access-control-allow-origin'], '*');
    assert.equal(response.headers['access-control-allow-methods'], 'POST');
    // What the page asked for is not echoed: only content-type is allowed.
    assert.equal(response.headers['access-control-allow-headers'], 'content-type');
    assert.equal(response.headers['access-control-allow-credentials'], undefined);
  });

  it('a non-OPTIONS request elsewhere carries no CORS header, whatever its Origin', async () => {
    for (const [method, url] of [
      ['GET', '/admin/clients'],
      ['GET', '/accounts'],
      ['POST', '/oauth2/token'],
      ['GET', '/dashboard/login'],
      ['GET', '/checkout/sessions/ffffffffffffffffffffffff'],
    ] as const) {
      const response = await testApp.app.inject({
        method,
        url,
        headers: { origin: 'https://evil.example' },
      });
      assert.deepEqual(corsHeaders(response), [], `${method} ${url}`);
    }
  });
});
