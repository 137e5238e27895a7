import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../test/harness.ts';

describe('the HTTP surface', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp();
  });
  after(() => testApp.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    testApp.app.inject({ method: 'GET', url, headers });

  it('GET /health answers while the process runs; GET /ready checks the database', async () => {
    assert.deepEqual((await get('/health')).json(), { status: 'ok' });
    assert.deepEqual((await get('/ready')).json(), { status: 'ready' });
  });

  it('serves an OpenAPI 3.1 document generated from the route schemas', async () => {
    const document = (await get('/openapi.json')).json();
    assert.equal(document.openapi, '3.1.0');
    for (const path of [
      '/oauth2/token',
      '/accounts',
      '/accounts/{id}',
      '/accounts/{id}/statement',
      '/admin/clients',
      '/admin/sandbox/credits',
    ]) {
      assert.ok(document.paths[path], `${path} is documented`);
    }
    const statement = document.paths['/accounts/{id}/statement'].get;
    const names = statement.parameters.map((parameter: { name: string }) => parameter.name);
    for (const name of ['page', 'limit', 'fromDate', 'toDate', 'type']) {
      assert.ok(names.includes(name), `statement documents ${name}`);
    }
  });

  it('serves an interactive reference at /docs', async () => {
    const response = await get('/docs/');
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /text\/html/);
  });

  it('answers an unknown route with 404 in the error envelope', async () => {
    const response = await get('/no/such/route');
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, 'ROUTE_NOT_FOUND');
    assert.equal(response.json().statusCode, 404);
  });

  it('echoes a well-formed x-request-id and replaces a hostile one', async () => {
    assert.equal(
      (await get('/health', { 'x-request-id': 'abc-123' })).headers['x-request-id'],
      'abc-123',
    );
    const replaced = (await get('/health', { 'x-request-id': 'bad id\u0000<script>' })).headers[
      'x-request-id'
    ];
    assert.match(String(replaced), /^[0-9a-f-]{36}$/);
  });

  it('refuses an oversized body with 413 and an unknown content type with 415', async () => {
    const big = await testApp.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ client_assertion: 'x'.repeat(300 * 1024) }),
    });
    assert.equal(big.statusCode, 413);
    assert.equal(big.json().code, 'PAYLOAD_TOO_LARGE');
    const xml = await testApp.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    assert.equal(xml.statusCode, 415);
  });

  it('refuses a prototype-poisoning body', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__": {"admin": true}, "grant_type": "client_credentials"}',
    });
    assert.equal(response.statusCode, 400);
  });
});
