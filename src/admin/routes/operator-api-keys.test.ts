import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { operatorWithRoles } from '../../../test/operators.ts';

describe('operator API keys: /admin/operators/me/api-keys, /admin/operators/:id/api-keys', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp();
  });
  after(() => testApp?.close());

  const call = (
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => testApp.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  const whoAmI = (token: string) =>
    call('GET', '/admin/operators/me', { authorization: `Bearer ${token}` });

  it('an operator issues a key (shown once, hashed at rest), lists it without the key, revokes it', async () => {
    const ada = await operatorWithRoles(testApp, ['viewer']);
    const issued = await call('POST', '/admin/operators/me/api-keys', ada.headers, {
      name: 'reconciliation script',
      expiresInDays: 7,
    });
    assert.equal(issued.statusCode, 201, issued.body);
    const { key, token } = issued.json().data;
    assert.match(token, /^oibs_opk_/);
    assert.equal((await whoAmI(token)).json().data.actor, `operator:${ada.email}`);
    const stored = await testApp.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM operator_api_keys WHERE id = $1',
      [key._id],
    );
    assert.notEqual(stored[0]?.token_hash, token);
    const listed = await call('GET', '/admin/operators/me/api-keys', ada.headers);
    assert.ok(listed.json().data.some((row: { _id: string }) => row._id === key._id));
    assert.ok(!listed.body.includes(token));
    const revoked = await call(
      'POST',
      `/admin/operators/me/api-keys/${key._id}/revoke`,
      ada.headers,
    );
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.notEqual(revoked.json().data.revokedAt, null);
    assert.equal((await whoAmI(token)).statusCode, 401);
  });

  it("a key expires; someone else's key cannot be revoked through /me", async () => {
    const ada = await operatorWithRoles(testApp, ['viewer']);
    const bola = await operatorWithRoles(testApp, ['viewer']);
    const issued = await call('POST', '/admin/operators/me/api-keys', ada.headers, {
      name: 'short',
      expiresInDays: 1,
    });
    const { key, token } = issued.json().data;
    const foreign = await call(
      'POST',
      `/admin/operators/me/api-keys/${key._id}/revoke`,
      bola.headers,
    );
    assert.equal(foreign.statusCode, 400, foreign.body);
    assert.equal((await whoAmI(token)).statusCode, 200);
    testApp.clock.advance(86_400_000 + 1_000);
    assert.equal((await whoAmI(token)).statusCode, 401);
  });

  it('break-glass issues an operator’s first key; an admin cannot issue one for someone else', async () => {
    const first = await testApp.services.operators.create(
      { email: 'first@bank.test', displayName: 'First', roles: ['admin'] },
      {
        kind: 'break-glass',
        operatorId: null,
        roles: ['admin'],
        sessionId: 'x',
        actor: 'break-glass',
      },
    );
    const issued = await call('POST', `/admin/operators/${first.id}/api-keys`, adminHeaders, {
      name: 'bootstrap',
    });
    assert.equal(issued.statusCode, 201, issued.body);
    const admin = { authorization: `Bearer ${issued.json().data.token}` };
    const other = await operatorWithRoles(testApp, ['viewer']);
    const refused = await call('POST', `/admin/operators/${other.id}/api-keys`, admin, {
      name: 'x',
    });
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal((await call('GET', '/admin/operators/me/api-keys', adminHeaders)).statusCode, 403);
  });

  it("security revokes anyone's key (an incident); viewers cannot", async () => {
    const security = await operatorWithRoles(testApp, ['security']);
    const bola = await operatorWithRoles(testApp, ['viewer']);
    const [key] = await testApp.services.operators.listApiKeys(bola.id);
    assert.ok(key);
    const url = `/admin/operators/${bola.id}/api-keys/${key.id}/revoke`;
    assert.equal((await call('POST', url, bola.headers)).statusCode, 403);
    const revoked = await call('POST', url, security.headers);
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.equal((await call('GET', '/admin/operators/me', bola.headers)).statusCode, 401);
  });
});
