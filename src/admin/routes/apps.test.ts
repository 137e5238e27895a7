import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  adminHeaders,
  createClient,
  publicKeyPem,
  rsaKeyPair,
  signAssertion,
  type TestClient,
} from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('/admin/clients/:id/apps: list, revoke, add and revoke keys', () => {
  let testApp: TestApp;
  let client: TestClient;
  before(async () => {
    testApp = await buildTestApp();
    client = await createClient(testApp.app, 'Acme Ltd', 0);
  });
  after(() => testApp?.close());
  const call = (
    method: 'GET' | 'POST',
    url: string,
    payload?: Record<string, unknown>,
    headers: Record<string, string> = adminHeaders,
  ) => testApp.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  const listApps = async (clientId: string) => {
    const response = await call('GET', `/admin/clients/${clientId}/apps`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data;
  };
  const token = async (owner: TestClient) =>
    testApp.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: {
        grant_type: 'client_credentials',
        client_id: owner.oauthClientId,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: await signAssertion(owner, { now: testApp.clock.now() }),
      },
    });

  it("200: a client's apps with their keys, as registered", async () => {
    const apps = await listApps(client.ibsClientId);
    assert.equal(apps.length, 1);
    const [app] = apps;
    assert.equal(app.client, client.ibsClientId);
    assert.equal(app.clientId, client.oauthClientId);
    assert.equal(app.name, 'Test app');
    assert.equal(app.algorithm, 'RS256');
    assert.equal(app.status, 'Active');
    assert.equal(app.revokedAt, null);
    assert.equal(app.keys.length, 1);
    assert.equal(app.keys[0].revokedAt, null);
  });

  it('201: a key is added, listed, and signs for a token; its revocation stops it', async () => {
    const owner = await createClient(testApp.app, 'Rotating Ltd', 0);
    const [app] = await listApps(owner.ibsClientId);
    const oldKeyId = app.keys[0]._id as string;
    const added = await call('POST', `/admin/clients/${owner.ibsClientId}/apps/${app._id}/keys`, {
      publicKey: publicKeyPem(rsaKeyPair(1).publicKey),
    });
    assert.equal(added.statusCode, 201, added.body);
    const key = added.json().data;
    assert.equal(key.algorithm, 'RS256');
    assert.equal(key.revokedAt, null);
    assert.notEqual(key._id, oldKeyId);
    const [listed] = await listApps(owner.ibsClientId);
    assert.deepEqual(
      listed.keys.map((each: { _id: string }) => each._id).sort(),
      [oldKeyId, key._id].sort(),
    );
    const rotated = { ...owner, privateKey: rsaKeyPair(1).privateKey };
    assert.equal((await token(rotated)).statusCode, 201);

    const revoked = await call(
      'POST',
      `/admin/clients/${owner.ibsClientId}/apps/${app._id}/keys/${oldKeyId}/revoke`,
    );
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.deepEqual(revoked.json().data, { _id: oldKeyId });
    const [afterwards] = await listApps(owner.ibsClientId);
    const old = afterwards.keys.find((each: { _id: string }) => each._id === oldKeyId);
    assert.equal(typeof old.revokedAt, 'string');
    assert.notEqual((await token(owner)).statusCode, 201);
    assert.equal((await token(rotated)).statusCode, 201);
  });

  it('200: a revoked app is listed as Revoked and gets no token', async () => {
    const owner = await createClient(testApp.app, 'Revoked Ltd', 0);
    assert.equal((await token(owner)).statusCode, 201);
    const [app] = await listApps(owner.ibsClientId);
    const revoked = await call(
      'POST',
      `/admin/clients/${owner.ibsClientId}/apps/${app._id}/revoke`,
    );
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.deepEqual(revoked.json().data, { _id: app._id });
    const [afterwards] = await listApps(owner.ibsClientId);
    assert.equal(afterwards.status, 'Revoked');
    assert.equal(typeof afterwards.revokedAt, 'string');
    const refused = await token(owner);
    assert.notEqual(refused.statusCode, 201, refused.body);
    assert.equal(refused.json().access_token, undefined);
  });

  it('400 for an unknown client or app, and for a key that is not a PEM', async () => {
    const unknownClient = await call('GET', '/admin/clients/0123456789abcdef01234567/apps');
    assert.equal(unknownClient.statusCode, 400, unknownClient.body);
    assert.equal(unknownClient.json().code, 'RECORD_NOT_FOUND');
    const unknownApp = await call(
      'POST',
      `/admin/clients/${client.ibsClientId}/apps/0123456789abcdef01234567/revoke`,
    );
    assert.equal(unknownApp.statusCode, 400, unknownApp.body);
    const [app] = await listApps(client.ibsClientId);
    const badKey = await call('POST', `/admin/clients/${client.ibsClientId}/apps/${app._id}/keys`, {
      publicKey: 'not a key',
    });
    assert.equal(badKey.statusCode, 400, badKey.body);
    const [still] = await listApps(client.ibsClientId);
    assert.equal(still.keys.length, 1);
  });

  it('401 without the admin token', async () => {
    const wrong = { authorization: 'Bearer wrong' };
    const list = await call('GET', `/admin/clients/${client.ibsClientId}/apps`, undefined, wrong);
    assert.equal(list.statusCode, 401);
    const [app] = await listApps(client.ibsClientId);
    const revoke = await call(
      'POST',
      `/admin/clients/${client.ibsClientId}/apps/${app._id}/revoke`,
      undefined,
      wrong,
    );
    assert.equal(revoke.statusCode, 401);
    const [still] = await listApps(client.ibsClientId);
    assert.equal(still.status, 'Active');
  });
});
