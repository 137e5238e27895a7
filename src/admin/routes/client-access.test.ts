import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders, signedInClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('/admin/clients/:id/access, disable, enable and revoke-tokens', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp();
  });
  after(() => testApp?.close());
  const call = (
    method: 'GET' | 'POST',
    id: string,
    action: string,
    headers: Record<string, string> = adminHeaders,
  ) => testApp.app.inject({ method, url: `/admin/clients/${id}/${action}`, headers });

  it('200: a client starts Active; disabled, its token stops; enabled, Active again', async () => {
    const { client, headers } = await signedInClient(testApp, 'Acme Ltd', 0);
    const id = client.ibsClientId;
    const fresh = await call('GET', id, 'access');
    assert.equal(fresh.statusCode, 200, fresh.body);
    assert.deepEqual(fresh.json().data, {
      client: id,
      status: 'Active',
      disabledAt: null,
      tokensRevokedAt: null,
    });
    assert.equal((await testApp.app.inject({ url: '/accounts', headers })).statusCode, 200);

    const disabled = await call('POST', id, 'disable');
    assert.equal(disabled.statusCode, 200, disabled.body);
    assert.equal(disabled.json().data.status, 'Disabled');
    assert.equal(disabled.json().data.disabledAt, testApp.clock.now().toISOString());
    assert.equal((await call('GET', id, 'access')).json().data.status, 'Disabled');
    assert.equal((await testApp.app.inject({ url: '/accounts', headers })).statusCode, 401);

    const enabled = await call('POST', id, 'enable');
    assert.equal(enabled.statusCode, 200, enabled.body);
    assert.equal(enabled.json().data.status, 'Active');
    assert.equal(enabled.json().data.disabledAt, null);
    assert.equal((await call('GET', id, 'access')).json().data.status, 'Active');
  });

  it('200: revoke-tokens stamps the time and the token held stops; the client stays Active', async () => {
    const { client, headers } = await signedInClient(testApp, 'Tokens Ltd', 0);
    const id = client.ibsClientId;
    const revoked = await call('POST', id, 'revoke-tokens');
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.equal(revoked.json().data.status, 'Active');
    assert.equal(revoked.json().data.tokensRevokedAt, testApp.clock.now().toISOString());
    const read = (await call('GET', id, 'access')).json().data;
    assert.equal(read.tokensRevokedAt, testApp.clock.now().toISOString());
    assert.equal((await testApp.app.inject({ url: '/accounts', headers })).statusCode, 401);
  });

  it('400 for an unknown client and for an id that is too long', async () => {
    for (const action of ['access', 'disable', 'enable', 'revoke-tokens']) {
      const method = action === 'access' ? 'GET' : 'POST';
      const unknown = await call(method, '0123456789abcdef01234567', action);
      assert.equal(unknown.statusCode, 400, unknown.body);
      assert.equal(unknown.json().code, 'RECORD_NOT_FOUND');
    }
    const tooLong = await call('GET', 'x'.repeat(65), 'access');
    assert.equal(tooLong.statusCode, 400, tooLong.body);
    assert.equal(tooLong.json().code, 'VALIDATION_ERROR');
  });

  it('401 without the admin token, and the client is not disabled', async () => {
    const { client } = await signedInClient(testApp, 'Guarded Ltd', 0);
    const wrong = { authorization: 'Bearer wrong' };
    assert.equal((await call('POST', client.ibsClientId, 'disable', wrong)).statusCode, 401);
    assert.equal((await call('GET', client.ibsClientId, 'access', wrong)).statusCode, 401);
    const read = (await call('GET', client.ibsClientId, 'access')).json().data;
    assert.equal(read.status, 'Active');
  });
});
