import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders, createClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('GET and PUT /admin/clients/:id/checkout-settings', () => {
  let testApp: TestApp;
  let clientId: string;
  before(async () => {
    testApp = await buildTestApp();
    clientId = (await createClient(testApp.app, 'Acme Ltd', 0)).ibsClientId;
  });
  after(() => testApp?.close());
  const call = (method: 'GET' | 'PUT', id: string, payload?: unknown, headers = adminHeaders) =>
    testApp.app.inject({
      method,
      url: `/admin/clients/${id}/checkout-settings`,
      headers: { ...headers, 'x-operator': 'ngozi' },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  it("200: an operator registers a client's origins, read back, and the trail names the operator", async () => {
    const put = await call('PUT', clientId, { allowedOrigins: ['https://shop.example'] });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(put.json().data.allowedOrigins, ['https://shop.example']);
    assert.deepEqual(put.json().data.webhookUrls, []);
    const get = await call('GET', clientId);
    assert.deepEqual(get.json().data.allowedOrigins, ['https://shop.example']);
    const [row] = await testApp.db.query<{ actor: string; target: string }>(
      `SELECT actor, target FROM audit_events
        WHERE action = 'admin.put /admin/clients/:id/checkout-settings' ORDER BY id DESC LIMIT 1`,
    );
    assert.deepEqual(row, { actor: 'break-glass:ngozi', target: clientId });
  });

  it('400 for an origin with a path, and for an unknown client', async () => {
    const bad = await call('PUT', clientId, { allowedOrigins: ['https://shop.example/pay'] });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.equal(bad.json().code, 'VALIDATION_ERROR');
    const unknown = await call('GET', '0123456789abcdef01234567');
    assert.equal(unknown.statusCode, 400, unknown.body);
    assert.equal(unknown.json().code, 'RECORD_NOT_FOUND');
  });

  it('401 without the admin token', async () => {
    const response = await call('GET', clientId, undefined, { authorization: 'Bearer wrong' });
    assert.equal(response.statusCode, 401);
  });
});
